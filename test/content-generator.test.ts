/** The benchmark generator writes a valid tree whose counts the loader reproduces. */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateContent } from '../bench/generate-content.js';
import { loadContent } from '../src/content/loader.js';
import { countStepsFast } from '../src/content/steps.js';
import { removeTree } from './helpers/content-fixture.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeTree));
});

describe('generateContent', () => {
  it('writes a valid tree with the requested lessons and 2–8 steps each', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'syllabus-gen-'));
    dirs.push(dir);
    const generated = await generateContent(dir, { lessons: 123, lessonsPerClass: 7, classesPerCourse: 4 });
    const result = await loadContent(dir);
    if (!result.ok)
      throw new Error(
        result.problems
          .slice(0, 5)
          .map((p) => `${p.path}:${p.line}: ${p.message}`)
          .join('\n'),
      );
    const lessons = result.model.catalog.courses.flatMap((c) => c.classes.flatMap((k) => k.lessons));
    expect(lessons).toHaveLength(123);
    expect(generated.lessons).toBe(123);
    expect(lessons.reduce((n, l) => n + l.steps, 0)).toBe(generated.steps);
    expect(Math.min(...lessons.map((l) => l.steps))).toBeGreaterThanOrEqual(2);
    expect(Math.max(...lessons.map((l) => l.steps))).toBeLessThanOrEqual(8);
    expect(result.model.catalog.courses.some((c) => c.status === 'soon')).toBe(true);
    expect(result.model.roadmap.stages.map((s) => s.key)).toEqual(['shipped', 'building', 'next', 'exploring']);
  });

  it('is deterministic for a seed, and its lessons take the fast step counter', async () => {
    const a = await mkdtemp(join(tmpdir(), 'syllabus-gen-'));
    const b = await mkdtemp(join(tmpdir(), 'syllabus-gen-'));
    dirs.push(a, b);
    await generateContent(a, { lessons: 20, seed: 5 });
    await generateContent(b, { lessons: 20, seed: 5 });
    const [ra, rb] = [await loadContent(a), await loadContent(b)];
    expect(ra.ok && rb.ok && ra.model.revision === rb.model.revision).toBe(true);
    const text = await readFile(join(a, 'courses/course-1/class-1/lesson-1.md'), 'utf8');
    expect(countStepsFast(text.slice(text.indexOf('\n---', 3) + 4))).toBeGreaterThanOrEqual(2);
  });
});
