/**
 * Errors a writer can act on: hints for the common YAML traps, "did you mean" for unknown ids, and code frames
 * from `syllabus-content validate` in a terminal (FORCE_COLOR, NO_COLOR and a real pseudo-terminal), with the
 * plain `path:line:column: message` lines unchanged for pipes and CI.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentLoader } from '../src/content/loader.js';
import { formatProblem, type Problem } from '../src/content/model.js';
import { problemStyle } from '../src/content/print-problems.js';
import { fixtureProblems, removeTree, replaceInFixture, writeContentFixture, type ContentFiles } from './helpers/content-fixture.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'src/content-cli/main.ts');
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const COURSE = 'courses/python-basics/index.md';
const CLASS = 'courses/python-basics/first-steps/index.md';
const ANSI = /\u001b\[[0-9;]*m/g;

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeTree));
});

const problemsAfter = (edit: (files: ContentFiles) => void): Promise<Problem[]> => fixtureProblems(edit, dirs);
const replace = replaceInFixture;

describe('hints for the common YAML traps', () => {
  it('an unquoted # (the value became a comment)', async () => {
    const problems = await problemsAfter((f) => replace(f, COURSE, 'color: "#3776ab"', 'color: #3776ab'));
    expect(problems).toEqual([
      {
        path: COURSE,
        line: 5,
        column: 1,
        message: '"color" must be a string, got nothing; hint: quote it: color: "#3776ab" (# starts a YAML comment)',
      },
    ]);
  });

  it('an unquoted # in a list item', async () => {
    const problems = await problemsAfter((f) => replace(f, COURSE, '  - loops', '  - #loops'));
    expect(problems).toContainEqual({
      path: COURSE,
      line: 9,
      column: 5,
      message: '"classes[1]" must be a string, got nothing; hint: quote it: - "#loops" (# starts a YAML comment)',
    });
  });

  it('a tab in the indentation', async () => {
    const problems = await problemsAfter((f) => replace(f, COURSE, '  - loops', '\t- loops'));
    expect(problems[0]).toEqual({
      path: COURSE,
      line: 9,
      column: 1,
      message: 'invalid YAML: Tabs are not allowed as indentation; hint: indent with spaces instead of the tab',
    });
    // One hint per line, not one per follow-up error of the same line.
    expect(problems.filter((p) => p.message.includes('hint:'))).toHaveLength(1);
  });

  it('an unclosed quote, pointed at where it opens even when YAML notices it lines later', async () => {
    const double = await problemsAfter((f) => replace(f, COURSE, 'title: Python basics', 'title: "Python basics'));
    expect(double).toEqual([
      { path: COURSE, line: 2, column: 8, message: 'invalid YAML: Missing closing "quote; hint: close the quote: title: "Python basics"' },
    ]);
    const single = await problemsAfter((f) => replace(f, COURSE, 'title: Python basics', "title: 'Python basics"));
    expect(single).toEqual([
      { path: COURSE, line: 2, column: 8, message: `invalid YAML: Missing closing 'quote; hint: close the quote: title: 'Python basics'` },
    ]);
  });

  it('a colon and a space in an unquoted value', async () => {
    const problems = await problemsAfter((f) => replace(f, COURSE, 'title: Python basics', 'title: Python: the basics'));
    expect(problems).toEqual([
      {
        path: COURSE,
        line: 2,
        column: 8,
        message: 'invalid YAML: Nested mappings are not allowed in compact mappings; hint: quote the value: title: "Python: the basics"',
      },
    ]);
    // In a list item the text becomes a mapping; a value that holds a double quote is single-quoted.
    const item = await problemsAfter((f) => replace(f, CLASS, 'soon:\n  - String formatting', 'soon:\n  - Formatting: the "f" strings'));
    expect(item).toEqual([
      {
        path: CLASS,
        line: 6,
        column: 5,
        message: `"soon[0]" must be a string, got a mapping; hint: quote the value: - 'Formatting: the "f" strings'`,
      },
    ]);
  });

  it('no hint where the line is no trap', async () => {
    const problems = await problemsAfter((f) => {
      replace(f, COURSE, 'color: "#3776ab"', 'color: "#37"');
      replace(f, COURSE, 'tagline: From zero to scripts', 'tagline:');
      replace(f, 'courses/sql-basics/index.md', 'title: SQL basics', 'title: [SQL, "a: b"]');
      replace(f, 'roadmap/index.md', '  - { key: shipped, label: Shipped, note: Live now. }', '  - key: done\n    label: Done\n    note: "x: #y"');
      // A list item that is a mapping, as it should be, missing a key.
      replace(f, 'roadmap/index.md', '  - { key: building, label: Building, note: In progress. }', '  - key: building\n    note: In progress.');
    });
    expect(problems.length).toBeGreaterThanOrEqual(5);
    for (const p of problems) expect(p.message).not.toContain('hint:');
  });
});

describe('did you mean, for ids no file holds', () => {
  it("a class's lesson, a course's class, catalog.md's course, a roadmap item's shipped entry", async () => {
    const problems = await problemsAfter((f) => {
      replace(f, CLASS, 'lessons: [hello-world, variables]', 'lessons: [helo-world, variables]');
      replace(f, COURSE, '  - loops', '  - lops');
      replace(f, 'catalog.md', 'courses: [python-basics, sql-basics, rust-intro]', 'courses: [python-basics, sql-basic, rust-intro]');
      replace(f, 'roadmap/python-course.md', 'shipped: python-basics-2025-03-01', 'shipped: python-basics-2025-03-10');
    });
    const messages = problems.map((p) => p.message);
    expect(messages).toContain(
      'lesson "helo-world" is listed but courses/python-basics/first-steps/helo-world.md does not exist (did you mean "hello-world"?)',
    );
    expect(messages).toContain('class "lops" is listed but courses/python-basics/lops/index.md does not exist (did you mean "loops"?)');
    expect(messages).toContain('course "sql-basic" is listed but courses/sql-basic/index.md does not exist (did you mean "sql-basics"?)');
    expect(messages).toContain(
      '"shipped" names the changelog entry "python-basics-2025-03-10", but changelog/python-basics-2025-03-10.md does not exist (did you mean "python-basics-2025-03-01"?)',
    );
  });

  it('prefers a file no list names (a renamed file) to a closer id already listed', async () => {
    const problems = await problemsAfter((f) => {
      f['courses/python-basics/first-steps/variables-2.md'] = f['courses/python-basics/first-steps/variables.md']!;
      replace(f, CLASS, 'lessons: [hello-world, variables]', 'lessons: [hello-world, variables, variabless]');
    });
    expect(problems.map((p) => p.message)).toContain(
      'lesson "variabless" is listed but courses/python-basics/first-steps/variabless.md does not exist (did you mean "variables-2"?)',
    );
  });

  it('a misspelt value of a fixed set (status, kind, stage)', async () => {
    const problems = await problemsAfter((f) => replace(f, COURSE, 'status: live', 'status: lvie'));
    expect(problems).toContainEqual({
      path: COURSE,
      line: 6,
      column: 1,
      message: '"status" must be one of "live", "soon", got "lvie" (did you mean "live"?)',
    });
  });

  it('no suggestion when nothing is close', async () => {
    const problems = await problemsAfter((f) => replace(f, COURSE, '  - loops', '  - recursion'));
    expect(problems.map((p) => p.message)).toContain('class "recursion" is listed but courses/python-basics/recursion/index.md does not exist');
  });
});

describe('problemStyle', () => {
  it('frames in a terminal or when FORCE_COLOR asks; colour unless NO_COLOR', () => {
    expect(problemStyle({}, false)).toEqual({ frames: false, color: false });
    expect(problemStyle({}, true)).toEqual({ frames: true, color: true });
    expect(problemStyle({ FORCE_COLOR: '1' }, false)).toEqual({ frames: true, color: true });
    expect(problemStyle({ FORCE_COLOR: '0' }, false)).toEqual({ frames: false, color: false });
    expect(problemStyle({ FORCE_COLOR: '' }, false)).toEqual({ frames: false, color: false });
    expect(problemStyle({ NO_COLOR: '1' }, true)).toEqual({ frames: true, color: false });
    expect(problemStyle({ NO_COLOR: '' }, true)).toEqual({ frames: true, color: true });
  });
});

describe('syllabus-content validate: code frames', () => {
  let broken: string;
  let problems: Problem[];
  /** The environment without the colour settings of the test runner. */
  const baseEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !['FORCE_COLOR', 'NO_COLOR', 'GITHUB_ACTIONS'].includes(k)) baseEnv[k] = v;

  beforeAll(async () => {
    broken = await writeContentFixture(await mkdtemp(join(tmpdir(), 'syllabus-frames-')), (f) => {
      replace(f, COURSE, 'color: "#3776ab"', 'color: #3776ab');
      replace(f, CLASS, 'lessons: [hello-world, variables]', 'lessons: [helo-world, variables]');
    });
    dirs.push(broken);
    const result = await new ContentLoader(broken, { displayRoot: broken }).load();
    problems = result.ok ? [] : result.problems;
  });

  function run(env: Record<string, string>): Promise<{ code: number; stdout: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', TSX, CLI, 'validate', broken],
        { cwd: ROOT, env: { ...baseEnv, ...env }, timeout: 60_000 },
        (err, stdout) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout }),
      );
    });
  }

  it('without a terminal: exactly the plain lines, byte for byte', async () => {
    expect(problems.length).toBeGreaterThanOrEqual(3);
    const { code, stdout } = await run({});
    expect(code).toBe(1);
    expect(stdout).toBe(problems.map((p) => `${formatProblem(p)}\n`).join(''));
  });

  it('FORCE_COLOR: each problem followed by its frame, the caret under the column, coloured', async () => {
    const { code, stdout } = await run({ FORCE_COLOR: '1' });
    expect(code).toBe(1);
    expect(stdout).toMatch(ANSI);
    expectFrames(stdout.replace(ANSI, '').split('\n'), problems);
  });

  it('NO_COLOR: the frames without any escape', async () => {
    const { stdout } = await run({ FORCE_COLOR: '1', NO_COLOR: '1' });
    expect(stdout).not.toContain('\u001b');
    expectFrames(stdout.split('\n'), problems);
  });

  it('on a real pseudo-terminal', async () => {
    const command = [process.execPath, '--import', TSX, CLI, 'validate', broken].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: baseEnv, stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.on('error', reject);
      child.on('close', () => resolve(out));
    });
    expect(output).toMatch(ANSI);
    // The terminal turns each line feed into CR LF; stderr's summary shares it.
    expectFrames(output.replace(ANSI, '').replace(/\r\n/g, '\n').split('\n'), problems);
  });
});

/**
 * Every problem's line is followed by a frame whose marked line is the problem's line and whose caret sits under
 * the problem's column of that line's text.
 */
function expectFrames(lines: readonly string[], problems: readonly Problem[]): void {
  for (const problem of problems) {
    const at = lines.indexOf(formatProblem(problem));
    expect(at, formatProblem(problem)).toBeGreaterThanOrEqual(0);
    const marked = lines.slice(at + 1).find((l) => l.startsWith('>'))!;
    const m = /^> (\d+) \| (.*)$/.exec(marked.trimEnd().replace(/^> +/, '> '))!;
    expect(Number(m[1])).toBe(problem.line);
    const caretLine = lines[lines.indexOf(marked, at) + 1]!;
    const bar = marked.indexOf('|');
    expect(caretLine.indexOf('|')).toBe(bar);
    expect(caretLine.indexOf('^') - (bar + 2)).toBe(problem.column - 1);
  }
}
