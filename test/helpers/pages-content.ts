/**
 * The bundled `content/` folder as a {@link ContentFiles} map, so page tests can run the real server (through
 * `startTestServer({ editContent })`) on the real catalog in a temporary copy they may edit.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { ContentFiles } from './content-fixture.js';

/** Root of the bundled catalog. */
export const BUNDLED_CONTENT_DIR = join(import.meta.dirname, '..', '..', 'content');

/** Every file of the bundled catalog, by `/`-separated path relative to `content/`. */
export async function bundledContentFiles(): Promise<ContentFiles> {
  const files: ContentFiles = {};
  for (const entry of await readdir(BUNDLED_CONTENT_DIR, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = join(entry.parentPath, entry.name);
    files[relative(BUNDLED_CONTENT_DIR, abs).split(sep).join('/')] = await readFile(abs, 'utf8');
  }
  return files;
}

/** `startTestServer`'s `editContent` that swaps the small fixture for the bundled catalog. */
export function useBundledContent(bundled: ContentFiles): (files: ContentFiles) => void {
  return (files) => {
    for (const key of Object.keys(files)) delete files[key];
    Object.assign(files, bundled);
  };
}
