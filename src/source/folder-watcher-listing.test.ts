/**
 * A folder the watcher cannot watch (`EMFILE` here, as `ENOSPC` or `EACCES` would be) leaves its files out of the
 * listing made while arming, so the watch offers no listing: the first load walks the tree itself.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { watchFolders, type FolderWatch } from './folder-watcher.js';

vi.mock('node:fs', async (importOriginal) => {
  const original = await importOriginal<typeof fs>();
  return {
    ...original,
    watch: (path: string, listener: fs.WatchListener<string>) => {
      if (path.endsWith('blocked')) throw Object.assign(new Error(`EMFILE: too many open files, watch '${path}'`), { code: 'EMFILE' });
      return original.watch(path, listener);
    },
  };
});

let dir = '';
let watch: FolderWatch | undefined;
afterEach(async () => {
  watch?.close();
  await rm(dir, { recursive: true, force: true });
});

it('offers no listing when a folder could not be watched, and one when every folder was', async () => {
  dir = await mkdtemp(join(tmpdir(), 'syllabus-folder-listing-'));
  for (const file of ['catalog.md', 'courses/blocked/index.md', 'courses/open/index.md']) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), '# x\n');
  }
  const errors: unknown[] = [];
  watch = watchFolders(dir, { onPaths: () => undefined, onError: (e) => errors.push(e) });
  expect(errors).toEqual([expect.objectContaining({ code: 'EMFILE' })]);
  expect(watch.listing).toBeUndefined();
  watch.close();

  watch = watchFolders(join(dir, 'courses/open'), { onPaths: () => undefined, onError: (e) => errors.push(e) });
  expect(watch.listing).toEqual({ markdown: ['index.md'], links: [], submodules: [] });
});
