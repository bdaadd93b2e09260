/** `syllabus-content validate` as a subprocess: output format, annotations, exit statuses. */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTree, writeContentFixture } from './helpers/content-fixture.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'src/content-cli/main.ts');
// An absolute loader path, so the CLI can run from any working directory.
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

function run(args: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', TSX, CLI, ...args],
      { cwd, env: { ...process.env, GITHUB_ACTIONS: '', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let valid: string;
let broken: string;

beforeAll(async () => {
  valid = await writeContentFixture();
  broken = await writeContentFixture();
  await writeFile(join(broken, 'courses/sql-basics/index.md'), '---\ntitle: SQL basics\ncolour: "#336791"\nstatus: live\nclasses: [select]\n---\n');
  await writeFile(join(broken, 'roadmap/sql-joins.md'), '---\ntitle: SQL joins\ntheme: Courses\nstage: building\n---\n');
});

afterAll(async () => {
  await removeTree(valid);
  await removeTree(broken);
});

describe('syllabus-content validate', () => {
  it('exits 0 on a valid folder', async () => {
    const { code, stdout, stderr } = await run(['validate', valid]);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/valid \(3 courses, 4 lessons, 3 changelog entries, 6 roadmap items; revision sha256:[0-9a-f]{64}\)/);
  });

  it('prints every problem as path:line:column: message and exits 1', async () => {
    const { code, stdout, stderr } = await run(['validate', broken]);
    expect(code).toBe(1);
    const lines = stdout.trim().split('\n');
    expect(lines).toContain(`${broken}/courses/sql-basics/index.md:1:1: missing required key "color"`);
    expect(lines).toContain(
      `${broken}/courses/sql-basics/index.md:3:1: unknown key "colour" (did you mean "color"?); allowed keys: title, blurb, tagline, color, status, classes, aliases`,
    );
    expect(lines).toContain(`${broken}/roadmap/sql-joins.md:6:1: the body must be exactly one paragraph, but it is empty`);
    expect(lines).toHaveLength(3);
    expect(stderr).toContain('3 problems in 2 files');
  });

  it('prints paths relative to the working directory when given a relative folder', async () => {
    const { code, stdout } = await run(['validate', relative(ROOT, broken)]);
    expect(code).toBe(1);
    expect(stdout).toContain(`${relative(ROOT, broken)}/roadmap/sql-joins.md:6:1: `);
  });

  it('adds ::error annotations under GitHub Actions, with workspace-relative files', async () => {
    const workspace = dirname(broken);
    const { code, stdout } = await run(['validate', broken], { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: workspace });
    expect(code).toBe(1);
    const file = `${relative(workspace, broken)}/courses/sql-basics/index.md`;
    expect(stdout).toContain(
      `::error file=${file},line=3,col=1::unknown key "colour" (did you mean "color"?); allowed keys: title, blurb, tagline, color, status, classes, aliases\n`,
    );
    expect(stdout.match(/^::error /gm)).toHaveLength(3);
  });

  it('never lets a contributor-written name run as a workflow command or reach the terminal raw', async () => {
    const dir = await writeContentFixture();
    try {
      await writeFile(join(dir, '::warning::injected.md'), '# x\n');
      await writeFile(join(dir, 'line\nbreak.md'), '# x\n');
      const { code, stdout } = await run(['validate', '.'], { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir }, dir);
      expect(code).toBe(1);
      const lines = stdout.split('\n');
      const stop = lines.findIndex((l) => l.startsWith('::stop-commands::'));
      const token = lines[stop]!.slice('::stop-commands::'.length);
      expect(token).toMatch(/^[0-9a-f-]{36}$/);
      const resume = lines.indexOf(`::${token}::`);
      const injected = lines.findIndex((l) => l.startsWith('::warning::injected.md:1:1: unexpected file'));
      expect(stop).toBeLessThan(injected);
      expect(injected).toBeLessThan(resume);
      expect(lines).toContain(
        'line\\u{a}break.md:1:1: unexpected file: it is not part of the content layout (catalog.md, courses/<course>/index.md, courses/<course>/<class>/index.md, courses/<course>/<class>/<lesson>.md, changelog/<slug>-<YYYY-MM-DD>.md, roadmap/index.md, roadmap/<slug>.md)',
      );
      expect(stdout).toContain('::error file=%3A%3Awarning%3A%3Ainjected.md,line=1,col=1::unexpected file');
      expect(stdout).toContain('::error file=line%0Abreak.md,line=1,col=1::unexpected file');
    } finally {
      await removeTree(dir);
    }
  });

  it('exits 2 on usage errors', async () => {
    expect((await run(['validate', join(valid, 'no-such-folder')])).code).toBe(2);
    expect((await run(['validate', join(valid, 'catalog.md')])).code).toBe(2);
    expect((await run(['frobnicate'])).code).toBe(2);
    expect((await run(['validate', 'a', 'b'])).code).toBe(2);
    expect((await run([])).code).toBe(2);
    expect((await run(['validate', '--bogus'])).code).toBe(2);
  });

  it('defaults to ./content', async () => {
    // Inside the fixture folder there is no content/ sub-folder: a usage error naming it.
    const { code, stderr } = await run(['validate'], {}, valid);
    expect(code).toBe(2);
    expect(stderr).toContain('content: not a directory');
  });
});
