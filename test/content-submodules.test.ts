/**
 * One rule for Git submodules inside the content tree (read-tree.ts), on real repositories in temporary folders: a
 * submodule is a problem at its path, and nothing in it is read, in the cold load, `syllabus-content validate`, the
 * watcher, a commit read without a checkout and the Git follower's checkout; `validate --base` and `diff` against a
 * base holding one check the ids of the files it holds instead of passing without a check.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/content-cli/main.js';
import { ContentLoader } from '../src/content/loader.js';
import type { LoadResult } from '../src/content/model.js';
import { SUBMODULE_PROBLEM } from '../src/content/read-tree.js';
import { writeCheckout } from '../src/source/git-checkout.js';
import { watchContent } from '../src/source/watch.js';
import { removeTree, writeContentFixture } from './helpers/content-fixture.js';
import { eventually } from './helpers/eventually.js';
import { createContentRemote, type ContentRemote } from './helpers/git-repo.js';

const ROOT = join(import.meta.dirname, '..');
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const FIRST_STEPS = 'content/courses/python-basics/first-steps';

/** Runs the command in-process in `cwd`, as the bin would. */
async function cli(args: string[], cwd: string): Promise<{ code: number; stdout: string[]; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(args, { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l), env: { GITHUB_ACTIONS: '' }, cwd });
  return { code, stdout, stderr: stderr.join('\n') };
}

let remote: ContentRemote;
let sub: ContentRemote;
let commit: string;
beforeEach(async () => {
  remote = await createContentRemote();
  sub = await createContentRemote();
  // The submodule is a whole content repository: were it read, its files would be problems (unexpected files).
  await remote.git('-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', sub.bare, 'content/vendor');
  commit = await remote.commit('Add a submodule under content/', {});
});
afterEach(async () => {
  await remote.remove();
  await sub.remove();
});

describe('a Git submodule inside the content tree', () => {
  it('is one problem at its path in a cold load, and nothing in it is read', async () => {
    const result = await new ContentLoader(join(remote.work, 'content'), { displayRoot: 'content' }).load();
    expect(result.ok ? [] : result.problems).toEqual([{ path: 'content/vendor', line: 1, column: 1, message: SUBMODULE_PROBLEM }]);
  });

  it('is reported the same way by syllabus-content validate run as a process, exit 1', async () => {
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(
        process.execPath,
        ['--import', TSX, join(ROOT, 'src/content-cli/main.ts'), 'validate', 'content'],
        { cwd: remote.work, env: { ...process.env, GITHUB_ACTIONS: '' } },
        (err, out) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout: out }),
      ),
    );
    expect(stdout.trim().split('\n')).toEqual([`content/vendor:1:1: ${SUBMODULE_PROBLEM}`]);
    expect(code).toBe(1);
  });

  it('keeps the Git follower from checking the commit out: a problem at its path', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'syllabus-checkout-'));
    try {
      const problems = await writeCheckout({
        repo: remote.bare,
        commit,
        path: 'content',
        dir: join(scratch, 'checkout'),
        maxTotalBytes: 64 * 1024 * 1024,
        timeoutMs: 30_000,
      });
      expect(problems).toEqual([{ path: 'content/vendor', line: 1, column: 1, message: SUBMODULE_PROBLEM }]);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it('in the base: validate --base and diff check the ids of the files it holds, and fail on a removed lesson', async () => {
    // The change drops the submodule (the base's only problem) and, by mistake, a lesson the base published.
    await remote.git('rm', '--quiet', '-r', 'content/vendor');
    await remote.git('rm', '--quiet', `${FIRST_STEPS}/variables.md`);
    await writeFile(join(remote.work, FIRST_STEPS, 'index.md'), '---\nname: First steps\nstatus: live\nlessons: [hello-world]\n---\n');
    const short = commit.slice(0, 7);
    const validate = await cli(['validate', 'content', '--base', 'HEAD'], remote.work);
    expect(validate.stdout).toEqual([
      `${FIRST_STEPS}/index.md:4:1: lesson "variables" was published at ${short} and is gone: add "aliases: [variables]" to the lesson that replaces it (ids are permanent once published), or announce its removal in a changelog entry's "removes"`,
    ]);
    expect(validate.stderr).toContain(
      `the base HEAD (${short}) is not valid content (1 problem: ${short}:content/vendor holding no content it reads); checking the ids of the files it holds`,
    );
    expect(validate.code).toBe(1);

    const diff = await cli(['diff', 'HEAD'], remote.work);
    expect(diff.stdout.join('\n')).toContain('- Removed `variables`: `Variables` in `python-basics/first-steps` — **breaking**');
    expect(diff.code).toBe(1);
  });

  it('in a base that is invalid for another reason: validate --base and diff fail, naming the cause', async () => {
    await remote.git('rm', '--quiet', '-r', 'content/vendor');
    const broken = await remote.commit('Break the catalog', { 'content/catalog.md': '---\ncourses: [python-basics, sql-basics]\n---\n' });
    await remote.git('rm', '--quiet', '-r', 'content/courses/rust-intro');
    const short = broken.slice(0, 7);
    const message = `the base HEAD (${short}) is not valid content, so the ids it published cannot be checked (fix the base branch, or name a valid commit): orphan course: catalog.md does not list "rust-intro"`;
    const validate = await cli(['validate', 'content', '--base', 'HEAD'], remote.work);
    expect(validate.stdout).toEqual([`${short}:content/courses/rust-intro/index.md:1:1: ${message}`]);
    expect(validate.code).toBe(1);
    const diff = await cli(['diff', 'HEAD'], remote.work);
    expect(diff.stdout).toEqual([`${short}:content/courses/rust-intro/index.md:1:1: ${message}`]);
    expect(diff.code).toBe(1);
  });
});

describe('the watcher', () => {
  it('turns a folder into a submodule problem when .git appears in it, and back when it leaves', async () => {
    const dir = await writeContentFixture();
    try {
      const loader = new ContentLoader(dir, { displayRoot: '' });
      expect((await loader.load()).ok).toBe(true);
      const results: LoadResult[] = [];
      const watch = await watchContent(dir, { loader, debounceMs: 30, onReload: (r) => void results.push(r) });
      const messages = (): string[] => {
        const last = results.at(-1);
        return !last || last.ok ? [] : last.problems.map((p) => `${p.path}: ${p.message}`);
      };
      try {
        await mkdir(join(dir, 'vendor'));
        await writeFile(join(dir, 'vendor/notes.md'), '# notes\n');
        await eventually(() => messages().some((m) => m.startsWith('vendor/notes.md: unexpected file')), { what: 'the file reported' });
        await writeFile(join(dir, 'vendor/.git'), 'gitdir: ../.git/modules/vendor\n');
        await eventually(() => messages().join() === `vendor: ${SUBMODULE_PROBLEM}`, { what: 'the submodule reported' });
        await rm(join(dir, 'vendor/.git'));
        await eventually(() => messages().some((m) => m.startsWith('vendor/notes.md: unexpected file')), { what: 'a folder again' });
        await rm(join(dir, 'vendor'), { recursive: true });
        await eventually(() => results.at(-1)?.ok === true, { what: 'valid once it is gone' });
      } finally {
        await watch.close();
      }
    } finally {
      await removeTree(dir);
    }
  });
});
