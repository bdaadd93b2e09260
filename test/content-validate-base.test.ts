/**
 * `syllabus-content validate --base <ref>` on a real Git repository in a temporary folder: an id the base published
 * that leads nowhere in the working folder is a problem at its parent's list, an alias keeps it, a bad ref is a
 * usage error; and the content of a commit, read without a checkout, is judged exactly like a folder's.
 */
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/content-cli/main.js';
import { loadContentAtCommit, locateRepository, resolveCommit, GitContentError } from '../src/content/git-tree.js';
import { loadContent } from '../src/content/loader.js';
import { LINK_PROBLEM, SUBMODULE_PROBLEM } from '../src/content/read-tree.js';
import { removeTree, writeContentFixture } from './helpers/content-fixture.js';
import { createContentRemote, git, type ContentRemote } from './helpers/git-repo.js';

const FIRST_STEPS = 'content/courses/python-basics/first-steps';

/** Runs the command in-process in `cwd`, as the bin would. */
async function cli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string[]; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(args, { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l), env: { GITHUB_ACTIONS: '', ...env }, cwd });
  return { code, stdout, stderr: stderr.join('\n') };
}

let remote: ContentRemote;
let short: string;
beforeEach(async () => {
  remote = await createContentRemote();
  short = (await remote.git('rev-parse', '--short=7', 'HEAD')).trim();
});
afterEach(() => remote.remove());

/** Renames the lesson `variables` to `names` in the working tree (uncommitted), with `aliases` lines if given. */
async function renameVariables(...aliases: string[]): Promise<void> {
  await remote.git('mv', `${FIRST_STEPS}/variables.md`, `${FIRST_STEPS}/names.md`);
  await writeNames(...aliases);
}

/** Writes the lesson `names` (`variables` renamed), with `aliases` lines if given. */
async function writeNames(...aliases: string[]): Promise<void> {
  await writeFile(join(remote.work, FIRST_STEPS, 'names.md'), `---\ntitle: Names\nlang: python\n${aliases.join('\n')}\n---\n\n## Names\n`);
  await writeFile(
    join(remote.work, FIRST_STEPS, 'index.md'),
    '---\nname: First steps\nstatus: live\nlessons: [hello-world, names]\nsoon:\n  - String formatting\n---\n',
  );
}

