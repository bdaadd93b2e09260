/** The derived model of the small fixture tree: counts, orderings, nulls, and the revision. */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../src/content/loader.js';
import type { ContentModel } from '../src/content/model.js';
import { removeTree, SMALL_TREE, writeContentFixture } from './helpers/content-fixture.js';

const dirs: string[] = [];
let model: ContentModel;

beforeAll(async () => {
  const dir = await writeContentFixture();
  dirs.push(dir);
  const result = await loadContent(dir);
  if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('\n'));
  model = result.model;
});

afterAll(async () => {
  await Promise.all(dirs.map(removeTree));
});

describe('derived model', () => {
  it('lists courses in catalog order with their counts', () => {
    expect(model.catalog.courses.map((c) => c.id)).toEqual(SMALL_TREE.courses);
    const counts = model.catalog.courses.map(({ id, classes_total, classes_live, lessons_live }) => ({
      id,
      classes_total,
      classes_live,
      lessons_live,
    }));
    expect(counts).toEqual([
      { id: 'python-basics', classes_total: 3, classes_live: 2, lessons_live: 3 },
      { id: 'sql-basics', classes_total: 1, classes_live: 1, lessons_live: 1 },
      { id: 'rust-intro', classes_total: 1, classes_live: 0, lessons_live: 0 },
    ]);
  });

  it('derives class counts: lessons_live, lessons_total (with soon topics), exercises (sum of steps)', () => {
    const python = model.catalog.courses[0]!;
    const classes = python.classes.map(({ id, lessons_live, lessons_total, exercises, soon }) => ({
      id,
      lessons_live,
      lessons_total,
      exercises,
      soon,
    }));
    expect(classes).toEqual([
      { id: 'first-steps', lessons_live: 2, lessons_total: 3, exercises: 5, soon: ['String formatting'] },
      { id: 'loops', lessons_live: 1, lessons_total: 1, exercises: 1, soon: [] },
      { id: 'functions', lessons_live: 0, lessons_total: 2, exercises: 0, soon: ['Defining functions', 'Return values'] },
    ]);
  });

  it('keeps lessons in teaching order with step counts and no step content', () => {
    const first = model.catalog.courses[0]!.classes[0]!;
    expect(first.lessons).toEqual([
      {
        id: 'hello-world',
        course_id: 'python-basics',
        class_id: 'first-steps',
        title: 'Hello, world',
        blurb: 'Print your first line.',
        lang: 'python',
        steps: 2,
      },
      { id: 'variables', course_id: 'python-basics', class_id: 'first-steps', title: 'Variables', blurb: null, lang: 'python', steps: 3 },
    ]);
    expect(model.catalog.courses[1]!.classes[0]!.lessons[0]!.steps).toBe(4);
    expect(JSON.stringify(model)).not.toContain('Open a terminal');
  });

  it('uses null for absent blurbs and taglines', () => {
    const sql = model.catalog.courses[1]!;
    expect(sql.tagline).toBeNull();
    expect(sql.blurb).toBeNull();
    expect(model.catalog.courses[0]!.tagline).toBe('From zero to scripts');
  });

  it('orders the changelog newest first, then by id on the same date, with deprecates always a list', () => {
    expect(model.changelog.entries.map((e) => [e.id, e.date])).toEqual([
      ['api-v1-2025-06-10', '2025-06-10'],
      ['for-loops-2025-06-10', '2025-06-10'],
      ['python-basics-2025-03-01', '2025-03-01'],
    ]);
    expect(model.changelog.entries[0]!.deprecates).toEqual([{ path: '/v1/roadmap', sunset: '2025-10-01' }]);
    expect(model.changelog.entries[1]!.deprecates).toEqual([]);
    expect(model.changelog.entries[0]!.body).toBe('The API now lives under `/v1`.');
  });

  it('orders roadmap stages and items by order then title; shipped only on shipped items', () => {
    expect(model.roadmap.stages.map((s) => s.key)).toEqual(['shipped', 'building', 'next', 'exploring']);
    const exploring = model.roadmap.stages[3]!;
    expect(exploring.items.map((i) => i.id)).toEqual(['dark-theme', 'offline-mode', 'ai-hints']);
    expect(model.roadmap.stages[0]!.items[0]).toEqual({
      id: 'python-course',
      title: 'Python course',
      theme: 'Courses',
      stage: 'shipped',
      body: 'The first course.',
      shipped: 'python-basics-2025-03-01',
    });
    for (const stage of model.roadmap.stages.slice(1)) for (const item of stage.items) expect('shipped' in item).toBe(false);
    expect(model.roadmap.stages.reduce((n, s) => n + s.items.length, 0)).toBe(SMALL_TREE.roadmapItems);
  });

  it('omits a stage with no items', async () => {
    const dir = await writeContentFixture(undefined, (f) => delete f['roadmap/rust-course.md']);
    dirs.push(dir);
    const result = await loadContent(dir);
    expect(result.ok && result.model.roadmap.stages.map((s) => s.key)).toEqual(['shipped', 'building', 'exploring']);
  });
});

describe('revision', () => {
  it('is a sha256 digest of the files outside Git, changing with their content', async () => {
    expect(model.revision).toMatch(/^sha256:[0-9a-f]{64}$/);
    const dir = await writeContentFixture(undefined, (f) => (f['roadmap/ai-hints.md'] = f['roadmap/ai-hints.md']!.replace('Hints', 'Help')));
    dirs.push(dir);
    const other = await loadContent(dir);
    expect(other.ok && other.model.revision).toMatch(/^sha256:/);
    expect(other.ok && other.model.revision).not.toBe(model.revision);
    const same = await loadContent(dirs[0]!);
    expect(same.ok && same.model.revision).toBe(model.revision);
  });

  it('is the commit inside a Git checkout, with a dirty marker for uncommitted changes', async () => {
    const dir = await writeContentFixture();
    dirs.push(dir);
    const git = (...args: string[]): string =>
      execFileSync('git', ['-C', dir, '-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { encoding: 'utf8' }).trim();
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'content');
    const head = git('rev-parse', 'HEAD');
    const clean = await loadContent(dir);
    expect(clean.ok && clean.model.revision).toBe(head);
    await writeFile(join(dir, 'roadmap/ai-hints.md'), '---\ntitle: AI hints\ntheme: Platform\nstage: exploring\n---\nChanged.\n');
    const dirty = await loadContent(dir);
    expect(dirty.ok && dirty.model.revision).toMatch(new RegExp(`^${head}-dirty-[0-9a-f]{12}$`));
  });
});
