import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { digestFiles, gitState } from './revision.js';

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

describe('digestFiles', () => {
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
});
