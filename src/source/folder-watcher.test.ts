/**
 * The per-folder watcher on real folders: what it reports for the cases a watch per folder must handle itself
 * (folders that appear with files already in them, folders replaced under the same name, folders and links that
 * go), and what it never reports or watches (hidden folders, other files).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { listContentTree } from '../content/read-tree.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../test/helpers/eventually.js';
import { watchFolders, type FolderWatch } from './folder-watcher.js';

let dir = '';
let watch: FolderWatch | undefined;
const reported = new Set<string>();
const errors: unknown[] = [];

async function start(files: string[] = []): Promise<void> {
  dir = await mkdtemp(join(tmpdir(), 'syllabus-folder-watch-'));
  for (const file of files) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), '# x\n');
  }
  reported.clear();
  errors.length = 0;
  watch = watchFolders(dir, { onPaths: (paths) => paths.forEach((p) => reported.add(p)), onError: (e) => errors.push(e) });
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 150));

afterEach(async () => {
  watch?.close();
  watch = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe('watchFolders', () => {
  it('reports the files of a nested folder made and filled at once, and later edits in it', async () => {
    await start(['a.md']);
    await mkdir(join(dir, 'new/deep/er'), { recursive: true });
    for (const name of ['one.md', 'two.md']) await writeFile(join(dir, 'new/deep/er', name), '# x\n');
    await eventually(() => reported.has('new/deep/er/one.md') && reported.has('new/deep/er/two.md'), { what: 'the new files' });
    reported.clear();
    await writeFile(join(dir, 'new/deep/er/one.md'), '# y\n');
    await eventually(() => reported.has('new/deep/er/one.md'), { what: 'an edit in the new folder' });
    expect(errors).toEqual([]);
  });

  it('watches a folder removed and made again under the same name', async () => {
    await start(['c/old.md']);
    // Synchronously, so no event is handled in between: the folder's events are judged when it is there again.
    rmSync(join(dir, 'c'), { recursive: true });
    mkdirSync(join(dir, 'c'));
    writeFileSync(join(dir, 'c/new.md'), '# x\n');
    await eventually(() => (reported.has('c/old.md') || reported.has('c/')) && reported.has('c/new.md'), { what: 'the old file gone, the new one' });
    reported.clear();
    await writeFile(join(dir, 'c/new.md'), '# y\n');
    await eventually(() => reported.has('c/new.md'), { what: 'an edit in the new folder' });
  });

  it('reports a removed folder as `folder/`, and a link added or removed without following it', async () => {
    await start(['gone/x.md']);
    const outside = await mkdtemp(join(tmpdir(), 'syllabus-outside-'));
    try {
      await rm(join(dir, 'gone'), { recursive: true });
      await symlink(outside, join(dir, 'link'));
      await eventually(() => reported.has('gone/') && reported.has('link'), { what: 'the folder gone and the link' });
      await writeFile(join(outside, 'behind.md'), '# x\n');
      await settle();
      expect([...reported].filter((p) => p.startsWith('link/'))).toEqual([]);
      reported.clear();
      await rm(join(dir, 'link'));
      await eventually(() => reported.has('link'), { what: 'the link removed' });
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('never reports hidden paths or files other than Markdown, nor watches hidden folders', async () => {
    await start(['.git/objects/ab/cd', 'keep.md']);
    await mkdir(join(dir, '.git/objects/ef'), { recursive: true });
    await writeFile(join(dir, '.git/objects/ab/cd'), 'blob');
    await writeFile(join(dir, '.keep.md.swp'), 'swap');
    await writeFile(join(dir, 'notes.txt'), 'text');
    await writeFile(join(dir, 'keep.md'), '# y\n');
    await eventually(() => reported.has('keep.md'), { what: 'the Markdown edit' });
    await settle();
    expect([...reported]).toEqual(['keep.md']);
  });

  it('lists the tree as it arms, by the rule and in the order of listContentTree', async () => {
    await start(['catalog.md', 'courses/b/index.md', 'courses/a/k/z.md', 'courses/a/k/é.md', 'courses/a/k/l.md', '.git/x.md', 'courses/a/notes.txt']);
    await symlink('/usr', join(dir, 'courses/usr'));
    watch?.close();
    watch = watchFolders(dir, { onPaths: () => undefined, onError: (e) => errors.push(e) });
    const walked = await listContentTree(dir);
    expect(walked.markdown).toEqual(['catalog.md', 'courses/a/k/l.md', 'courses/a/k/z.md', 'courses/a/k/é.md', 'courses/b/index.md']);
    expect(walked.links).toEqual(['courses/usr']);
    expect(watch.listing).toEqual(walked);
  });

  it('throws when the folder itself cannot be watched', async () => {
    await start();
    expect(() => watchFolders(join(dir, 'missing'), { onPaths: () => undefined, onError: () => undefined })).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
  });
});
