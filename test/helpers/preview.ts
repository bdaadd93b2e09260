/** The writers' preview on a fresh copy of the content fixture, and edits saved into it as editors save. */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { expect } from 'vitest';
import { startPreview, type Preview } from '../../src/preview/preview.js';
import type { PreviewTime } from '../../src/preview/time.js';
import { writeContentFixture, type ContentFiles } from './content-fixture.js';

/**
 * Starts a preview of a new copy of the fixture (changed by `change`), at the instant `time` when given; the caller
 * closes it and removes `dir`.
 */
export async function startFixturePreview(change?: (files: ContentFiles) => void, time?: PreviewTime): Promise<{ dir: string; preview: Preview }> {
  const dir = await writeContentFixture(undefined, change);
  const preview = await startPreview({ dir, host: '127.0.0.1', port: 0, debounceMs: 50, logger: pino({ level: 'silent' }), ...(time && { time }) });
  return { dir, preview };
}

/**
 * Replaces `from` with `to` in the content file `path` of `dir` (it must be there), as an editor that saves
 * atomically does: the watcher never sees a half-written file.
 */
export async function saveEdit(dir: string, path: string, from: string, to: string): Promise<void> {
  const text = await readFile(join(dir, path), 'utf8');
  expect(text).toContain(from);
  const staged = `${dir}.saving`;
  await writeFile(staged, text.replace(from, to));
  await rename(staged, join(dir, path));
}
