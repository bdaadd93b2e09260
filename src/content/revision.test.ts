import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitState } from './revision.js';

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
