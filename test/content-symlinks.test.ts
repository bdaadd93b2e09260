/**
 * One rule for symbolic links inside the content tree, the same in the cold load, `syllabus-content validate` and
 * the watcher: each link is a problem at its path (line 1, column 1) and is never followed, wherever it points
 * (a folder such as /usr, a file outside the tree); the content folder itself may be a link.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ContentLoader } from '../src/content/loader.js';
import type { LoadResult } from '../src/content/model.js';
import { LINK_PROBLEM } from '../src/content/read-tree.js';
import { watchContent } from '../src/source/watch.js';
import { removeTree, writeContentFixture } from './helpers/content-fixture.js';
import { eventually } from './helpers/eventually.js';

const ROOT = join(import.meta.dirname, '..');
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const FOLDER_LINK = 'courses/python-basics/usr';
const FILE_LINK = 'courses/python-basics/first-steps/alias.md';

const temps: string[] = [];
afterAll(async () => {
  for (const d of temps) await removeTree(d);
});

/** A valid tree with a link to /usr and a link to a Markdown file outside the tree. */
async function treeWithLinks(): Promise<string> {
  const dir = await writeContentFixture();
  temps.push(dir);
  const outside = await mkdtemp(join(tmpdir(), 'syllabus-outside-'));
  temps.push(outside);
  await writeFile(join(outside, 'secret.md'), '---\ntitle: Outside\nlang: python\n---\n## One\n');
  await symlink('/usr', join(dir, FOLDER_LINK));
  await symlink(join(outside, 'secret.md'), join(dir, FILE_LINK));
  return dir;
}

const linkProblems = (r: LoadResult) => (r.ok ? [] : r.problems.filter((p) => p.message === LINK_PROBLEM));

describe('symbolic links inside the content tree', () => {
  it('are problems at their paths in a full load, and nothing behind them is read', async () => {
    const dir = await treeWithLinks();
    const loader = new ContentLoader(dir, { displayRoot: '' });
    const result = await loader.load();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      { path: FILE_LINK, line: 1, column: 1, message: LINK_PROBLEM },
      { path: FOLDER_LINK, line: 1, column: 1, message: LINK_PROBLEM },
    ]);
    expect(loader.lastParsedCount).toBeLessThan(40); // the fixture's own files, nothing under /usr
  });

  it('are reported the same way by syllabus-content validate, exit 1', async () => {
    const dir = await treeWithLinks();
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(
        process.execPath,
        ['--import', TSX, join(ROOT, 'src/content-cli/main.ts'), 'validate', dir],
        { env: { ...process.env, GITHUB_ACTIONS: '' } },
        (err, out) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout: out }),
      ),
    );
    expect(code).toBe(1);
    expect(stdout.trim().split('\n')).toEqual([`${dir}/${FILE_LINK}:1:1: ${LINK_PROBLEM}`, `${dir}/${FOLDER_LINK}:1:1: ${LINK_PROBLEM}`]);
  });

  it('are reported by the watcher when added at run time, without walking /usr, and cleared when removed', async () => {
    const dir = await writeContentFixture();
    temps.push(dir);
    const loader = new ContentLoader(dir, { displayRoot: '' });
    expect((await loader.load()).ok).toBe(true);
    const results: LoadResult[] = [];
    const watch = await watchContent(dir, { loader, debounceMs: 30, onReload: (r) => void results.push(r) });
    try {
      await symlink('/usr', join(dir, FOLDER_LINK));
      await symlink('/etc/hostname', join(dir, 'courses/python-basics/notes'));
      await eventually(() => results.some((r) => linkProblems(r).length === 2), { what: 'both links reported' });
      const reported = results.find((r) => linkProblems(r).length === 2)!;
      expect(reported.ok ? [] : reported.problems.map((p) => `${p.path}:${p.line}:${p.column}`)).toEqual([
        'courses/python-basics/notes:1:1',
        `${FOLDER_LINK}:1:1`,
      ]);
      expect(loader.lastParsedCount).toBe(0); // a link is judged by lstat: nothing was read through it

      await unlink(join(dir, FOLDER_LINK));
      await unlink(join(dir, 'courses/python-basics/notes'));
      await eventually(() => results.at(-1)?.ok === true, { what: 'a valid reload once the links are gone' });
    } finally {
      await watch.close();
    }
  });

  it('are allowed for the content folder itself', async () => {
    const dir = await writeContentFixture();
    temps.push(dir);
    const parent = await mkdtemp(join(tmpdir(), 'syllabus-linked-'));
    temps.push(parent);
    await symlink(dir, join(parent, 'current'));
    expect((await new ContentLoader(join(parent, 'current')).load()).ok).toBe(true);
    await rm(join(parent, 'current'));
  });
});
