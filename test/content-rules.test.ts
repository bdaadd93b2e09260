/**
 * Every content rule fails on a broken copy of the small fixture tree with its own message, at the line
 * (and column) of the offending key.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContentLoader, MAX_FILE_BYTES } from '../src/content/loader.js';
import type { Problem } from '../src/content/model.js';
import { fixtureProblems, removeTree, replaceInFixture, writeContentFixture, type ContentFiles } from './helpers/content-fixture.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeTree));
});

const problemsAfter = (edit: (files: ContentFiles) => void): Promise<Problem[]> => fixtureProblems(edit, dirs);
const replace = replaceInFixture;

const LESSON = 'courses/python-basics/first-steps/hello-world.md';

interface Case {
  rule: string;
  edit: (files: ContentFiles) => void;
  expected: { path: string; line: number; column?: number; message: string | RegExp };
}

const cases: Case[] = [
  {
    rule: 'unknown frontmatter key (a typo)',
    edit: (f) => replace(f, LESSON, 'blurb: Print', 'blrub: Print'),
    expected: {
      path: LESSON,
      line: 3,
      column: 1,
      message: /^unknown key "blrub" \(did you mean "blurb"\?\); allowed keys: title, blurb, lang, aliases$/,
    },
  },
  {
    rule: 'color is a hex colour',
    edit: (f) => replace(f, 'courses/sql-basics/index.md', 'color: "#336791"', 'color: red'),
    expected: { path: 'courses/sql-basics/index.md', line: 3, column: 1, message: '"color" must be a hex colour #rrggbb, got "red"' },
  },
  {
    rule: 'required key',
    edit: (f) => replace(f, 'courses/python-basics/first-steps/variables.md', 'lang: python\n', ''),
    expected: { path: 'courses/python-basics/first-steps/variables.md', line: 1, message: 'missing required key "lang"' },
  },
  {
    rule: 'enum value',
    edit: (f) => replace(f, 'courses/rust-intro/index.md', 'status: soon', 'status: beta'),
    expected: { path: 'courses/rust-intro/index.md', line: 4, message: '"status" must be one of "live", "soon", got "beta"' },
  },
  {
    rule: 'type of a value',
    edit: (f) => replace(f, 'roadmap/offline-mode.md', 'order: 2', 'order: second'),
    expected: { path: 'roadmap/offline-mode.md', line: 5, message: '"order" must be an integer, got "second"' },
  },
  {
    rule: 'YAML syntax (duplicate key)',
    edit: (f) => replace(f, LESSON, 'lang: python', 'lang: python\ntitle: Again'),
    expected: { path: LESSON, line: 5, message: /^invalid YAML: Map keys must be unique/ },
  },
  {
    rule: 'missing frontmatter',
    edit: (f) => (f[LESSON] = '## Just a body\n'),
    expected: { path: LESSON, line: 1, message: /^missing frontmatter/ },
  },
  {
    rule: 'unclosed frontmatter',
    edit: (f) => (f[LESSON] = '---\ntitle: Open\nlang: python\n'),
    expected: { path: LESSON, line: 1, message: /^the frontmatter is not closed/ },
  },
  {
    rule: 'catalog.md exists',
    edit: (f) => delete f['catalog.md'],
    expected: { path: 'catalog.md', line: 1, message: /^missing catalog\.md/ },
  },
  {
    rule: 'a listed course exists',
    edit: (f) => replace(f, 'catalog.md', 'rust-intro]', 'rust-intro, ghost]'),
    expected: { path: 'catalog.md', line: 2, message: 'course "ghost" is listed but courses/ghost/index.md does not exist' },
  },
  {
    rule: 'no orphan course',
    edit: (f) => (f['courses/extra/index.md'] = '---\ntitle: Extra\ncolor: "#000000"\nstatus: soon\nclasses: []\n---\n'),
    expected: { path: 'courses/extra/index.md', line: 1, message: 'orphan course: catalog.md does not list "extra"' },
  },
  {
    rule: 'no duplicate id in a list',
    edit: (f) => replace(f, 'catalog.md', 'rust-intro]', 'rust-intro, sql-basics]'),
    expected: { path: 'catalog.md', line: 2, message: /^duplicate course id "sql-basics"/ },
  },
  {
    rule: 'a listed class exists',
    edit: (f) => replace(f, 'courses/python-basics/index.md', '  - functions', '  - functions\n  - ghost-class'),
    expected: {
      path: 'courses/python-basics/index.md',
      line: 11,
      column: 5,
      message: 'class "ghost-class" is listed but courses/python-basics/ghost-class/index.md does not exist',
    },
  },
  {
    rule: 'no orphan class',
    edit: (f) => (f['courses/sql-basics/joins/index.md'] = '---\nname: Joins\nstatus: soon\nlessons: []\n---\n'),
    expected: { path: 'courses/sql-basics/joins/index.md', line: 1, message: /^orphan class: courses\/sql-basics\/index\.md does not list "joins"/ },
  },
  {
    rule: 'a class needs its course',
    edit: (f) => (f['courses/nowhere/joins/index.md'] = '---\nname: Joins\nstatus: soon\nlessons: []\n---\n'),
    expected: {
      path: 'courses/nowhere/joins/index.md',
      line: 1,
      message: /^orphan class: its course file courses\/nowhere\/index\.md does not exist/,
    },
  },
  {
    rule: 'a listed lesson exists',
    edit: (f) => replace(f, 'courses/sql-basics/select/index.md', '[select-star]', '[select-star, ghost-lesson]'),
    expected: {
      path: 'courses/sql-basics/select/index.md',
      line: 4,
      message: /^lesson "ghost-lesson" is listed but courses\/sql-basics\/select\/ghost-lesson\.md does not exist/,
    },
  },
  {
    rule: 'no orphan lesson',
    edit: (f) => (f['courses/sql-basics/select/extra.md'] = '---\ntitle: Extra\nlang: sql\n---\n## One\n'),
    expected: {
      path: 'courses/sql-basics/select/extra.md',
      line: 1,
      message: /^orphan lesson: courses\/sql-basics\/select\/index\.md does not list "extra"/,
    },
  },
  {
    rule: 'lesson ids are unique across the catalog',
    edit: (f) => {
      f['courses/sql-basics/select/hello-world.md'] = '---\ntitle: Hello SQL\nlang: sql\n---\n## One\n';
      replace(f, 'courses/sql-basics/select/index.md', '[select-star]', '[select-star, hello-world]');
    },
    expected: {
      path: 'courses/sql-basics/select/hello-world.md',
      line: 1,
      message: /^duplicate lesson id "hello-world": also used by courses\/python-basics\/first-steps\/hello-world\.md/,
    },
  },
  {
    rule: 'ids match the id grammar',
    edit: (f) => {
      f['courses/sql-basics/select/Bad_Id.md'] = '---\ntitle: Bad\nlang: sql\n---\n## One\n';
    },
    expected: {
      path: 'courses/sql-basics/select/Bad_Id.md',
      line: 1,
      message: /^the lesson id "Bad_Id" \(from the file's path\) must be lowercase letters and digits/,
    },
  },
  {
    rule: 'ids are at most 64 characters',
    edit: (f) => (f[`roadmap/${'a'.repeat(65)}.md`] = '---\ntitle: Long\ntheme: T\nstage: next\n---\nBody.\n'),
    expected: { path: `roadmap/${'a'.repeat(65)}.md`, line: 1, message: /must be at most 64 characters, got 65$/ },
  },
  {
    rule: 'a soon class lists no lessons',
    edit: (f) => replace(f, 'courses/python-basics/functions/index.md', 'lessons: []', 'lessons: [some-lesson]'),
    expected: { path: 'courses/python-basics/functions/index.md', line: 4, message: /^a soon class lists no lessons, but this one lists 1/ },
  },
  {
    rule: 'a soon course has no live class',
    edit: (f) => replace(f, 'courses/rust-intro/ownership/index.md', 'status: soon', 'status: live'),
    expected: {
      path: 'courses/rust-intro/ownership/index.md',
      line: 3,
      message: 'this class is live but its course "rust-intro" is soon: a soon course has no live class',
    },
  },
  {
    rule: 'a live class has at least one lesson',
    edit: (f) => replace(f, 'courses/python-basics/loops/index.md', 'lessons: [for-loops]', 'lessons: []'),
    expected: { path: 'courses/python-basics/loops/index.md', line: 5, message: 'a live class has at least one lesson, but "lessons" is empty' },
  },
  {
    rule: 'a live course has at least one live class',
    edit: (f) => {
      replace(f, 'courses/sql-basics/select/index.md', 'status: live', 'status: soon');
      replace(f, 'courses/sql-basics/select/index.md', '[select-star]', '[]');
      delete f['courses/sql-basics/select/select-star.md'];
    },
    expected: { path: 'courses/sql-basics/index.md', line: 4, message: 'a live course has at least one live class, but none of its classes is live' },
  },
  {
    rule: 'a lesson has at least one step',
    edit: (f) => replace(f, 'courses/python-basics/loops/for-loops.md', 'Iterating\n---------\n', 'Iterating\n'),
    expected: {
      path: 'courses/python-basics/loops/for-loops.md',
      line: 5,
      message: 'a lesson needs at least one step: its body has no level-2 heading (## …)',
    },
  },
  {
    rule: 'a changelog body is exactly one paragraph (two)',
    edit: (f) => replace(f, 'changelog/for-loops-2025-06-10.md', 'Loop over lists.', 'Loop over lists.\n\nA second paragraph.'),
    expected: {
      path: 'changelog/for-loops-2025-06-10.md',
      line: 9,
      message: 'the body must be exactly one paragraph, but it has a second paragraph here',
    },
  },
  {
    rule: 'a changelog body is not empty',
    edit: (f) => replace(f, 'changelog/for-loops-2025-06-10.md', 'Loop over lists.', ''),
    expected: { path: 'changelog/for-loops-2025-06-10.md', line: 6, message: 'the body must be exactly one paragraph, but it is empty' },
  },
  {
    rule: 'a roadmap body is exactly one paragraph',
    edit: (f) => replace(f, 'roadmap/sql-joins.md', 'Joining tables.', '## Joins\n\nJoining tables.'),
    expected: { path: 'roadmap/sql-joins.md', line: 7, message: 'the body must be exactly one paragraph, but it has a heading here' },
  },
  {
    rule: 'a changelog file is named <slug>-<YYYY-MM-DD>.md',
    edit: (f) => (f['changelog/no-date.md'] = '---\nkind: feature\ntitle: T\nblurb: B\n---\nBody.\n'),
    expected: { path: 'changelog/no-date.md', line: 1, message: 'a changelog file is named <slug>-<YYYY-MM-DD>.md, got "no-date.md"' },
  },
  {
    rule: 'the date of a changelog file name is a real calendar date',
    edit: (f) => (f['changelog/leap-2025-02-29.md'] = '---\nkind: feature\ntitle: T\nblurb: B\n---\nBody.\n'),
    expected: { path: 'changelog/leap-2025-02-29.md', line: 1, message: 'the date "2025-02-29" in the file name is not a real calendar date' },
  },
  {
    rule: 'a deprecation sunsets at least 90 days after the entry',
    edit: (f) => replace(f, 'changelog/api-v1-2025-06-10.md', 'sunset: 2025-10-01', 'sunset: 2025-07-01'),
    expected: {
      path: 'changelog/api-v1-2025-06-10.md',
      line: 7,
      column: 5,
      message: '"deprecates[0].sunset" must be at least 90 days after the entry\'s date 2025-06-10, got 2025-07-01 (21 days)',
    },
  },
  {
    rule: 'a deprecated path is a route of the API',
    edit: (f) => replace(f, 'changelog/api-v1-2025-06-10.md', 'path: /v1/roadmap', 'path: /v1/nowhere'),
    expected: {
      path: 'changelog/api-v1-2025-06-10.md',
      line: 6,
      column: 5,
      message: '"deprecates[0].path" is not a route of the API: "/v1/nowhere"',
    },
  },
  {
    rule: 'roadmap stages are in the order shipped, building, next, exploring',
    edit: (f) => {
      replace(f, 'roadmap/index.md', '{ key: building, label: Building', '{ key: next, label: Building');
      replace(f, 'roadmap/index.md', '{ key: next, label: Next', '{ key: building, label: Next');
    },
    expected: { path: 'roadmap/index.md', line: 4, message: /^stage 2 must be "building", got "next"/ },
  },
  {
    rule: 'roadmap stages: exactly four',
    edit: (f) => replace(f, 'roadmap/index.md', '  - { key: exploring, label: Exploring, note: Ideas. }\n', ''),
    expected: { path: 'roadmap/index.md', line: 2, message: '"stages" must have exactly 4 items, got 3' },
  },
  {
    rule: 'nested keys are named by their path',
    edit: (f) => replace(f, 'roadmap/index.md', '{ key: building, label: Building, note: In progress. }', '{ key: building, note: In progress. }'),
    expected: { path: 'roadmap/index.md', line: 4, column: 5, message: 'missing required key "label" in "stages[1]"' },
  },
  {
    rule: 'shipped names an existing changelog entry',
    edit: (f) => replace(f, 'roadmap/python-course.md', 'shipped: python-basics-2025-03-01', 'shipped: ghost-2025-01-01'),
    expected: {
      path: 'roadmap/python-course.md',
      line: 5,
      message: '"shipped" names the changelog entry "ghost-2025-01-01", but changelog/ghost-2025-01-01.md does not exist',
    },
  },
  {
    rule: 'shipped is required on a shipped item',
    edit: (f) => replace(f, 'roadmap/python-course.md', 'shipped: python-basics-2025-03-01\n', ''),
    expected: {
      path: 'roadmap/python-course.md',
      line: 4,
      message: 'a shipped roadmap item must name the changelog entry that shipped it in "shipped"',
    },
  },
  {
    rule: 'shipped is forbidden on other stages',
    edit: (f) => replace(f, 'roadmap/sql-joins.md', 'stage: building', 'stage: building\nshipped: for-loops-2025-06-10'),
    expected: { path: 'roadmap/sql-joins.md', line: 5, message: '"shipped" is only allowed when stage is "shipped", but stage is "building"' },
  },
  {
    rule: 'roadmap/index.md exists',
    edit: (f) => delete f['roadmap/index.md'],
    expected: { path: 'roadmap/index.md', line: 1, message: /^missing roadmap\/index\.md/ },
  },
  {
    rule: 'no file outside the layout',
    edit: (f) => (f['notes.md'] = '# Notes\n'),
    expected: { path: 'notes.md', line: 1, message: /^unexpected file: it is not part of the content layout/ },
  },
  {
    rule: 'an alias is not a live id of its kind',
    edit: (f) => replace(f, LESSON, 'lang: python', 'lang: python\naliases: [variables]'),
    expected: {
      path: LESSON,
      line: 5,
      column: 11,
      message: 'alias "variables" is the id of a live lesson (courses/python-basics/first-steps/variables.md): an alias names an id no longer in use',
    },
  },
  {
    rule: 'an alias leads to one resource',
    edit: (f) => {
      replace(f, LESSON, 'lang: python', 'lang: python\naliases: [hello]');
      replace(f, 'courses/python-basics/loops/for-loops.md', 'lang: python', 'lang: python\naliases: [loops-intro, hello]');
    },
    expected: {
      path: 'courses/python-basics/loops/for-loops.md',
      line: 4,
      column: 24,
      message: 'alias "hello" is also claimed by courses/python-basics/first-steps/hello-world.md: an old id leads to one lesson',
    },
  },
  {
    rule: "an alias is not the resource's own id",
    edit: (f) => replace(f, 'courses/sql-basics/index.md', 'status: live', 'status: live\naliases: [sql-basics]'),
    expected: { path: 'courses/sql-basics/index.md', line: 5, message: /^alias "sql-basics" is this course's own id/ },
  },
  {
    rule: 'aliases are unique ids',
    edit: (f) => replace(f, LESSON, 'lang: python', 'lang: python\naliases: [Old_Id]'),
    expected: { path: LESSON, line: 5, message: /^"aliases\[0\]" must be an id: lowercase letters and digits/ },
  },
];

describe('content rules', () => {
  it('the fixture itself is valid', async () => {
    expect(await problemsAfter(() => {})).toEqual([]);
  });

  for (const { rule, edit, expected } of cases) {
    it(rule, async () => {
      const problems = await problemsAfter(edit);
      const match = problems.find(
        (p) => p.path === expected.path && (typeof expected.message === 'string' ? p.message === expected.message : expected.message.test(p.message)),
      );
      expect(match, `problems were:\n${problems.map((p) => `${p.path}:${p.line}:${p.column}: ${p.message}`).join('\n')}`).toBeDefined();
      expect(match!.line).toBe(expected.line);
      if (expected.column !== undefined) expect(match!.column).toBe(expected.column);
    });
  }

  it('collects the aliases of every kind into the model, class aliases by course', async () => {
    const dir = await writeContentFixture(await mkdtemp(join(tmpdir(), 'syllabus-rules-')), (f) => {
      replace(f, LESSON, 'lang: python', 'lang: python\naliases: [hello, first-print]');
      replace(f, 'courses/python-basics/loops/index.md', 'status: live', 'status: live\naliases: [first-steps-2]');
      replace(f, 'courses/sql-basics/index.md', 'status: live', 'status: live\naliases: [sql]');
    });
    dirs.push(dir);
    const result = await new ContentLoader(dir).load();
    if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('\n'));
    const { aliases } = result.model;
    expect([...aliases.lessons]).toEqual([
      ['hello', 'hello-world'],
      ['first-print', 'hello-world'],
    ]);
    expect([...aliases.courses]).toEqual([['sql', 'sql-basics']]);
    expect([...aliases.classes.get('python-basics')!]).toEqual([['first-steps-2', 'loops']]);
    expect(aliases.changelog.size).toBe(0);
  });

  it('collects every problem instead of stopping at the first', async () => {
    const problems = await problemsAfter((f) => {
      replace(f, LESSON, 'blurb: Print', 'blrub: Print');
      replace(f, 'courses/sql-basics/index.md', 'color: "#336791"', 'color: red');
      replace(f, 'roadmap/sql-joins.md', 'Joining tables.', '');
      replace(f, 'catalog.md', 'rust-intro]', 'rust-intro, ghost]');
    });
    expect(new Set(problems.map((p) => p.path))).toEqual(new Set([LESSON, 'courses/sql-basics/index.md', 'roadmap/sql-joins.md', 'catalog.md']));
  });

  it('accepts CRLF line endings', async () => {
    const problems = await problemsAfter((f) => {
      for (const path of Object.keys(f)) f[path] = f[path]!.replace(/\n/g, '\r\n');
    });
    expect(problems).toEqual([]);
  });

  it('reports a file that is not UTF-8 and a file too large to be content', async () => {
    const dir = await writeContentFixture();
    dirs.push(dir);
    await writeFile(join(dir, 'roadmap/latin1.md'), Buffer.from('---\ntitle: Caf\xe9\ntheme: T\nstage: next\n---\nBody.\n', 'latin1'));
    await writeFile(join(dir, 'roadmap/huge.md'), Buffer.alloc(MAX_FILE_BYTES + 1, 0x61));
    const result = await new ContentLoader(dir, { displayRoot: '' }).load();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toContainEqual({ path: 'roadmap/latin1.md', line: 1, column: 1, message: 'the file is not valid UTF-8 text' });
    expect(result.problems).toContainEqual({ path: 'roadmap/huge.md', line: 1, column: 1, message: 'the file is larger than 8 MiB' });
  });

  it('reports problem paths under the folder as given', async () => {
    const dir = await writeContentFixture(undefined, (f) => replace(f, LESSON, 'blurb: Print', 'blrub: Print'));
    dirs.push(dir);
    const result = await new ContentLoader(dir).load();
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0]!.path).toBe(`${dir}/${LESSON}`);
  });
});
