/**
 * `syllabus-content diff` on a real Git repository in a temporary folder: the Markdown summary of a realistic pull
 * request (checked exactly), the GitHub step summary and annotations, the working folder as the default head,
 * exit statuses (1 when a published id breaks, 2 on a bad ref).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { code, diffModels, renderMarkdown } from '../src/content-cli/api-diff.js';
import { runCli } from '../src/content-cli/main.js';
import { loadContent } from '../src/content/loader.js';
import type { ContentModel } from '../src/content/model.js';
import { ModelIndex } from '../src/content-cli/published-ids.js';
import { removeTree, writeContentFixture, type ContentFiles } from './helpers/content-fixture.js';
import { createContentRemote, type ContentRemote } from './helpers/git-repo.js';

const PY = 'content/courses/python-basics';

/** Runs the command in-process in `cwd`, as the bin would. */
async function cli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(args, { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l), env: { GITHUB_ACTIONS: '', ...env }, cwd });
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}

/**
 * A realistic pull request: the lesson `variables` renamed `names` (with its alias, and a new title), the soon
 * class `functions` made live with a first lesson, a changelog entry announcing it (and deprecating a route), and a
 * roadmap item moved.
 */
const PULL_REQUEST = {
  [`${PY}/first-steps/index.md`]: '---\nname: First steps\nstatus: live\nlessons: [hello-world, names]\nsoon:\n  - String formatting\n---\n',
  [`${PY}/first-steps/names.md`]: '---\ntitle: Names and values\nlang: python\naliases: [variables]\n---\n\n## Names\n\n## Assignment\n\n## Types\n',
  [`${PY}/functions/index.md`]: '---\nname: Functions\nstatus: live\nlessons: [defining-functions]\nsoon: [Return values]\n---\n',
  [`${PY}/functions/defining-functions.md`]: '---\ntitle: Defining functions\nlang: python\n---\n\n## def\n\n## Call it\n',
  'content/changelog/functions-2025-07-01.md':
    '---\nkind: class\ntitle: Functions is live\nblurb: Write your own functions.\ndeprecates:\n  - path: /v1/changelog\n    sunset: 2025-12-01\n---\n\nA first lesson on `def`.\n',
  'content/roadmap/sql-joins.md': '---\ntitle: SQL joins\ntheme: Courses\nstage: shipped\nshipped: functions-2025-07-01\n---\n\nJoining tables.\n',
};

let remote: ContentRemote;
let base: string;
beforeEach(async () => {
  remote = await createContentRemote();
  base = (await remote.git('rev-parse', '--short=7', 'HEAD')).trim();
});
afterEach(() => remote.remove());

async function openPullRequest(): Promise<string> {
  await remote.git('checkout', '--quiet', '-b', 'change');
  await remote.git('rm', '--quiet', `${PY}/first-steps/variables.md`);
  await remote.commit('Functions go live; variables becomes names', PULL_REQUEST);
  return (await remote.git('rev-parse', '--short=7', 'HEAD')).trim();
}

