/**
 * Scheduled publishing, the pure part: `publishedAt(model, instant)` on models loaded from real content folders
 * (the small fixture with entries dated later), with the instant given (no clock is read).
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/content-cli/main.js';
import { ContentLoader } from '../src/content/loader.js';
import type { ContentModel } from '../src/content/model.js';
import { publishedAt, scheduledChanges, scheduledLines } from '../src/content/schedule.js';
import { routeDeprecations } from '../src/index/deprecation.js';
import { removeTree, writeContentFixture, type ContentFiles } from './helpers/content-fixture.js';

const folders: string[] = [];
afterAll(async () => Promise.all(folders.map(removeTree)));

function entry(title: string, ...extra: string[]): string {
  return `---\nkind: feature\ntitle: ${title}\nblurb: ${title}.\n${extra.join('\n')}${extra.length ? '\n' : ''}---\n\n${title} body.\n`;
}

async function load(edit: (files: ContentFiles) => void): Promise<ContentModel> {
  const dir = await writeContentFixture(undefined, edit);
  folders.push(dir);
  const result = await new ContentLoader(dir).load();
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.path}:${p.line}: ${p.message}`).join('\n'));
  return result.model;
}

const ids = (model: ContentModel): string[] => model.changelog.entries.map((e) => e.id);
const stages = (model: ContentModel): Record<string, string[]> =>
  Object.fromEntries(model.roadmap.stages.map((s) => [s.key, s.items.map((i) => `${i.id}${i.shipped ? `>${i.shipped}` : ''}`)]));
const at = (iso: string): Date => new Date(iso);

describe('publishedAt', () => {
  it('is the model itself, with no next change, when nothing is dated later', async () => {
    const model = await load(() => undefined);
    const view = publishedAt(model, at('2026-11-26T09:00:00Z'));
    expect(view.model).toBe(model);
    expect(view.next).toBeUndefined();
    expect(scheduledChanges(model, at('2026-11-26T09:00:00Z'))).toEqual([]);
  });

  it('publishes an entry at 00:00 UTC of its date, not a millisecond before', async () => {
    const model = await load((files) => (files['changelog/scheduling-2026-12-01.md'] = entry('Scheduling')));
    const before = publishedAt(model, at('2026-11-30T23:59:59.999Z'));
    expect(ids(before.model)).toEqual(['api-v1-2025-06-10', 'for-loops-2025-06-10', 'python-basics-2025-03-01']);
    expect(before.next?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    // The rest of the model is the model's own: the index reuses what it made of it.
    expect(before.model.catalog).toBe(model.catalog);
    expect(before.model.roadmap).toBe(model.roadmap);
    expect(before.model.revision).toBe(model.revision);

    const after = publishedAt(model, at('2026-12-01T00:00:00.000Z'));
    expect(after.model).toBe(model);
    expect(after.next).toBeUndefined();
    // A date written in another time zone's evening is still the UTC date.
    expect(ids(publishedAt(model, at('2026-11-30T20:00:00-05:00')).model)).toContain('scheduling-2026-12-01');
  });

  it('publishes several entries of one day together, and arms for the next day that has one', async () => {
    const model = await load((files) => {
      files['changelog/alpha-2026-12-01.md'] = entry('Alpha');
      files['changelog/beta-2026-12-01.md'] = entry('Beta');
      files['changelog/gamma-2027-01-15.md'] = entry('Gamma');
    });
    const nov = publishedAt(model, at('2026-11-26T09:00:00Z'));
    expect(ids(nov.model)).not.toContain('alpha-2026-12-01');
    expect(nov.next?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    const dec = publishedAt(model, at('2026-12-01T00:00:00Z'));
    expect(ids(dec.model).slice(0, 2)).toEqual(['alpha-2026-12-01', 'beta-2026-12-01']);
    expect(ids(dec.model)).not.toContain('gamma-2027-01-15');
    expect(dec.next?.toISOString()).toBe('2027-01-15T00:00:00.000Z');
    expect(publishedAt(model, at('2027-01-15T00:00:00Z')).model).toBe(model);
  });

  it('gives the very same view for the same published set, and a new one when it grows', async () => {
    const model = await load((files) => (files['changelog/later-2026-12-01.md'] = entry('Later')));
    const a = publishedAt(model, at('2026-11-20T08:00:00Z'));
    const b = publishedAt(model, at('2026-11-29T17:00:00Z'));
    expect(b.model).toBe(a.model);
    expect(b.model.changelog).toBe(a.model.changelog);
  });

  it('keeps a scheduled deprecation off its routes until its date', async () => {
    const model = await load(
      (files) =>
        (files['changelog/catalog-v2-2026-12-01.md'] = entry('Catalog v2', 'deprecates:', '  - path: /v1/catalog', '    sunset: 2027-06-01')),
    );
    const base = 'https://syllabus.example';
    expect(routeDeprecations(publishedAt(model, at('2026-11-30T12:00:00Z')).model, base).has('/v1/catalog')).toBe(false);
    const headers = routeDeprecations(publishedAt(model, at('2026-12-01T00:00:00Z')).model, base).get('/v1/catalog');
    expect(headers).toMatchObject({
      Deprecation: `@${Date.UTC(2026, 11, 1) / 1000}`,
      Link: `<${base}/changelog#catalog-v2-2026-12-01>; rel="deprecation"`,
    });
  });

  it('drops a changelog alias that leads to an entry not published yet', async () => {
    const model = await load((files) => (files['changelog/renamed-2026-12-01.md'] = entry('Renamed', 'aliases: [old-name-2025-01-01]')));
    expect(model.aliases.changelog.get('old-name-2025-01-01')).toBe('renamed-2026-12-01');
    const view = publishedAt(model, at('2026-11-30T00:00:00Z')).model;
    expect(view.aliases.changelog.has('old-name-2025-01-01')).toBe(false);
    expect(view.aliases.lessons).toBe(model.aliases.lessons);
  });

  it('shows a shipped roadmap item in its until_shipped stage (default building) until its entry is published', async () => {
    const model = await load((files) => {
      files['changelog/joins-2026-12-01.md'] = entry('Joins');
      files['changelog/rust-2026-12-08.md'] = entry('Rust');
      files['roadmap/sql-joins.md'] = '---\ntitle: SQL joins\ntheme: Courses\nstage: shipped\nshipped: joins-2026-12-01\n---\n\nJoining tables.\n';
      files['roadmap/rust-course.md'] =
        '---\ntitle: Rust course\ntheme: Courses\nstage: shipped\nshipped: rust-2026-12-08\nuntil_shipped: next\norder: 0\n---\n\nOwnership first.\n';
    });
    // Today the roadmap shows the file as written.
    expect(stages(model)).toEqual({
      shipped: ['rust-course>rust-2026-12-08', 'python-course>python-basics-2025-03-01', 'sql-joins>joins-2026-12-01'],
      exploring: ['dark-theme', 'offline-mode', 'ai-hints'],
    });
    const nov = publishedAt(model, at('2026-11-30T23:59:59Z'));
    expect(stages(nov.model)).toEqual({
      shipped: ['python-course>python-basics-2025-03-01'],
      building: ['sql-joins'],
      next: ['rust-course'],
      exploring: ['dark-theme', 'offline-mode', 'ai-hints'],
    });
    expect(nov.model.roadmap.stages.find((s) => s.key === 'building')).toMatchObject({ label: 'Building', note: 'In progress.' });
    // A stage no item left or joined is the model's own object.
    expect(nov.model.roadmap.stages.at(-1)).toBe(model.roadmap.stages.at(-1));
    expect(nov.next?.toISOString()).toBe('2026-12-01T00:00:00.000Z');

    const dec1 = publishedAt(model, at('2026-12-01T00:00:00Z'));
    expect(stages(dec1.model)).toEqual({
      shipped: ['python-course>python-basics-2025-03-01', 'sql-joins>joins-2026-12-01'],
      next: ['rust-course'],
      exploring: ['dark-theme', 'offline-mode', 'ai-hints'],
    });
    expect(dec1.next?.toISOString()).toBe('2026-12-08T00:00:00.000Z');
    // The moved item is one object across views.
    const rust = (m: ContentModel) => m.roadmap.stages.find((s) => s.key === 'next')!.items[0];
    expect(rust(dec1.model)).toBe(rust(nov.model));
    expect(publishedAt(model, at('2026-12-08T00:00:00Z')).model).toBe(model);

    expect(scheduledLines(model, at('2026-11-26T09:38:00Z'))).toEqual([
      'scheduled: changelog/joins-2026-12-01.md publishes 2026-12-01 (in 5 days)',
      'scheduled: roadmap/sql-joins.md moves from building to shipped 2026-12-01 (in 5 days)',
      'scheduled: changelog/rust-2026-12-08.md publishes 2026-12-08 (in 12 days)',
      'scheduled: roadmap/rust-course.md moves from next to shipped 2026-12-08 (in 12 days)',
    ]);
    expect(scheduledLines(model, at('2026-12-07T23:00:00Z'))).toEqual([
      'scheduled: changelog/rust-2026-12-08.md publishes 2026-12-08 (in 1 day)',
      'scheduled: roadmap/rust-course.md moves from next to shipped 2026-12-08 (in 1 day)',
    ]);
  });

  it('allows until_shipped on shipped items only', async () => {
    const dir = await writeContentFixture(undefined, (files) => {
      files['roadmap/rust-course.md'] = '---\ntitle: Rust course\ntheme: Courses\nstage: next\nuntil_shipped: building\n---\n\nOwnership first.\n';
    });
    folders.push(dir);
    const result = await new ContentLoader(dir).load();
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems.map((p) => `${p.path}:${p.line}:${p.column}: ${p.message}`)).toEqual([
      `${dir}/roadmap/rust-course.md:5:1: "until_shipped" is only allowed when stage is "shipped", but stage is "next"`,
    ]);
  });
});

describe('syllabus-content validate', () => {
  const future = (files: ContentFiles): void => {
    files['changelog/scheduling-2999-12-01.md'] = entry('Scheduling');
    files['roadmap/sql-joins.md'] = '---\ntitle: SQL joins\ntheme: Courses\nstage: shipped\nshipped: scheduling-2999-12-01\n---\n\nJoining tables.\n';
  };

  it('lists what is scheduled on stderr after the summary, and exits 0 (as a subprocess, by the real clock)', async () => {
    const dir = await writeContentFixture(undefined, future);
    folders.push(dir);
    const root = join(dirname(fileURLToPath(import.meta.url)), '..');
    const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ['--import', tsx, join(root, 'src/content-cli/main.ts'), 'validate', dir],
        { env: { ...process.env, GITHUB_ACTIONS: '' }, timeout: 60_000 },
        (err, out, errOut) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout: out, stderr: errOut }),
      ),
    );
    expect(code).toBe(0);
    expect(stdout).toBe('');
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/: valid \(3 courses, 4 lessons, 4 changelog entries, 6 roadmap items; revision /);
    expect(lines[1]).toMatch(new RegExp(`^scheduled: ${dir}/changelog/scheduling-2999-12-01\\.md publishes 2999-12-01 \\(in \\d+ days\\)$`));
    expect(lines[2]).toMatch(new RegExp(`^scheduled: ${dir}/roadmap/sql-joins\\.md moves from building to shipped 2999-12-01 \\(in \\d+ days\\)$`));
  });

  it('counts the days from the UTC date of its clock', async () => {
    const dir = await writeContentFixture(undefined, future);
    folders.push(dir);
    const err: string[] = [];
    const io = { stdout: () => undefined, stderr: (line: string) => err.push(line), env: {}, cwd: dir, now: () => at('2999-11-26T23:30:00Z') };
    expect(await runCli(['validate', '.'], io)).toBe(0);
    expect(err.slice(1)).toEqual([
      'scheduled: changelog/scheduling-2999-12-01.md publishes 2999-12-01 (in 5 days)',
      'scheduled: roadmap/sql-joins.md moves from building to shipped 2999-12-01 (in 5 days)',
    ]);
    err.length = 0;
    io.now = () => at('2999-12-01T00:00:00Z');
    expect(await runCli(['validate', '.'], io)).toBe(0);
    expect(err).toHaveLength(1);
  });
});
