/**
 * `syllabus-content new`: real files in a temporary copy of the fixture tree (and of the bundled content/), checked
 * with the real loader. Each kind's file validates unchanged and shows in the model; the parent's list keeps every
 * byte but the new item; ids, clashes, unknown parents and existing files.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/content-cli/main.js';
import { ContentLoader } from '../src/content/loader.js';
import type { ContentModel } from '../src/content/model.js';
import { ContentFolder } from '../src/content-cli/scaffold/folder.js';
import { NEW_EXAMPLES } from '../src/content-cli/scaffold/command.js';
import { newChangelog } from '../src/content-cli/scaffold/scaffold.js';
import { slugify } from '../src/content-cli/scaffold/slug.js';
import { appendToList, FrontmatterEditError } from '../src/content-cli/scaffold/frontmatter-edit.js';
import { removeTree, writeContentFixture, type ContentFiles } from './helpers/content-fixture.js';

const BUNDLED = fileURLToPath(new URL('../content', import.meta.url));
const dirs: string[] = [];

afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeTree(dir);
});

async function fixture(edit?: (files: ContentFiles) => void): Promise<string> {
  const dir = await writeContentFixture(undefined, edit);
  dirs.push(dir);
  return dir;
}

/** Runs `syllabus-content new …` in-process on `dir`; what it printed and its exit status. */
async function runNew(dir: string, ...args: string[]): Promise<{ code: number; stdout: string[]; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(['new', ...args, '--dir', dir], { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l), env: {}, cwd: tmpdir() });
  return { code, stdout, stderr: stderr.join('\n') };
}

