/**
 * The traps that used to validate silently, through `syllabus-content validate` run as a process on real files: each is
 * a problem (exit 1) or a warning (printed and annotated, exit 0) at `path:line:column`, with a hint.
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTree, writeContentFixture } from './helpers/content-fixture.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'src/content-cli/main.ts');
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const HELLO = 'courses/python-basics/first-steps/hello-world.md';

function run(args: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<{ code: number; stdout: string[]; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', TSX, CLI, ...args],
      { cwd, env: { ...process.env, GITHUB_ACTIONS: '', ...env }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout: stdout.split('\n').filter((l) => l !== ''), stderr }),
    );
  });
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeTree(dir);
});

/** The fixture with the lesson hello-world written as `lines` (frontmatter included). */
async function withHello(...lines: string[]): Promise<string> {
  const dir = await writeContentFixture(undefined, (files) => void (files[HELLO] = `${lines.join('\n')}\n`));
  dirs.push(dir);
  return dir;
}

const FRONTMATTER = ['---', 'title: Hello, world', 'lang: python', '---', ''];

describe('traps', () => {
  it('a plain value cut by " #" is a warning at the #, printed and annotated, exit 0', async () => {
    const dir = await withHello('---', 'title: Booleans #1 and comparisons', 'lang: python # the language', '---', '', '## One');
    const message =
      'a comment cuts this value: YAML reads "#1 and comparisons" as a comment, so the value is "Booleans"; hint: quote the value ' +
      'if the # belongs to it: title: "Booleans #1 and comparisons" (or, if it is a comment, put it on a line of its own)';
    const plain = await run(['validate', dir]);
    expect(plain.stdout[0]).toBe(`${dir}/${HELLO}:2:17: warning: ${message}`);
    expect(plain.stdout[1]).toMatch(new RegExp(`^${dir}/${HELLO}:3:14: warning: a comment cuts this value: YAML reads "# the language"`));
    expect(plain.stdout).toHaveLength(2);
    expect(plain.stderr).toMatch(/: valid \(.*\); 2 warnings/);
    expect(plain.code).toBe(0);
    const annotated = await run(['validate', dir], { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir });
    expect(annotated.stdout).toContain(`::warning file=${HELLO},line=2,col=17::${message}`);
    expect(annotated.stdout.filter((l) => l.startsWith('::error'))).toEqual([]);
    expect(annotated.code).toBe(0);
  });

  it('leaves a quoted value, a block scalar and a comment on its own line alone', async () => {
    const dir = await withHello('---', 'title: "Booleans #1"', 'blurb: >-', '  Compare #values', '# a comment', 'lang: python', '---', '', '## One');
    const { code, stdout } = await run(['validate', dir]);
    expect(stdout).toEqual([]);
    expect(code).toBe(0);
  });

  it('a closing fence left out is a problem at the block that swallows steps, exit 1', async () => {
    const dir = await withHello(...FRONTMATTER, '## One', '', '```python', 'a = 1', '', '## Two', '', '```python', 'b = 2', '```', '', '## Three');
    const { code, stdout } = await run(['validate', dir]);
    expect(stdout).toEqual([
      `${dir}/${HELLO}:8:1: this code block is never closed: it runs past line 13, where \`\`\`python was meant to open the next block, ` +
        'so 1 "##" line after it is code, not steps (the lesson counts 2); hint: close it with a line ``` where the code ends (before line 13)',
    ]);
    expect(code).toBe(1);
  });

  it('a block left open at the end that hides no step is a warning, exit 0', async () => {
    const dir = await withHello(...FRONTMATTER, '## One', '', '```python', 'print(1)');
    const { code, stdout } = await run(['validate', dir]);
    expect(stdout).toEqual([
      `${dir}/${HELLO}:8:1: warning: this code block is never closed: it runs to the end; hint: close it with a line \`\`\` where the code ends`,
    ]);
    expect(code).toBe(0);
  });

  it('a lesson that counts 0 steps is a problem whose hint names the cause', async () => {
    const unspaced = await withHello(...FRONTMATTER, '##Run Python', '', 'Text.');
    const first = await run(['validate', unspaced]);
    expect(first.stdout).toEqual([
      `${unspaced}/${HELLO}:6:1: a lesson needs at least one step: its body has no level-2 heading (## …); hint: a heading needs a space after ##: ## Run Python`,
    ]);
    expect(first.code).toBe(1);
    const fenced = await withHello(...FRONTMATTER, '```python', 'x = 1', '', '## One');
    const second = await run(['validate', fenced]);
    expect(second.stdout).toEqual([
      `${fenced}/${HELLO}:5:1: a lesson needs at least one step: its body has no level-2 heading (## …); hint: the code block left open at line 6 hides its headings`,
      `${fenced}/${HELLO}:6:1: this code block is never closed: it runs to the end, so 1 "##" line after it is code, not steps (the lesson counts 0); hint: close it with a line \`\`\` where the code ends`,
    ]);
    expect(second.code).toBe(1);
  });
});