describe('syllabus-content diff', () => {
  it('summarises a realistic pull request in Markdown, exactly', async () => {
    const head = await openPullRequest();
    const { code, stdout, stderr } = await cli(['diff', 'main', 'change'], remote.work);
    expect(stderr).toBe('');
    expect(stdout).toBe(
      [
        `## Public API changes: \`main\` (${base}) → \`change\` (${head})`,
        '',
        '### Courses',
        '',
        '- Changed `python-basics`: classes_live 2 → 3; lessons_live 3 → 4',
        '',
        '### Classes',
        '',
        '- Changed `python-basics/functions`: status `soon` → `live`; lessons_live 0 → 1; exercises 0 → 2; soon `Defining functions`, `Return values` → `Return values`',
        '',
        '### Lessons',
        '',
        '- Renamed `variables` → `names` (alias); title `Variables` → `Names and values`',
        '- Added `defining-functions`: `Defining functions` in `python-basics/functions`',
        '',
        '### Changelog entries',
        '',
        '- Added `functions-2025-07-01`: 2025-07-01, class, `Functions is live`',
        '',
        '### Deprecations and sunsets',
        '',
        '- Deprecated `/v1/changelog`: sunset `2025-12-01` (changelog entry `functions-2025-07-01`)',
        '',
        '### Roadmap',
        '',
        '- Moved `sql-joins`: stage `building` → `shipped`; shipped (none) → `functions-2025-07-01`',
      ].join('\n'),
    );
    expect(code).toBe(0);
  });

  it('takes the working folder as the head by default, uncommitted edits included', async () => {
    await writeFile(
      join(remote.work, `${PY}/loops/index.md`),
      '---\nname: Loops and more\nblurb: Repeat work.\nstatus: live\nlessons: [for-loops]\n---\n',
    );
    const { code, stdout } = await cli(['diff', 'HEAD'], remote.work);
    expect(stdout).toBe(
      [
        `## Public API changes: \`HEAD\` (${base}) → the working tree`,
        '',
        '### Classes',
        '',
        '- Changed `python-basics/loops`: name `Loops` → `Loops and more`',
      ].join('\n'),
    );
    expect(code).toBe(0);
  });

  it('says so when nothing changes in the public API', async () => {
    await writeFile(join(remote.work, 'README.md'), 'Not content.\n');
    const { code, stdout } = await cli(['diff', base], remote.work);
    expect(stdout).toBe(`## Public API changes: \`${base}\` → the working tree\n\nNo changes to the public API.`);
    expect(code).toBe(0);
  });

  it('exits 1 on a broken id; --format github appends the summary to $GITHUB_STEP_SUMMARY and annotates the id', async () => {
    await remote.git('rm', '--quiet', `${PY}/first-steps/variables.md`);
    await writeFile(join(remote.work, `${PY}/first-steps/index.md`), '---\nname: First steps\nstatus: live\nlessons: [hello-world]\n---\n');
    const summaryFile = join(remote.root, 'step-summary.md');
    await writeFile(summaryFile, 'Earlier step.\n\n');
    const env = { GITHUB_STEP_SUMMARY: summaryFile, GITHUB_WORKSPACE: remote.work };
    const { code, stdout } = await cli(['diff', '--format', 'github', 'origin/main'], remote.work, env);
    expect(code).toBe(1);
    const markdown = [
      `## Public API changes: \`origin/main\` (${base}) → the working tree`,
      '',
      "**Breaking:** 1 published id is gone (`variables`). Ids are permanent: add each one to the `aliases` of the resource that replaces it, or retire it in a changelog entry's `removes`.",
      '',
      '### Courses',
      '',
      '- Changed `python-basics`: lessons_live 3 → 2',
      '',
      '### Classes',
      '',
      '- Changed `python-basics/first-steps`: lessons_live 2 → 1; lessons_total 3 → 1; exercises 5 → 2; soon `String formatting` → (none)',
      '',
      '### Lessons',
      '',
      '- Removed `variables`: `Variables` in `python-basics/first-steps` — **breaking**: the id was published and no alias leads to it',
    ].join('\n');
    const lines = stdout.split('\n');
    const token = lines[0]!.slice('::stop-commands::'.length);
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.slice(1, -2).join('\n')).toBe(markdown);
    expect(lines.at(-2)).toBe(`::${token}::`);
    expect(lines.at(-1)).toBe(
      `::error file=content/courses/python-basics/first-steps/index.md,line=4,col=1::lesson "variables" was published at ${base} and is gone: add "aliases: [variables]" to the lesson that replaces it (ids are permanent once published), or announce its removal in a changelog entry's "removes"`,
    );
    expect(await readFile(summaryFile, 'utf8')).toBe(`Earlier step.\n\n${markdown}\n\n`);
  });

  it('exits 1 when the head is not valid content, listing its problems', async () => {
    await writeFile(join(remote.work, 'content/catalog.md'), '---\ncourses: [python-basics, sql-basics]\n---\n');
    const { code, stdout, stderr } = await cli(['diff', 'main'], remote.work);
    expect(code).toBe(1);
    expect(stdout).toBe('content/courses/rust-intro/index.md:1:1: orphan course: catalog.md does not list "rust-intro"');
    expect(stderr).toContain('the working tree is not valid content; nothing to compare');
  });

  it('exits 2 on a ref that names no commit, however it is written, and on a bad format', async () => {
    for (const args of [['--output=x'], ['--', '--output=x'], ['HEAD;rm'], ['main', 'no-such-branch'], ['main', '--', '-x']]) {
      const { code, stdout, stderr } = await cli(['diff', ...args], remote.work);
      expect({ args, code }).toEqual({ args, code: 2 });
      expect(stdout).toBe('');
      expect(stderr).not.toBe('');
    }
    expect((await cli(['diff', '--format', 'html', 'main'], remote.work)).code).toBe(2);
    const unwritable = await cli(['diff', '--format', 'github', 'main'], remote.work, { GITHUB_STEP_SUMMARY: remote.root });
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toBe('syllabus-content: diff: cannot append to $GITHUB_STEP_SUMMARY (EISDIR)');
    expect((await cli(['diff'], remote.work)).code).toBe(2);
    expect((await remote.git('status', '--porcelain')).trim()).toBe('');
  });
});

