import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { FolderDigest, digestFiles, gitState } from './revision.js';

// A `git` first on PATH that records each call and fails, as git does outside a checkout.
let root: string;
let savedPath: string | undefined;
let savedGitDir: string | undefined;
const called = (): boolean => existsSync(join(root, 'git-was-called'));

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'revision-'));
  await mkdir(join(root, 'bin'));
  await writeFile(join(root, 'bin/git'), `#!/bin/sh\ntouch '${join(root, 'git-was-called')}'\nexit 128\n`);
  await chmod(join(root, 'bin/git'), 0o755);
  savedPath = process.env.PATH;
  savedGitDir = process.env.GIT_DIR;
  process.env.PATH = `${join(root, 'bin')}:${savedPath ?? ''}`;
  delete process.env.GIT_DIR;
  await mkdir(join(root, 'site/content'), { recursive: true });
});

afterEach(async () => {
  process.env.PATH = savedPath;
  if (savedGitDir === undefined) delete process.env.GIT_DIR;
  else process.env.GIT_DIR = savedGitDir;
  await rm(root, { recursive: true, force: true });
});

describe('FolderDigest', () => {
  it('refuses a file parsed without its hash rather than digest a wrong text', () => {
    expect(() => digestFiles([{ rel: 'catalog.md', sha256: undefined }])).toThrow('catalog.md was parsed without its hash');
  });
});

describe('gitState', () => {
  it('does not run git for a folder with no .git in it or above it (git could only fail)', async () => {
    expect(await gitState(join(root, 'site/content'))).toBeUndefined();
    expect(called()).toBe(false);
  });

  it('runs git once a .git appears above the folder (a checkout made later counts at the next load)', async () => {
    await mkdir(join(root, 'site/.git'));
    expect(await gitState(join(root, 'site/content'))).toBeUndefined(); // the fake git fails
    expect(called()).toBe(true);
  });

  it('runs git for a .git file (a linked worktree or a submodule) and when GIT_DIR names a repository', async () => {
    await writeFile(join(root, 'site/content/.git'), 'gitdir: /elsewhere\n');
    await gitState(join(root, 'site/content'));
    expect(called()).toBe(true);
    await rm(join(root, 'git-was-called'));
    await rm(join(root, 'site/content/.git'));
    process.env.GIT_DIR = join(root, 'repo.git');
    await gitState(join(root, 'site/content'));
    expect(called()).toBe(true);
  });
});

describe('digestFiles and FolderDigest', () => {
  const file = (rel: string, sha256: string) => ({ rel, sha256 });
  /** The digest as its comment states it, computed here from scratch. */
  const expected = (files: { rel: string; sha256: string }[]) =>
    `sha256:${createHash('sha256')
      .update(files.map((f) => `${f.rel}\0${f.sha256}\n`).join(''))
      .digest('hex')}`;

  it('hashes each path and file hash in code-point order, whatever order the files come in', () => {
    // U+1F600 sorts after U+FFFD by code point, before it by UTF-16 unit.
    const inOrder = [file('a.md', '1'), file('b/c.md', '2'), file('b/\uFFFD.md', '3'), file('b/\u{1F600}.md', '4')];
    expect(digestFiles(inOrder)).toBe(expected(inOrder));
    expect(digestFiles([...inOrder].reverse())).toBe(expected(inOrder));
    expect(digestFiles([...inOrder].sort((a, b) => (a.rel < b.rel ? -1 : 1)))).toBe(expected(inOrder)); // UTF-16 order
  });

  it('tells apart a changed file, a renamed one and a removed one, with the other files the very same objects', () => {
    const files = [file('a.md', '1'), file('b.md', '2'), file('c.md', '3')];
    const before = digestFiles(files);
    expect(digestFiles(files)).toBe(before);
    const changed = [files[0]!, file('b.md', '9'), files[2]!];
    expect(digestFiles(changed)).toBe(expected(changed));
    expect(digestFiles([files[0]!, file('bb.md', '2'), files[2]!])).not.toBe(before);
    expect(digestFiles([files[0]!, files[2]!])).not.toBe(before);
    expect(digestFiles(files)).toBe(before);
  });

  it('keeps its value from load to load through edits, additions, removals, renames and any input order', () => {
    // A seeded sequence over several pieces of 64 files: a wrongly reused piece, or files taken as in order when
    // they are not, gives a value other than the one computed from scratch.
    let state = 7;
    const random = (n: number) => {
      state ^= state << 13; // xorshift32
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) % n;
    };
    const byPath = (a: { rel: string }, b: { rel: string }) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0); // ASCII paths
    let files = Array.from({ length: 300 }, (_, i) => file(`courses/c${i % 7}/l${String(i).padStart(4, '0')}.md`, `v0-${i}`));
    const digest = new FolderDigest();
    let next = 300;
    for (let step = 0; step < 200; step++) {
      const at = random(files.length);
      const op = random(6);
      if (op === 0) files.splice(at, 0, file(`courses/c${random(7)}/l${next++}.md`, `new-${step}`));
      else if (op === 1 && files.length > 1) files.splice(at, 1);
      else if (op === 2)
        files[at] = file(`courses/c${random(7)}/r${next++}.md`, files[at]!.sha256); // renamed
      else if (op === 3)
        files = [...files].reverse(); // another order, the same files
      else files[at] = file(files[at]!.rel, `v${step}`); // edited: a new object with the same path
      if (op !== 3 && random(2) === 0) files.sort(byPath); // sometimes in order, as the loader's cache mostly is
      expect(digest.of(files), `step ${step}`).toBe(expected([...files].sort(byPath)));
    }
  });
});
