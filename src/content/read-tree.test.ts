import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isHiddenPath, listContentTree } from './read-tree.js';

describe('listContentTree', () => {
  let dir: string;
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A tree of Markdown files, other files, a hidden folder, a link to a folder, a link to a file and a submodule. */
  const makeTree = (): void => {
    dir = mkdtempSync(join(tmpdir(), 'read-tree-'));
    for (const rel of ['catalog.md', 'courses/b/index.md', 'courses/a/k/l.md', 'courses/a/index.md', 'courses/a/k/é.md', 'courses/a/k/z.md']) {
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      writeFileSync(join(dir, rel), '---\n---\n');
    }
    mkdirSync(join(dir, '.git/objects'), { recursive: true });
    writeFileSync(join(dir, '.git/objects/x.md'), '');
    writeFileSync(join(dir, 'courses/a/notes.txt'), '');
    symlinkSync('/usr', join(dir, 'courses/usr'));
    symlinkSync(join(dir, 'catalog.md'), join(dir, 'courses/a/k/link.md'));
    mkdirSync(join(dir, 'courses/vendor'));
    writeFileSync(join(dir, 'courses/vendor/.git'), 'gitdir: ../../.git/modules/vendor\n');
    writeFileSync(join(dir, 'courses/vendor/index.md'), '---\n---\n');
  };

  it('lists Markdown files, links and submodules by the rule of read-tree.ts, sorted, never following a link nor entering a submodule', async () => {
    makeTree();
    expect(await listContentTree(dir)).toEqual({
      markdown: ['catalog.md', 'courses/a/index.md', 'courses/a/k/l.md', 'courses/a/k/z.md', 'courses/a/k/é.md', 'courses/b/index.md'],
      links: ['courses/a/k/link.md', 'courses/usr'],
      submodules: ['courses/vendor'],
    });
  });

  it('lets the event loop run between slices of the walk: a timer set before it fires before it ends', async () => {
    makeTree();
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 6)); // every second check finds the slice over
    let ran = false;
    setImmediate(() => (ran = true));
    const walk = listContentTree(dir);
    expect(ran).toBe(false);
    expect((await walk).markdown).toHaveLength(6);
    expect(ran).toBe(true);
  });

  it('rejects with the error of reading the folder itself', async () => {
    dir = mkdtempSync(join(tmpdir(), 'read-tree-'));
    await expect(listContentTree(join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
    writeFileSync(join(dir, 'file'), '');
    await expect(listContentTree(join(dir, 'file'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });
});

describe('isHiddenPath', () => {
  it('is true when any part of the path starts with a dot, wherever the part is', () => {
    for (const rel of ['.git', '.git/HEAD', 'courses/.draft.md', 'courses/x/.DS_Store', 'a/.b/c.md', '..', 'a/..b', 'a//.b']) {
      expect(isHiddenPath(rel), rel).toBe(true);
    }
    for (const rel of ['', 'catalog.md', 'courses/python/lesson.md', 'a.b/c.md', 'a/b.', 'a/b./c', 'x/y/z.md']) {
      expect(isHiddenPath(rel), rel).toBe(false);
    }
  });

  it('agrees with splitting the path into parts, on paths made of dots, slashes and letters', () => {
    const alphabet = ['a', '.', '/'];
    for (let length = 0; length <= 6; length++) {
      for (let n = 0; n < 3 ** length; n++) {
        let rel = '';
        for (let k = 0, m = n; k < length; k++, m = Math.floor(m / 3)) rel += alphabet[m % 3];
        expect(isHiddenPath(rel), rel).toBe(rel.split('/').some((part) => part.startsWith('.')));
      }
    }
  });
});