/** The model of the small fixture edited by `edit`, loaded from a folder. */
async function fixtureModel(edit?: (files: ContentFiles) => void): Promise<ContentModel> {
  const dir = await writeContentFixture(undefined, edit);
  try {
    const result = await loadContent(dir);
    if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('\n'));
    return result.model;
  } finally {
    await removeTree(dir);
  }
}

/** The instant the diffs below are judged at: every fixture entry is published by then. */
const NOW = new Date('2026-11-26T12:00:00Z');

describe('the API diff', () => {
  it('lets a changelog entry still scheduled at the base be renamed without an alias: no client ever saw its id', async () => {
    const future = '---\nkind: feature\ntitle: Quizzes\nblurb: Short quizzes.\n---\nQuizzes after each class.\n';
    const base = await fixtureModel((files) => void (files['changelog/quizzes-2027-01-04.md'] = future));
    const head = await fixtureModel((files) => void (files['changelog/class-quizzes-2027-01-04.md'] = future));
    expect(diffModels(new ModelIndex(base), new ModelIndex(head), NOW).broken).toEqual([]);
    // Once its date has come, the same rename breaks the entry's published id.
    const later = new Date('2027-01-04T00:00:00Z');
    expect(diffModels(new ModelIndex(base), new ModelIndex(head), later).broken).toEqual([{ kind: 'changelog entry', id: 'quizzes-2027-01-04' }]);
  });

  it('follows a renamed course: its classes and lessons are compared in the course that holds its alias', async () => {
    const base = await fixtureModel();
    const head = await fixtureModel((files) => {
      files['catalog.md'] = '---\ncourses: [python-basics, sql-first, rust-intro]\n---\n';
      for (const rel of Object.keys(files).filter((r) => r.startsWith('courses/sql-basics/'))) {
        files[rel.replace('courses/sql-basics/', 'courses/sql-first/')] = files[rel]!;
        delete files[rel];
      }
      files['courses/sql-first/index.md'] = '---\ntitle: SQL first\ncolor: "#336791"\nstatus: live\nclasses: [select]\naliases: [sql-basics]\n---\n';
    });
    const diff = diffModels(new ModelIndex(base), new ModelIndex(head), NOW);
    expect(diff.broken).toEqual([]);
    expect(renderMarkdown(diff, { base: 'a', head: 'b' })).toBe(
      [
        '## Public API changes: a → b',
        '',
        '### Courses',
        '',
        '- Renamed `sql-basics` → `sql-first` (alias); title `SQL basics` → `SQL first`',
        '',
        '### Classes',
        '',
        '- Changed `sql-first/select`: course_id `sql-basics` → `sql-first`',
        '',
        '### Lessons',
        '',
        '- Changed `select-star`: course_id `sql-basics` → `sql-first`',
        '',
      ].join('\n'),
    );
  });

  it('reports an id published only as an alias, once its alias is dropped, as a breaking removal', async () => {
    const lesson = '---\ntitle: Variables\nlang: python\naliases: [vars]\n---\n\n## Names\n';
    const base = await fixtureModel((files) => void (files['courses/python-basics/first-steps/variables.md'] = lesson));
    const head = await fixtureModel();
    const diff = diffModels(new ModelIndex(base), new ModelIndex(head), NOW);
    expect(diff.broken).toEqual([{ kind: 'lesson', id: 'vars', courseId: 'python-basics', classId: 'first-steps' }]);
    expect(diff.lessons).toEqual([
      { change: 'removed', label: 'vars', summary: 'an alias', breaking: true },
      { change: 'changed', label: 'variables', fields: [{ field: 'steps', from: 1, to: 3 }] },
    ]);
  });

  it('shows content text in code spans that nothing inside can close', () => {
    expect(code('plain')).toBe('`plain`');
    expect(code('a `tick`')).toBe('`` a `tick` ``');
    expect(code('``x``')).toBe('``` ``x`` ```');
    expect(code('<script>')).toBe('`<script>`');
  });
});