describe('validate --base', () => {
  it('fails on a lesson renamed without an alias, naming the id at the class\'s "lessons:" line', async () => {
    await renameVariables();
    const { code, stdout, stderr } = await cli(['validate', 'content', '--base', 'main'], remote.work);
    expect(code).toBe(1);
    expect(stdout).toEqual([
      `${FIRST_STEPS}/index.md:4:1: lesson "variables" was published at ${short} and is gone: add "aliases: [variables]" to the lesson that replaces it (ids are permanent once published), or announce its removal in a changelog entry's "removes"`,
    ]);
    expect(stderr).toContain('content: 1 problem in 1 file');
  });

  it('passes when the renamed lesson declares its old id as an alias', async () => {
    await renameVariables('aliases: [variables]');
    const { code, stdout, stderr } = await cli(['validate', 'content', '--base', 'main'], remote.work);
    expect(stdout).toEqual([]);
    expect(stderr).toContain(`content: every id published at main (${short}) still leads to its resource`);
    expect(code).toBe(0);
  });

  it('keeps an id published only as an alias: dropping the alias breaks it', async () => {
    await renameVariables('aliases: [variables, vars]');
    await remote.commit('Rename variables', {});
    const next = (await remote.git('rev-parse', '--short=7', 'HEAD')).trim();
    await writeNames('aliases: [variables]');
    const { code, stdout } = await cli(['validate', 'content', '--base', 'HEAD'], remote.work);
    expect(code).toBe(1);
    expect(stdout).toEqual([
      `${FIRST_STEPS}/index.md:4:1: lesson "vars" was published at ${next} and is gone: add "aliases: [vars]" to the lesson that replaces it (ids are permanent once published), or announce its removal in a changelog entry's "removes"`,
    ]);
  });

  it('fails on a removed course, class and changelog entry, each at the best place, with annotations under GitHub Actions', async () => {
    await remote.git(
      'rm',
      '-r',
      '--quiet',
      'content/courses/rust-intro',
      'content/courses/python-basics/functions',
      'content/changelog/for-loops-2025-06-10.md',
    );
    await writeFile(join(remote.work, 'content/catalog.md'), '---\ncourses: [python-basics, sql-basics]\n---\n');
    await writeFile(
      join(remote.work, 'content/courses/python-basics/index.md'),
      '---\ntitle: Python basics\ncolor: "#3776ab"\nstatus: live\nclasses: [first-steps, loops]\n---\n',
    );
    const { code, stdout } = await cli(['validate', 'content', '--base', 'origin/main'], remote.work, {
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: remote.work,
    });
    expect(code).toBe(1);
    const tail = 'was published at ' + short + ' and is gone: add';
    const plain = [
      `content/catalog.md:2:1: course "rust-intro" ${tail} "aliases: [rust-intro]" to the course that replaces it (ids are permanent once published), or announce its removal in a changelog entry's "removes"`,
      `content/changelog/for-loops-2025-06-10.md:1:1: changelog entry "for-loops-2025-06-10" ${tail} "aliases: [for-loops-2025-06-10]" to the changelog entry that replaces it (ids are permanent once published), or announce its removal in a changelog entry's "removes"`,
      `content/courses/python-basics/index.md:5:1: class "functions" of course "python-basics" ${tail} "aliases: [functions]" to the class of "python-basics" that replaces it (ids are permanent once published), or announce its removal in a changelog entry's "removes"`,
      // The soon course's class went with it: reported at the catalog too.
      `content/catalog.md:2:1: class "ownership" of course "rust-intro" ${tail} "aliases: [ownership]" to the class of "rust-intro" that replaces it (ids are permanent once published), or announce its removal in a changelog entry's "removes"`,
    ];
    for (const line of plain) expect(stdout).toContain(line);
    expect(stdout.filter((l) => / was published at /.test(l) && !l.startsWith('::'))).toHaveLength(4);
    expect(stdout).toContain(
      `::error file=content/courses/python-basics/index.md,line=5,col=1::class "functions" of course "python-basics" ${tail} "aliases: [functions]" to the class of "python-basics" that replaces it (ids are permanent once published), or announce its removal in a changelog entry's "removes"`,
    );
    expect(stdout.filter((l) => l.startsWith('::error '))).toHaveLength(4);
  });

  it('accepts ids whose removal a changelog entry announces in "removes", and only those', async () => {
    await remote.git('rm', '-r', '--quiet', 'content/courses/rust-intro', `${FIRST_STEPS}/variables.md`);
    await writeFile(join(remote.work, 'content/catalog.md'), '---\ncourses: [python-basics, sql-basics]\n---\n');
    await writeFile(join(remote.work, FIRST_STEPS, 'index.md'), '---\nname: First steps\nstatus: live\nlessons: [hello-world]\n---\n');
    const entry = (removes: string): string =>
      `---\nkind: course\ntitle: Rust intro is withdrawn\nblurb: Not planned any more.\nremoves:\n${removes}---\n\nThe Rust course and a lesson leave the catalog.\n`;
    const rel = 'content/changelog/rust-withdrawn-2025-09-01.md';
    await writeFile(join(remote.work, rel), entry('  courses: [rust-intro]\n  classes: [{ course: rust-intro, id: ownership }]\n'));
    const partly = await cli(['validate', 'content', '--base', 'main'], remote.work);
    expect(partly.code).toBe(1);
    expect(partly.stdout).toEqual([
      `${FIRST_STEPS}/index.md:4:1: lesson "variables" was published at ${short} and is gone: add "aliases: [variables]" to the lesson that replaces it (ids are permanent once published), or announce its removal in a changelog entry's "removes"`,
    ]);
    await writeFile(
      join(remote.work, rel),
      entry('  courses: [rust-intro]\n  classes: [{ course: rust-intro, id: ownership }]\n  lessons: [variables]\n'),
    );
    const announced = await cli(['validate', 'content', '--base', 'main'], remote.work);
    expect(announced.stdout).toEqual([]);
    expect(announced.code).toBe(0);
    const diff = await cli(['diff', 'main'], remote.work);
    expect(
      diff.stdout
        .join('\n')
        .split('\n')
        .filter((l) => l.startsWith('- Removed')),
    ).toEqual([
      '- Removed `rust-intro`: `Rust intro`, soon (retired on 2025-09-01 by changelog entry `rust-withdrawn-2025-09-01`)',
      '- Removed `rust-intro/ownership`: `Ownership`, soon (retired on 2025-09-01 by changelog entry `rust-withdrawn-2025-09-01`)',
      '- Removed `variables`: `Variables` in `python-basics/first-steps` (retired on 2025-09-01 by changelog entry `rust-withdrawn-2025-09-01`)',
    ]);
    expect(diff.code).toBe(0);
  });

  it("counts a removal only from its entry's date: a lesson removed by an entry dated 2099 breaks the check today", async () => {
    await remote.git('rm', '--quiet', `${FIRST_STEPS}/variables.md`);
    await writeFile(join(remote.work, FIRST_STEPS, 'index.md'), '---\nname: First steps\nstatus: live\nlessons: [hello-world]\n---\n');
    await writeFile(
      join(remote.work, 'content/changelog/variables-retired-2099-01-01.md'),
      '---\nkind: lesson\ntitle: Variables retired\nblurb: The lesson leaves.\nremoves:\n  lessons: [variables]\n---\n\nThe lesson leaves the catalog.\n',
    );
    const early = await cli(['validate', 'content', '--base', 'HEAD'], remote.work);
    expect(early.stdout).toEqual([
      `${FIRST_STEPS}/index.md:4:1: lesson "variables" was published at ${short} and is gone, but its removal takes effect only on 2099-01-01, ` +
        'the date of the changelog entry "variables-retired-2099-01-01" that announces it: until then the id must keep answering, so keep ' +
        'the lesson until that day (merge its removal on or after 2099-01-01), or date the entry today if it leaves now',
    ]);
    expect(early.code).toBe(1);
    const diff = await cli(['diff', 'HEAD'], remote.work);
    const lines = diff.stdout.join('\n').split('\n');
    expect(lines).toContain(
      '- Removed `variables`: `Variables` in `python-basics/first-steps` (retired on 2099-01-01 by changelog entry `variables-retired-2099-01-01`) ' +
        '— **breaking**: the removal takes effect on 2099-01-01, but the id is gone now',
    );
    expect(lines).toContain(
      '- Scheduled `variables-retired-2099-01-01` for 2099-01-01: 2099-01-01, lesson, `Variables retired` (published at 00:00 UTC that day)',
    );
    expect(diff.code).toBe(1);
    // On the entry's date the removal is in effect.
    const onTheDay = await runCli(['validate', 'content', '--base', 'HEAD'], {
      stdout: () => undefined,
      stderr: () => undefined,
      env: { GITHUB_ACTIONS: '' },
      cwd: remote.work,
      now: () => new Date('2099-01-01T00:00:00Z'),
    });
    expect(onTheDay).toBe(0);
  });

  it('follows a renamed course: its classes are found in the course that holds its alias', async () => {
    await remote.git('mv', 'content/courses/sql-basics', 'content/courses/sql-first');
    await writeFile(join(remote.work, 'content/catalog.md'), '---\ncourses: [python-basics, sql-first, rust-intro]\n---\n');
    await writeFile(
      join(remote.work, 'content/courses/sql-first/index.md'),
      '---\ntitle: SQL first\ncolor: "#336791"\nstatus: live\nclasses: [select]\naliases: [sql-basics]\n---\n',
    );
    const { code, stdout } = await cli(['validate', 'content', '--base', 'main'], remote.work);
    expect(stdout).toEqual([]);
    expect(code).toBe(0);
  });

  it("reports the working folder's own problems, and checks ids only once the folder is valid", async () => {
    await renameVariables('colour: red');
    const { code, stdout } = await cli(['validate', 'content', '--base', 'main'], remote.work);
    expect(code).toBe(1);
    // Only the folder's own problem: the renamed lesson's missing alias is not reported while the folder is invalid.
    expect(stdout).toHaveLength(1);
    expect(stdout[0]).toMatch(/^content\/courses\/python-basics\/first-steps\/names\.md:4:1: unknown key "colour"/);
  });

  it('exits 2, saying why, on a ref that is not a commit, however it is written', async () => {
    for (const ref of ['--output=x', 'HEAD;rm', 'no-such-branch', 'HEAD^{tree}', '', `main\nx`]) {
      const { code, stdout, stderr } = await cli(['validate', 'content', `--base=${ref}`], remote.work);
      expect({ ref, code }).toEqual({ ref, code: 2 });
      expect(stdout).toEqual([]);
      expect(stderr).toMatch(/^syllabus-content: --base: "(.*)" (is not a Git ref|does not name a commit in )/);
    }
    expect((await git(remote.work, ['status', '--porcelain'])).trim()).toBe(''); // no file "x" was written
  });

  it('exits 2 on origin/main in a clone without origin, noting that main exists', async () => {
    await remote.git('remote', 'remove', 'origin');
    const { code, stderr } = await cli(['validate', 'content', '--base', 'origin/main'], remote.work);
    expect(stderr).toBe(
      `syllabus-content: --base: "origin/main" does not name a commit in ${remote.work}: this repository has no remote "origin", ` +
        'but the local branch "main" exists (name it as "main")',
    );
    expect(code).toBe(2);
  });

  it('exits 2 outside a Git work tree', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'syllabus-nogit-'));
    try {
      const { code, stderr } = await cli(['validate', '.', '--base', 'main'], dir);
      expect(code).toBe(2);
      expect(stderr).toContain('is not inside a Git work tree');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the content of a commit', () => {
  it('is judged exactly like the same files in a folder, with the commit id as revision', async () => {
    const repo = await locateRepository(join(remote.work, 'content'));
    expect(repo).toEqual({ top: remote.work, prefix: 'content/' });
    const commit = await resolveCommit(repo, 'main');
    const fromGit = await loadContentAtCommit(repo, commit);
    const fromFolder = await loadContent(join(remote.work, 'content'));
    expect(fromGit.result.ok && fromFolder.ok).toBe(true);
    if (!fromGit.result.ok || !fromFolder.ok) return;
    expect(fromGit.result.model.revision).toBe(commit);
    expect({ ...fromGit.result.model, revision: '' }).toEqual({ ...fromFolder.model, revision: '' });
  });

  it('reports a link, a submodule and an oversize tree as problems, and never reads past the bound', async () => {
    await symlink('/etc/passwd', join(remote.work, 'content/notes.md'));
    const sub = await createContentRemote();
    try {
      await remote.git('-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', sub.bare, 'content/vendor');
      await remote.commit('A link and a submodule', {});
    } finally {
      await sub.remove();
    }
    const repo = await locateRepository(join(remote.work, 'content'));
    const commit = await resolveCommit(repo, 'HEAD');
    const { result } = await loadContentAtCommit(repo, commit);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.slice(0, 2)).toEqual([
      { path: `${commit.slice(0, 7)}:content/notes.md`, line: 1, column: 1, message: LINK_PROBLEM },
      { path: `${commit.slice(0, 7)}:content/vendor`, line: 1, column: 1, message: SUBMODULE_PROBLEM },
    ]);
    const small = await loadContentAtCommit(repo, commit, { maxTotalBytes: 1000 });
    expect(small.files.size).toBe(0);
    expect(small.result.ok ? [] : small.result.problems.map((p) => p.message)).toContain(
      'the content holds 1 MiB of Markdown, more than the 1 MiB read from a commit',
    );
  });

  it("names files of a commit with git's <commit>:<path> syntax, also when the content is the repository's top", async () => {
    const dir = await writeContentFixture(undefined, (files) => void (files['catalog.md'] = '---\ncourses: [python-basics, sql-basics]\n---\n'));
    try {
      await git(dir, ['init', '--quiet']);
      await git(dir, ['add', '--all']);
      await git(dir, ['commit', '--quiet', '-m', 'Content at the top']);
      const repo = await locateRepository(dir);
      expect(repo.prefix).toBe('');
      const commit = await resolveCommit(repo, 'HEAD');
      const { result } = await loadContentAtCommit(repo, commit);
      expect(result.ok ? [] : result.problems).toEqual([
        {
          path: `${commit.slice(0, 7)}:courses/rust-intro/index.md`,
          line: 1,
          column: 1,
          message: 'orphan course: catalog.md does not list "rust-intro"',
        },
      ]);
      const small = await loadContentAtCommit(repo, commit, { maxTotalBytes: 10 });
      expect(small.result.ok ? [] : small.result.problems.map((p) => p.path)).toEqual([`${commit.slice(0, 7)}:.`]);
    } finally {
      await removeTree(dir);
    }
  });

  it('refuses a ref that git would take as an option, before running git', async () => {
    const repo = await locateRepository(join(remote.work, 'content'));
    await expect(resolveCommit(repo, '--output=x')).rejects.toBeInstanceOf(GitContentError);
    await expect(resolveCommit(repo, 'HEAD;rm')).rejects.toThrow('"HEAD;rm" does not name a commit in');
  });
});
