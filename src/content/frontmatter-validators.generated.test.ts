/**
 * The frontmatter validators every run uses (tests, tsx and the bundle alike) are ajv standalone code committed in
 * frontmatter-validators.generated.js: they are what `npm run generate:validators` makes of schemas/ today, and
 * they judge frontmatter exactly as the validators ajv compiles from the same schemas: same verdict, same ajv errors
 * (verbose fields — the offending data, the schema and parent schema — included) and so the same problems for
 * content writers, on invalid samples of every kind of file.
 */
import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import precompiled from './frontmatter-validators.generated.js';
import type { FileKind } from './layout.js';
import { createFrontmatterAjv, renderFrontmatterValidators, schemaIds } from './render-validators.js';
import { schemaProblems } from './schema-messages.js';

/** Invalid frontmatter of each kind: wrong types, unknown keys, missing keys, formats, patterns, enums, lengths. */
const INVALID: Record<FileKind, unknown[]> = {
  catalog: [
    [],
    'courses: [a]',
    null,
    {},
    { courses: 'intro' },
    { courses: ['Intro', '', 'a--b', 3, 'x'.repeat(65)], extra: true },
    { course: ['intro'] },
  ],
  course: [
    { title: 'T', color: 'red', status: 'open', classes: [] },
    { title: ' ', color: '#12345g', status: 'live', classes: ['ok', 'Not-ok'], tagline: '', blurb: 7 },
    { title: 'x'.repeat(501), color: 123, status: null, classes: {}, colour: '#ffffff' },
    { titel: 'T' },
  ],
  class: [
    { name: 'N', status: 'soon', lessons: [1, 'two'], soon: ['', '\t'], blurb: '' },
    { nam: 'N', status: 'Live', lessons: 'one' },
    { name: ['N'], status: 'live', lessons: [], soon: 'later', lesson: [] },
  ],
  lesson: [
    { title: 'T', lang: 'Python' },
    { title: '', lang: '' },
    { title: 42, lang: '9sql', blurb: [] },
    { title: 'T', lang: 'x'.repeat(33), langauge: 'sql', level: 1 },
    {},
  ],
  changelog: [
    { kind: 'bugfix', title: 'T', blurb: 'B' },
    { kind: 'feature', title: 'T', blurb: 'B', deprecates: [{ path: 'v1/roadmap', sunset: '2026-02-30' }] },
    { kind: 'feature', title: 'T', blurb: 'B', deprecates: [{ path: '/v1/x', sunset: '26-01-01', until: 'x' }, { sunset: 20260101 }, 'x'] },
    { kind: 'course', title: 'T', blurb: 'B', deprecates: [{ path: '/v1/x', sunset: '2026-13-01' }] },
    { title: null, blurb: '\n', deprecate: [] },
  ],
  roadmap: [
    { stages: [] },
    {
      stages: [
        { key: 'shipped', label: 'S', note: 'N' },
        { key: 'built', label: '', note: 'N', extra: 1 },
        { key: 'next', label: 'L' },
        'exploring',
        { key: 'exploring', label: 'E', note: 'N' },
      ],
    },
    { stages: 'four', stage: [] },
  ],
  'roadmap-item': [
    { title: 'T', theme: 'Th', stage: 'done', shipped: 'Bad Id', order: 1.5 },
    { title: 'T', theme: 'Th', stage: 'shipped', shipped: 'ok-id', order: '1', priority: 'high' },
    { theme: 7, stage: null },
  ],
};

let compiled: Record<FileKind, ValidateFunction>;

beforeAll(() => {
  const ajv = createFrontmatterAjv();
  compiled = Object.fromEntries(Object.entries(schemaIds()).map(([kind, id]) => [kind, ajv.getSchema(id)!])) as Record<FileKind, ValidateFunction>;
});

describe('the generated frontmatter validators', () => {
  it('are what `npm run generate:validators` makes of schemas/ today (run it after changing a schema)', () => {
    const { code, declarations } = renderFrontmatterValidators();
    expect(readFileSync(new URL('./frontmatter-validators.generated.js', import.meta.url), 'utf8')).toBe(code);
    expect(readFileSync(new URL('./frontmatter-validators.generated.d.ts', import.meta.url), 'utf8')).toBe(declarations);
  });

  it('are standalone code, not compiled by ajv at run time', () => {
    for (const kind of Object.keys(INVALID) as FileKind[]) {
      expect(typeof precompiled[kind]).toBe('function');
      // A validator ajv compiles carries its schema environment; standalone code has none.
      expect((compiled[kind] as { schemaEnv?: unknown }).schemaEnv).toBeDefined();
      expect((precompiled[kind] as { schemaEnv?: unknown }).schemaEnv).toBeUndefined();
    }
  });

  describe.each(Object.entries(INVALID) as [FileKind, unknown[]][])('on invalid %s frontmatter', (kind, samples) => {
    it.each(samples.map((sample, i) => [i, sample] as const))('sample %i: the same errors and problems', (_, sample) => {
      const byRunTime = compiled[kind];
      const byGenerated = precompiled[kind];
      expect(byRunTime(sample)).toBe(false);
      expect(byGenerated(sample)).toBe(false);
      // Verbose mode: data, schema and parentSchema are part of each error and must match too.
      expect(byGenerated.errors).toEqual(byRunTime.errors);
      const problems = schemaProblems(byRunTime.errors ?? []);
      expect(problems.length).toBeGreaterThan(0);
      expect(schemaProblems(byGenerated.errors ?? [])).toEqual(problems);
    });
  });

  it('cover every keyword the frontmatter schemas fail on', () => {
    const keywords = new Set<string>();
    for (const [kind, samples] of Object.entries(INVALID) as [FileKind, unknown[]][]) {
      for (const sample of samples) {
        precompiled[kind](sample);
        for (const error of precompiled[kind].errors ?? []) keywords.add(error.keyword);
      }
    }
    expect([...keywords].sort()).toEqual(
      ['additionalProperties', 'enum', 'format', 'maxItems', 'maxLength', 'minItems', 'minLength', 'pattern', 'required', 'type'].sort(),
    );
  });

  it('accept what the run-time validators accept', () => {
    const valid: [FileKind, unknown][] = [
      ['catalog', { courses: ['intro-python'] }],
      ['lesson', { title: 'Loops', lang: 'python', blurb: 'Two\nlines' }],
      ['changelog', { kind: 'feature', title: 'T', blurb: 'B', deprecates: [{ path: '/v1/roadmap', sunset: '2028-02-29' }] }],
      ['roadmap-item', { title: 'T', theme: 'Th', stage: 'shipped', shipped: 'ok-id', order: 2 }],
    ];
    for (const [kind, data] of valid) {
      expect(compiled[kind](data)).toBe(true);
      expect(precompiled[kind](data)).toBe(true);
      expect(precompiled[kind].errors).toBeNull();
    }
  });
});
