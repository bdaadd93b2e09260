/**
 * A small, valid content tree for tests: 3 courses (one soon), 5 classes (two soon), 4 lessons,
 * 3 changelog entries and 6 roadmap items over the four stages. Tests copy it, break one thing, and check
 * the problem reported.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ContentLoader } from '../../src/content/loader.js';
import type { Problem } from '../../src/content/model.js';

/** File path (relative to the content folder) → text. */
export type ContentFiles = Record<string, string>;

/** The files of the small valid tree. Returns a fresh object each call, so tests may edit it. */
export function smallContentFiles(): ContentFiles {
  return {
    'catalog.md': fm('courses: [python-basics, sql-basics, rust-intro]'),
    'courses/python-basics/index.md': fm(
      'title: Python basics',
      'tagline: From zero to scripts',
      'blurb: Learn Python by writing small programs.',
      'color: "#3776ab"',
      'status: live',
      'classes:',
      '  - first-steps',
      '  - loops',
      '  - functions',
    ),
    'courses/python-basics/first-steps/index.md': fm(
      'name: First steps',
      'status: live',
      'lessons: [hello-world, variables]',
      'soon:',
      '  - String formatting',
    ),
    'courses/python-basics/first-steps/hello-world.md': lesson('title: Hello, world', 'blurb: Print your first line.', 'lang: python')(
      '## Run Python',
      '',
      'Open a terminal and start the interpreter.',
      '',
      '```bash',
      '## this is a shell comment, not a step',
      'python3',
      '```',
      '',
      '## Print',
      '',
      'Call `print` with a string.',
    ),
    'courses/python-basics/first-steps/variables.md': lesson('title: Variables', 'lang: python')(
      '## Names',
      '',
      'A name refers to a value.',
      '',
      '## Assignment',
      '',
      '- `x = 1` binds `x`',
      '- `x = x + 1` rebinds it',
      '',
      '## Types',
      '',
      'Every value has a type.',
    ),
    'courses/python-basics/loops/index.md': fm('name: Loops', 'blurb: Repeat work.', 'status: live', 'lessons: [for-loops]'),
    'courses/python-basics/loops/for-loops.md': lesson('title: For loops', 'lang: python')(
      'Iterating',
      '---------',
      '',
      'A setext heading is a step too.',
    ),
    'courses/python-basics/functions/index.md': fm('name: Functions', 'status: soon', 'lessons: []', 'soon: [Defining functions, Return values]'),
    'courses/sql-basics/index.md': fm('title: SQL basics', 'color: "#336791"', 'status: live', 'classes: [select]'),
    'courses/sql-basics/select/index.md': fm('name: SELECT', 'status: live', 'lessons: [select-star]'),
    'courses/sql-basics/select/select-star.md': lesson('title: SELECT *', 'lang: sql')(
      '## Tables',
      '',
      'Rows and columns.',
      '',
      '## Select all',
      '',
      '```sql',
      'SELECT * FROM users;',
      '```',
      '',
      '## Filter',
      '',
      'Add `WHERE`.',
      '',
      '## Order',
      '',
      'Add `ORDER BY`.',
    ),
    'courses/rust-intro/index.md': fm('title: Rust intro', 'color: "#dea584"', 'status: soon', 'classes: [ownership]'),
    'courses/rust-intro/ownership/index.md': fm('name: Ownership', 'status: soon', 'lessons: []', 'soon: [Borrowing]'),
    'changelog/python-basics-2025-03-01.md': entry(
      'kind: course',
      'title: Python basics is live',
      'blurb: A first course.',
    )('Python basics opens with two classes and a soon one.'),
    'changelog/for-loops-2025-06-10.md': entry('kind: lesson', 'title: For loops', 'blurb: A new lesson.')('Loop over lists.'),
    'changelog/api-v1-2025-06-10.md': entry(
      'kind: feature',
      'title: API v1',
      'blurb: Versioned routes.',
      'deprecates:',
      '  - path: /v1/roadmap',
      '    sunset: 2025-10-01',
    )('The API now lives under `/v1`.'),
    'roadmap/index.md': fm(
      'stages:',
      '  - { key: shipped, label: Shipped, note: Live now. }',
      '  - { key: building, label: Building, note: In progress. }',
      '  - { key: next, label: Next, note: Planned. }',
      '  - { key: exploring, label: Exploring, note: Ideas. }',
    ),
    'roadmap/python-course.md': entry(
      'title: Python course',
      'theme: Courses',
      'stage: shipped',
      'shipped: python-basics-2025-03-01',
    )('The first course.'),
    'roadmap/sql-joins.md': entry('title: SQL joins', 'theme: Courses', 'stage: building')('Joining tables.'),
    'roadmap/rust-course.md': entry('title: Rust course', 'theme: Courses', 'stage: next')('Ownership first.'),
    'roadmap/offline-mode.md': entry('title: Offline mode', 'theme: Platform', 'stage: exploring', 'order: 2')('Learn on a plane.'),
    'roadmap/ai-hints.md': entry('title: AI hints', 'theme: Platform', 'stage: exploring')('Hints when stuck.'),
    'roadmap/dark-theme.md': entry('title: Dark theme', 'theme: Platform', 'stage: exploring', 'order: 1')('Easy on the eyes.'),
  };
}