async function load(dir: string): Promise<ContentModel> {
  const result = await new ContentLoader(dir).load();
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.path}:${p.line}:${p.column}: ${p.message}`).join('\n'));
  return result.model;
}

/** Every file under `dir` and its bytes, to show that nothing changed. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out[join(entry.parentPath, entry.name)] = await readFile(join(entry.parentPath, entry.name), 'utf8');
  }
  return out;
}

const read = (dir: string, rel: string): Promise<string> => readFile(join(dir, rel), 'utf8');

describe('new lesson', () => {
  it('writes a lesson the loader accepts, appends it to its class and derives the counts', async () => {
    const dir = await fixture();
    const classBefore = await read(dir, 'courses/python-basics/first-steps/index.md');
    const before = await load(dir);
    const { code, stdout, stderr } = await runNew(dir, 'lesson', 'python-basics/first-steps', 'Über-Größe: ça va?');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toEqual([`${dir}/courses/python-basics/first-steps/uber-grosse-ca-va.md`, `${dir}/courses/python-basics/first-steps/index.md`]);
    expect(await read(dir, 'courses/python-basics/first-steps/index.md')).toBe(
      classBefore.replace('lessons: [hello-world, variables]', 'lessons: [hello-world, variables, uber-grosse-ca-va]'),
    );
    const model = await load(dir);
    const course = model.catalog.courses.find((c) => c.id === 'python-basics')!;
    const klass = course.classes.find((k) => k.id === 'first-steps')!;
    const was = before.catalog.courses.find((c) => c.id === 'python-basics')!.classes.find((k) => k.id === 'first-steps')!;
    expect(klass.lessons.map((l) => l.id)).toEqual(['hello-world', 'variables', 'uber-grosse-ca-va']);
    expect(klass.lessons.at(-1)).toMatchObject({ title: 'Über-Größe: ça va?', lang: 'python', steps: 1, blurb: null });
    expect(klass.lessons_live).toBe(was.lessons_live + 1);
    expect(klass.lessons_total).toBe(was.lessons_total + 1);
    expect(klass.exercises).toBe(was.exercises + 1);
    expect(course.lessons_live).toBe(before.catalog.courses.find((c) => c.id === 'python-basics')!.lessons_live + 1);
  });

  it('takes the language of the class, or --lang, and keeps a block list block, comments and CRLF line ends', async () => {
    const classFile = [
      '---',
      'name: SELECT',
      '# the order learners meet them',
      'status: live',
      'lessons:',
      '  - select-star   # first',
      '---',
      '',
    ].join('\r\n');
    const dir = await fixture((files) => {
      files['courses/sql-basics/select/index.md'] = classFile;
    });
    expect((await runNew(dir, 'lesson', 'sql-basics/select', 'WHERE, AND & OR')).code).toBe(0);
    expect((await runNew(dir, 'lesson', 'sql-basics/select', 'psql basics', '--lang', 'bash', '--blurb', 'The client.')).code).toBe(0);
    expect(await read(dir, 'courses/sql-basics/select/index.md')).toBe(
      classFile.replace('  - select-star   # first\r\n', '  - select-star   # first\r\n  - where-and-or\r\n  - psql-basics\r\n'),
    );
    const lessons = (await load(dir)).catalog.courses[1]!.classes[0]!.lessons;
    expect(lessons.map((l) => [l.id, l.lang, l.blurb])).toEqual([
      ['select-star', 'sql', null],
      ['where-and-or', 'sql', null],
      ['psql-basics', 'bash', 'The client.'],
    ]);
  });

  it('refuses a lesson id used anywhere in the catalog, suggesting --id, and writes nothing', async () => {
    const dir = await fixture();
    const before = await snapshot(dir);
    const { code, stdout, stderr } = await runNew(dir, 'lesson', 'sql-basics/select', 'Hello, world');
    expect(code).toBe(1);
    expect(stdout).toEqual([]);
    expect(stderr).toContain(`the lesson id "hello-world" is taken by ${dir}/courses/python-basics/first-steps/hello-world.md`);
    expect(stderr).toContain('choose another with --id, such as --id hello-world-2');
    expect(await snapshot(dir)).toEqual(before);
    expect((await runNew(dir, 'lesson', 'sql-basics/select', 'Hello, world', '--id', 'sql-hello')).code).toBe(0);
  });

  it('refuses an unknown course or class with a "did you mean" from the known ids', async () => {
    const dir = await fixture();
    const course = await runNew(dir, 'lesson', 'python-basic/first-steps', 'X');
    expect(course.code).toBe(2);
    expect(course.stderr).toContain('unknown course "python-basic" (did you mean "python-basics"?); known: python-basics, sql-basics, rust-intro');
    const klass = await runNew(dir, 'lesson', 'python-basics/loop', 'X');
    expect(klass.code).toBe(2);
    expect(klass.stderr).toContain('unknown class "loop" in the course "python-basics" (did you mean "loops"?)');
    expect((await runNew(dir, 'lesson', 'python-basics', 'X')).stderr).toContain('expected <course>/<class>');
  });

  it('names the current id when given an alias', async () => {
    const dir = await fixture((files) => {
      files['courses/python-basics/index.md'] = files['courses/python-basics/index.md']!.replace(
        'status: live',
        'status: live\naliases: [python-101]',
      );
    });
    const { code, stderr } = await runNew(dir, 'lesson', 'python-101/loops', 'While loops');
    expect(code).toBe(2);
    expect(stderr).toContain('"python-101" is the old id of the course "python-basics": use "python-basics"');
  });

  it('refuses a soon class unless --live, which makes the class and its soon course live', async () => {
    const dir = await fixture();
    const refused = await runNew(dir, 'lesson', 'rust-intro/ownership', 'Borrowing', '--lang', 'rust');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the class "ownership" is soon, and a soon class lists no lessons: pass --live');
    const courseBefore = await read(dir, 'courses/rust-intro/index.md');
    const { code, stdout, stderr } = await runNew(dir, 'lesson', 'rust-intro/ownership', 'Borrowing', '--lang', 'rust', '--live');
    expect(code).toBe(0);
    expect(stdout).toHaveLength(3);
    expect(stderr).toContain('the class still announces "Borrowing" in its soon list');
    expect(await read(dir, 'courses/rust-intro/index.md')).toBe(courseBefore.replace('status: soon', 'status: live'));
    const course = (await load(dir)).catalog.courses.find((c) => c.id === 'rust-intro')!;
    expect(course.status).toBe('live');
    expect(course.classes[0]).toMatchObject({ status: 'live', lessons_live: 1 });
  });

  it('checks --id against the id grammar', async () => {
    const dir = await fixture();
    const { code, stderr } = await runNew(dir, 'lesson', 'python-basics/loops', 'X', '--id', 'While_Loops');
    expect(code).toBe(2);
    expect(stderr).toContain('the lesson id "While_Loops" must be lowercase letters and digits in hyphen-separated words');
  });

  it('writes nothing when the result would not validate (a tab in a title)', async () => {
    const dir = await fixture();
    const before = await snapshot(dir);
    const { code, stderr } = await runNew(dir, 'lesson', 'python-basics/loops', 'While\tloops');
    expect(code).toBe(2);
    expect(stderr).toContain('nothing written: the result would not validate');
    expect(stderr).toContain('contains the control character U+0009 (TAB)');
    expect(await snapshot(dir)).toEqual(before);
  });
});

describe('new class and new course', () => {
  it('appends a soon class to a block list, keeping comments and long lines', async () => {
    const blurb = 'A long blurb that a serialiser would fold at eighty columns, which is exactly what must not happen here.';
    const dir = await fixture((files) => {
      files['courses/python-basics/index.md'] = files['courses/python-basics/index.md']!.replace(
        'blurb: Learn Python by writing small programs.',
        `blurb: ${blurb}`,
      ).replace('  - functions', '  # in teaching order\n  - functions  # soon\n# classes end here');
    });
    const before = await read(dir, 'courses/python-basics/index.md');
    const { code, stdout } = await runNew(dir, 'class', 'python-basics', 'Files & errors', '--soon', 'Reading files', '--blurb', 'Read and recover.');
    expect(code).toBe(0);
    expect(stdout).toEqual([`${dir}/courses/python-basics/files-errors/index.md`, `${dir}/courses/python-basics/index.md`]);
    expect(await read(dir, 'courses/python-basics/index.md')).toBe(
      before.replace('  - functions  # soon\n', '  - functions  # soon\n  - files-errors\n'),
    );
    const klass = (await load(dir)).catalog.courses[0]!.classes.at(-1)!;
    expect(klass).toMatchObject({
      id: 'files-errors',
      name: 'Files & errors',
      status: 'soon',
      lessons: [],
      soon: ['Reading files'],
      lessons_total: 1,
    });
    const again = await runNew(dir, 'class', 'python-basics', 'Files, errors');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('the course "python-basics" already has a class "files-errors"');
  });

  it('appends a soon course without classes to a flow list, keeping the catalog body', async () => {
    const dir = await fixture((files) => {
      files['catalog.md'] = '---\ncourses: [python-basics,sql-basics, rust-intro] # display order\n---\nThe catalog body.\n\n## Not a step\n';
    });
    const { code, stdout } = await runNew(dir, 'course', 'Go: the basics');
    expect(code).toBe(0);
    expect(stdout).toEqual([`${dir}/courses/go-the-basics/index.md`, `${dir}/catalog.md`]);
    expect(await read(dir, 'catalog.md')).toBe(
      '---\ncourses: [python-basics,sql-basics, rust-intro, go-the-basics] # display order\n---\nThe catalog body.\n\n## Not a step\n',
    );
    const course = (await load(dir)).catalog.courses.at(-1)!;
    expect(course).toMatchObject({ id: 'go-the-basics', title: 'Go: the basics', status: 'soon', classes: [], classes_total: 0, tagline: null });
    expect(course.color).toMatch(/^#[0-9a-f]{6}$/);
    // The colour is derived from the id: the same id always gets the same one.
    const other = await fixture();
    await runNew(other, 'course', 'Go: the basics');
    expect((await load(other)).catalog.courses.at(-1)!.color).toBe(course.color);
  });

  it('adds an empty flow list its first item, and a class to a new course', async () => {
    const dir = await fixture();
    expect((await runNew(dir, 'course', 'Go', '--color', '#00ADD8', '--tagline', 'Small services.')).code).toBe(0);
    expect(await read(dir, 'courses/go/index.md')).toBe(
      '---\ntitle: Go\ntagline: Small services.\ncolor: "#00ADD8"\nstatus: soon\nclasses: []\n---\n',
    );
    expect((await runNew(dir, 'class', 'go', 'Getting started')).code).toBe(0);
    expect(await read(dir, 'courses/go/index.md')).toContain('classes: [getting-started]\n');
    expect((await runNew(dir, 'lesson', 'go/getting-started', 'Hello', '--id', 'go-hello', '--lang', 'go', '--live')).code).toBe(0);
    const go = (await load(dir)).catalog.courses.at(-1)!;
    expect(go).toMatchObject({ status: 'live', classes_live: 1, lessons_live: 1 });
  });

  it('refuses a course id in use and a colour that is not #rrggbb', async () => {
    const dir = await fixture();
    const taken = await runNew(dir, 'course', 'SQL basics');
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('the course "sql-basics" exists');
    const red = await runNew(dir, 'course', 'Red', '--color', 'red');
    expect(red.code).toBe(2);
    expect(red.stderr).toContain('"color" must be a hex colour #rrggbb, got "red"');
  });
});

describe('new changelog and new roadmap', () => {
  it('dates an entry today (UTC) by the injected clock and fills every required field from the arguments', async () => {
    const dir = await fixture();
    const folder = await ContentFolder.open(dir, dir);
    // 23:30 on 4 March in UTC is already 5 March east of Greenwich: the date is UTC's.
    const result = await newChangelog(
      folder,
      { title: 'New lesson: For loops', kind: 'lesson', blurb: 'Loop over lists.' },
      () => new Date('2026-03-04T23:30:00Z'),
    );
    expect(result.created).toEqual([`${dir}/changelog/new-lesson-for-loops-2026-03-04.md`]);
    expect(await read(dir, 'changelog/new-lesson-for-loops-2026-03-04.md')).toBe(
      '---\nkind: lesson\ntitle: "New lesson: For loops"\nblurb: Loop over lists.\n---\n\nLoop over lists.\n',
    );
    const entry = (await load(dir)).changelog.entries.find((e) => e.id === 'new-lesson-for-loops-2026-03-04')!;
    expect(entry).toMatchObject({ date: '2026-03-04', kind: 'lesson', title: 'New lesson: For loops', blurb: 'Loop over lists.' });
  });

  it('takes --date, --body and --slug, and never overwrites an entry', async () => {
    const dir = await fixture();
    const args = ['changelog', 'For loops', '--kind', 'lesson', '--blurb', 'Again.', '--date', '2025-06-10'];
    const before = await snapshot(dir);
    const clash = await runNew(dir, ...args);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain(
      `the changelog entry "for-loops-2025-06-10" exists (${dir}/changelog/for-loops-2025-06-10.md): for another entry that day ` +
        'choose its slug with --slug, such as --slug for-loops-2, or its day with --date YYYY-MM-DD',
    );
    expect(await snapshot(dir)).toEqual(before);
    const { code, stdout } = await runNew(dir, ...args, '--slug', 'for-loops-again', '--body', 'Loops, *again*.');
    expect(code).toBe(0);
    expect(stdout).toEqual([`${dir}/changelog/for-loops-again-2025-06-10.md`]);
    expect((await load(dir)).changelog.entries.find((e) => e.id === 'for-loops-again-2025-06-10')!.body).toBe('Loops, *again*.');
    expect((await runNew(dir, 'changelog', 'X', '--kind', 'lesson', '--blurb', 'x', '--date', '2025-02-29')).stderr).toContain(
      '--date must be a real calendar date YYYY-MM-DD, got "2025-02-29"',
    );
    const noBlurb = await runNew(dir, 'changelog', 'X', '--kind', 'lesson');
    expect(noBlurb.code).toBe(2);
    expect(noBlurb.stderr).toContain("required option '--blurb <text>' not specified");
    expect((await runNew(dir, 'changelog', 'X', '--kind', 'news', '--blurb', 'x')).code).toBe(2);
  });

  it('writes a roadmap item in its stage; a shipped one names an existing entry', async () => {
    const dir = await fixture();
    expect(
      (await runNew(dir, 'roadmap', 'Mobile app', '--stage', 'next', '--theme', 'Platform', '--body', 'Learn on a phone.', '--order', '0')).code,
    ).toBe(0);
    const noTheme = await runNew(dir, 'roadmap', 'Quizzes', '--stage', 'next', '--body', 'Check yourself.');
    expect(noTheme.code).toBe(2);
    expect(noTheme.stderr).toContain('a roadmap item needs a theme: pass --theme (themes in use: Courses, Platform)');
    const typo = await runNew(
      dir,
      'roadmap',
      'Loops',
      '--stage',
      'shipped',
      '--theme',
      'Courses',
      '--body',
      'Done.',
      '--shipped',
      'for-loop-2025-06-10',
    );
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown changelog entry "for-loop-2025-06-10" (did you mean "for-loops-2025-06-10"?)');
    const shipped = ['--stage', 'shipped', '--theme', 'Courses', '--body', 'Done.', '--shipped', 'for-loops-2025-06-10'];
    expect((await runNew(dir, 'roadmap', 'Loops', ...shipped)).code).toBe(0);
    expect((await runNew(dir, 'roadmap', 'Dark theme', '--stage', 'next', '--theme', 'Platform', '--body', 'x')).code).toBe(1);
    const stages = (await load(dir)).roadmap.stages;
    expect(stages.find((s) => s.key === 'next')!.items.map((i) => i.id)).toEqual(['mobile-app', 'rust-course']);
    expect(stages.find((s) => s.key === 'shipped')!.items.find((i) => i.id === 'loops')).toMatchObject({
      shipped: 'for-loops-2025-06-10',
      body: 'Done.',
    });
  });
});

describe('the folder', () => {
  it('adds nothing to content that does not validate', async () => {
    const dir = await fixture((files) => {
      files['roadmap/sql-joins.md'] = '---\ntitle: SQL joins\ntheme: Courses\nstage: building\n---\n';
    });
    const before = await snapshot(dir);
    const { code, stderr } = await runNew(dir, 'course', 'Go');
    expect(code).toBe(1);
    expect(stderr).toContain(`${dir}: the content has 1 problem; new adds files only to valid content`);
    expect(stderr).toContain(`${dir}/roadmap/sql-joins.md:6:1: the body must be exactly one paragraph, but it is empty`);
    expect(await snapshot(dir)).toEqual(before);
    expect((await runNew(join(dir, 'nowhere'), 'course', 'Go')).code).toBe(2);
  });
});

describe('ids from titles', () => {
  it('drops accents and apostrophes, makes punctuation a hyphen, and keeps to the id grammar', () => {
    expect(slugify('Hello, world!')).toBe('hello-world');
    expect(slugify('Éléments de base — ça marche')).toBe('elements-de-base-ca-marche');
    expect(slugify("Don't panic: it’s fine")).toBe('dont-panic-its-fine');
    expect(slugify('Straße, Æsir, Øre, Łódź')).toBe('strasse-aesir-ore-lodz');
    expect(slugify('  C++ & C#  ')).toBe('c-c');
    expect(slugify('SELECT * FROM t WHERE x > 1')).toBe('select-from-t-where-x-1');
    expect(slugify('日本語')).toBeUndefined();
    expect(slugify('!!!')).toBeUndefined();
  });

  it('cuts a long title at a word boundary within 64 characters', () => {
    const title = 'A very long lesson title that goes on and on about iterators, generators and comprehensions';
    const id = slugify(title)!;
    expect(id).toBe('a-very-long-lesson-title-that-goes-on-and-on-about-iterators');
    expect(id.length).toBeLessThanOrEqual(64);
    expect(slugify('x'.repeat(80))).toBe('x'.repeat(64));
    expect(slugify('Short words', 8)).toBe('short');
  });
});

describe('new --help', () => {
  it('lists every kind, and its examples run on a copy of the bundled content/, which stays valid', async () => {
    const out: string[] = [];
    const code = await runCli(['new', '--help'], { stdout: (l) => out.push(l), stderr: (l) => out.push(l), env: {}, cwd: tmpdir() });
    expect(code).toBe(0);
    const help = out.join('\n');
    for (const kind of ['lesson', 'class', 'course', 'changelog', 'roadmap']) expect(help).toMatch(new RegExp(`^  ${kind} \\[options\\]`, 'm'));
    for (const example of NEW_EXAMPLES) expect(help).toContain(example);

    const dir = await mkdtemp(join(tmpdir(), 'syllabus-new-bundled-'));
    dirs.push(dir);
    await cp(BUNDLED, dir, { recursive: true });
    const bundled = await load(dir);
    for (const example of NEW_EXAMPLES) {
      const args = shellWords(example).slice(2); // after `syllabus-content new`
      // The ids an example names exist in the bundled content.
      if (args[0] === 'lesson') {
        const [course, klass] = args[1]!.split('/');
        expect(bundled.catalog.courses.find((c) => c.id === course)?.classes.map((k) => k.id)).toContain(klass);
      }
      if (args[0] === 'class') expect(bundled.catalog.courses.map((c) => c.id)).toContain(args[1]);
      const { code, stderr } = await runNew(dir, ...args);
      expect({ example, code, stderr }).toEqual({ example, code: 0, stderr: '' });
    }
    const after = await load(dir);
    // The class's lessons are all `py-…`: the new one follows the convention; `--id` is taken as given.
    const basics = after.catalog.courses.find((c) => c.id === 'python-foundations')!.classes.find((k) => k.id === 'basics')!;
    expect(basics.lessons.map((l) => l.id).at(-1)).toBe('py-booleans-and-comparisons');
    const querying = after.catalog.courses.find((c) => c.id === 'sql-for-analysts')!.classes.find((k) => k.id === 'querying')!;
    expect(querying.lessons.map((l) => l.id).at(-1)).toBe('sql-like');
    expect(after.catalog.courses).toHaveLength(bundled.catalog.courses.length + 1);
    expect(after.changelog.entries).toHaveLength(bundled.changelog.entries.length + 1);
  });
});

/** Splits a command line written with double quotes (the examples') into its words. */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

describe('appending to a list in the frontmatter', () => {
  const fm = (yaml: string, body = 'Body.\n'): string => `---\n${yaml}\n---\n${body}`;

  it('copies the separator and layout the list already uses', () => {
    expect(appendToList(fm('k: [a,b]'), 'k', 'c')).toBe(fm('k: [a,b,c]'));
    expect(appendToList(fm('k: [ a, b ]'), 'k', 'c')).toBe(fm('k: [ a, b, c ]'));
    expect(appendToList(fm('k: [a]'), 'k', 'c')).toBe(fm('k: [a, c]'));
    expect(appendToList(fm('k: []'), 'k', 'c')).toBe(fm('k: [c]'));
    expect(appendToList(fm('k: [ ]'), 'k', 'c')).toBe(fm('k: [ c ]'));
    expect(appendToList(fm('k: [\n    a,\n    b\n  ]'), 'k', 'c')).toBe(fm('k: [\n    a,\n    b,\n    c\n  ]'));
    expect(appendToList(fm('k: [\n  a,\n  b,\n]'), 'k', 'c')).toBe(fm('k: [\n  a,\n  b,\n  c,\n]'));
    expect(appendToList(fm('k: [\n  a\n]'), 'k', 'c')).toBe(fm('k: [\n  a,\n  c\n]'));
    expect(appendToList(fm('k:\n- a\n- "b"\nother: 1'), 'k', 'c')).toBe(fm('k:\n- a\n- "b"\n- c\nother: 1'));
    expect(appendToList(fm('k:\n    -   a'), 'k', 'c')).toBe(fm('k:\n    -   a\n    -   c'));
  });

  it('quotes an id YAML would read as a number, and keeps a byte order mark and the body', () => {
    expect(appendToList(fm('k: [a]'), 'k', '2024')).toBe(fm('k: [a, "2024"]'));
    expect(appendToList(`\uFEFF${fm('k: [a]', '---\nnot: frontmatter\n')}`, 'k', 'b')).toBe(`\uFEFF${fm('k: [a, b]', '---\nnot: frontmatter\n')}`);
  });

  it('refuses a layout it cannot extend without rewriting it', () => {
    expect(() => appendToList(fm('k: [a, # note\n  b]'), 'k', 'c')).toThrow(FrontmatterEditError);
    expect(() => appendToList(fm('k: a'), 'k', 'c')).toThrow('"k" is not a list');
    expect(() => appendToList('no frontmatter', 'k', 'c')).toThrow('no closed frontmatter');
  });
});

describe('syllabus-content new as a process', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
  const run = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', tsx, join(root, 'src/content-cli/main.ts'), ...args],
        { cwd: root, timeout: 60_000 },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('prints the paths on stdout and exits 0; a usage error exits 2 with one line and a hint, not the whole help', async () => {
    const dir = await fixture();
    const written = await run(['new', 'class', 'sql-basics', 'Joins', '--dir', dir]);
    expect(written).toEqual({ code: 0, stdout: `${dir}/courses/sql-basics/joins/index.md\n${dir}/courses/sql-basics/index.md\n`, stderr: '' });
    const missing = await run(['new', 'lesson', 'sql-basics/select', '--dir', dir]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe("error: missing required argument 'title'\n(run syllabus-content --help for usage)\n");
    const kind = await run(['new', 'module', 'X', '--dir', dir]);
    expect(kind.code).toBe(2);
    expect(kind.stderr).toBe("error: unknown command 'module'\n(run syllabus-content --help for usage)\n");
    const plural = await run(['new', 'changelog', 'X', '--kind', 'lessons', '--blurb', 'B.', '--dir', dir]);
    expect(plural.code).toBe(2);
    expect(plural.stderr).toBe(
      "error: option '--kind <kind>' argument 'lessons' is invalid. Did you mean \"lesson\"? Allowed choices are course, class, lesson, feature.\n" +
        '(run syllabus-content --help for usage)\n',
    );
    const version = await run(['--version']);
    expect(version).toEqual({ code: 0, stdout: `${JSON.parse(await readFile(join(root, 'package.json'), 'utf8')).version}\n`, stderr: '' });
  });
});
