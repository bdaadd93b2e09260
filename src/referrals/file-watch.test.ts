/** Following one file with fs.watch, on real files: written in place, renamed over, and behind a swapped link. */
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/helpers/eventually.js';
import { watchFile, type FileWatch } from './file-watch.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'file-watch-'));
  dirs.push(dir);
  return dir;
}

/** Watches `path`, counting change events; `changedAfter(action)` waits for at least one event after `action`. */
function counting(path: string): { watch: FileWatch; changedAfter: (what: string, action: () => Promise<void>) => Promise<void> } {
  let events = 0;
  const errors: unknown[] = [];
  const watch = watchFile(
    path,
    () => void events++,
    (error) => void errors.push(error),
  );
  return {
    watch,
    async changedAfter(what, action) {
      const before = events;
      await action();
      await eventually(() => events > before, { what });
      expect(errors).toEqual([]);
    },
  };
}

describe('watchFile', () => {
  it('sees the file written in place, renamed over, and the new file written in place', async () => {
    const dir = await folder();
    const file = join(dir, 'codes.txt');
    await writeFile(file, 'one\n');
    const { watch, changedAfter } = counting(file);
    try {
      await changedAfter('a write in place', () => writeFile(file, 'two\n'));
      await changedAfter('a rename over the file', async () => {
        await writeFile(join(dir, 'codes.txt.tmp'), 'three\n');
        await rename(join(dir, 'codes.txt.tmp'), file);
      });
      await changedAfter('a write of the new file', () => writeFile(file, 'four\n'));
    } finally {
      watch.close();
    }
  });

  it('follows a Kubernetes volume: a file behind the ..data link, written in place and then swapped', async () => {
    const dir = await folder();
    await mkdir(join(dir, '..2026_11_29_a'));
    await writeFile(join(dir, '..2026_11_29_a', 'codes.txt'), 'one\n');
    await symlink('..2026_11_29_a', join(dir, '..data'));
    await symlink('..data/codes.txt', join(dir, 'codes.txt'));
    const { watch, changedAfter } = counting(join(dir, 'codes.txt'));
    try {
      // Not an event of the watched folder: only the watch on the file the link resolves to sees it.
      await changedAfter('a write behind the link', () => writeFile(join(dir, '..2026_11_29_a', 'codes.txt'), 'two\n'));
      await changedAfter('the ..data link swapped', async () => {
        await mkdir(join(dir, '..2026_11_29_b'));
        await writeFile(join(dir, '..2026_11_29_b', 'codes.txt'), 'three\n');
        await symlink('..2026_11_29_b', join(dir, '..data_tmp'));
        await rename(join(dir, '..data_tmp'), join(dir, '..data'));
        await rm(join(dir, '..2026_11_29_a'), { recursive: true });
      });
      await changedAfter('a write behind the swapped link', () => writeFile(join(dir, '..2026_11_29_b', 'codes.txt'), 'four\n'));
    } finally {
      watch.close();
    }
  });

  it('throws when the folder cannot be watched', () => {
    expect(() =>
      watchFile(
        '/nonexistent/folder/codes.txt',
        () => undefined,
        () => undefined,
      ),
    ).toThrow(/ENOENT/);
  });
});