/** Writes `files` under `dir` (creating folders) and returns `dir`. */
export async function writeTree(dir: string, files: ContentFiles): Promise<string> {
  for (const [rel, text] of Object.entries(files)) {
    const abs = join(dir, ...rel.split('/'));
    await mkdir(dirname(abs), { recursive: true });
    await writeFile(abs, text);
  }
  return dir;
}

/**
 * Writes the small valid tree (optionally changed by `edit`) into `dir`, or into a new temporary folder when
 * `dir` is omitted, and returns the folder's path. Remove it with {@link removeTree}.
 */
export async function writeContentFixture(dir?: string, edit?: (files: ContentFiles) => void): Promise<string> {
  const target = dir ?? (await mkdtemp(join(tmpdir(), 'syllabus-content-')));
  const files = smallContentFiles();
  edit?.(files);
  return writeTree(target, files);
}

/** Removes a folder written by {@link writeContentFixture}. */
export async function removeTree(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** The derived numbers of the small tree, for assertions. */
export const SMALL_TREE = {
  courses: ['python-basics', 'sql-basics', 'rust-intro'],
  lessons: 4,
  changelogEntries: 3,
  roadmapItems: 6,
} as const;

function fm(...yaml: string[]): string {
  return `---\n${yaml.join('\n')}\n---\n`;
}

function lesson(...yaml: string[]): (...body: string[]) => string {
  return (...body) => `${fm(...yaml)}\n${body.join('\n')}\n`;
}

const entry = lesson;

/**
 * Writes the small fixture changed by `edit` into a new temporary folder (pushed on `dirs`: the caller removes it)
 * and loads it.
 * @returns every problem, with paths relative to the content folder; `[]` when the content is valid.
 */
export async function fixtureProblems(edit: (files: ContentFiles) => void, dirs: string[]): Promise<Problem[]> {
  const dir = await writeContentFixture(await mkdtemp(join(tmpdir(), 'syllabus-problems-')), edit);
  dirs.push(dir);
  const result = await new ContentLoader(dir, { displayRoot: '' }).load();
  return result.ok ? [] : result.problems;
}

/** Replaces `from` by `to` in the fixture file `path`. @throws when the file lacks `from`: the edit would test nothing. */
export function replaceInFixture(files: ContentFiles, path: string, from: string, to: string): void {
  const text = files[path];
  if (text === undefined || !text.includes(from)) throw new Error(`fixture ${path} has no ${JSON.stringify(from)}`);
  files[path] = text.replace(from, to);
}
