/**
 * Control characters and non-characters in content text (issue 16, point 7: a BEL in a changelog title passed
 * validation and made `/changelog.atom` ill-formed XML). One rule (src/content/text-characters.ts) over every
 * frontmatter string, after YAML has decoded its escapes, and every body: each forbidden character is one problem
 * at the line and column of the character itself (of its escape when it was written as one), from the loader and
 * from `syllabus-content validate` alike. Tab and line breaks are allowed in the body and in the fields the schemas
 * declare multi-line (`$defs/Paragraph`: the blurbs), nowhere else.
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentLoader } from '../src/content/loader.js';
import { formatProblem } from '../src/content/model.js';
import { parseFile } from '../src/content/parse-file.js';
import { allowsLineBreaks } from '../src/content/schema-validation.js';
import { removeTree, writeContentFixture, type ContentFiles } from './helpers/content-fixture.js';

const ROOT = join(import.meta.dirname, '..');
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

const ONE_LINE = 'one-line text allows no control character, not even tab or a line break, and no Unicode non-character';
const MULTI_LINE = 'text allows tab and line breaks but no other control character, and no Unicode non-character';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeTree));
});

function replace(files: ContentFiles, path: string, from: string, to: string): void {
  const text = files[path];
  if (text === undefined || !text.includes(from)) throw new Error(`fixture ${path} has no ${JSON.stringify(from)}`);
  files[path] = text.replace(from, to);
}

/** The fixture tree changed by `edit`, written to a new folder. */
async function fixture(edit?: (files: ContentFiles) => void): Promise<string> {
  const dir = await writeContentFixture(await mkdtemp(join(tmpdir(), 'syllabus-controls-')), edit);
  dirs.push(dir);
  return dir;
}

/** Every problem of the fixture changed by `edit`, as `path:line:column: message` relative to the folder. */
async function problemsAfter(edit: (files: ContentFiles) => void): Promise<string[]> {
  const result = await new ContentLoader(await fixture(edit), { displayRoot: '' }).load();
  return result.ok ? [] : result.problems.map(formatProblem);
}

/** The problems of one file parsed on its own, as `line:column: message`. */
function problemsOf(rel: string, text: string): string[] {
  return parseFile(rel, text).problems.map((p) => `${p.line}:${p.column}: ${p.message}`);
}

const ENTRY = 'changelog/python-basics-2025-03-01.md';
const LESSON = 'courses/python-basics/first-steps/hello-world.md';
const COURSE = 'courses/python-basics/index.md';
const BODY_LESSON = 'courses/python-basics/first-steps/variables.md';

describe('in a content tree (the loader)', () => {
  it.each<[string, (files: ContentFiles) => void, string]>([
    [
      'a raw BEL in a changelog title',
      (f) => replace(f, ENTRY, 'title: Python basics', 'title: Python \u0007basics'),
      `${ENTRY}:3:15: "title": contains the control character U+0007 (BEL); ${ONE_LINE}`,
    ],
    [
      'a BEL written as the YAML escape "\\u0007" in a changelog title (at the escape)',
      (f) => replace(f, ENTRY, 'title: Python basics is live', 'title: "Python \\u0007basics is live"'),
      `${ENTRY}:3:16: "title": contains the control character U+0007 (BEL); ${ONE_LINE}`,
    ],
    [
      'a C1 control (U+0085 NEL) in a lesson title',
      (f) => replace(f, LESSON, 'title: Hello, world', 'title: Hello,\u0085 world'),
      `${LESSON}:2:14: "title": contains the control character U+0085 (NEL); ${ONE_LINE}`,
    ],
    [
      'the non-character U+FFFE in a course description',
      (f) => replace(f, COURSE, 'blurb: Learn Python', 'blurb: Learn \uFFFEPython'),
      `${COURSE}:4:14: "blurb": contains the non-character U+FFFE; ${MULTI_LINE}`,
    ],
    [
      'a NUL in a lesson body',
      (f) => replace(f, BODY_LESSON, 'A name refers', 'A name \u0000refers'),
      `${BODY_LESSON}:8:8: body: contains the control character U+0000 (NUL); ${MULTI_LINE}`,
    ],
  ])('%s is one problem at its line:column', async (_what, edit, expected) => {
    expect(await problemsAfter(edit)).toEqual([expected]);
  });

  it('a tab in a body is fine', async () => {
    expect(await problemsAfter((f) => replace(f, BODY_LESSON, 'A name refers', 'A name\trefers'))).toEqual([]);
  });

  it('the bundled content still validates', async () => {
    const result = await new ContentLoader(join(ROOT, 'content')).load();
    expect(result.ok ? [] : result.problems.map(formatProblem)).toEqual([]);
  });
});

describe('`syllabus-content validate` (the same code path)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fixture((f) => {
      replace(f, ENTRY, 'title: Python basics', 'title: Python \u0007basics');
      replace(f, BODY_LESSON, 'A name refers', 'A name \u0000refers');
    });
  });

  it('prints each problem at path:line:column and exits 1', async () => {
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(
        process.execPath,
        ['--import', TSX, join(ROOT, 'src/content-cli/main.ts'), 'validate', dir],
        { env: { ...process.env, GITHUB_ACTIONS: '' }, timeout: 60_000 },
        (err, out) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout: out }),
      ),
    );
    expect(code).toBe(1);
    expect(stdout.trim().split('\n').sort()).toEqual(
      [
        `${dir}/${ENTRY}:3:15: "title": contains the control character U+0007 (BEL); ${ONE_LINE}`,
        `${dir}/${BODY_LESSON}:8:8: body: contains the control character U+0000 (NUL); ${MULTI_LINE}`,
      ].sort(),
    );
  });
});

/** A changelog entry with the frontmatter lines `yaml` (kind and blurb added) and `body`. */
const entry = (yaml: string, body = 'Now available.\n') => `---\nkind: feature\n${yaml}\nblurb: Short.\n---\n${body}`;

describe('every string, every way YAML writes it (one file)', () => {
  it.each<[string, string, string]>([
    ['a raw character in a plain scalar', entry('title: Bell\u0007'), '3:12: "title": contains the control character U+0007 (BEL)'],
    ['in single quotes', entry("title: 'Bell \u001b[31m'"), '3:14: "title": contains the control character U+001B (ESC)'],
    ['escaped as \\a', entry('title: "Bell \\a"'), '3:14: "title": contains the control character U+0007 (BEL)'],
    ['escaped as \\x07', entry('title: "Bell \\x07"'), '3:14: "title": contains the control character U+0007 (BEL)'],
    ['escaped as \\U00000007', entry('title: "Bell \\U00000007"'), '3:14: "title": contains the control character U+0007 (BEL)'],
    ['after other escapes', entry('title: "\\"Q\\" \\/ \\u00e9 \\N"'), '3:25: "title": contains the control character U+0085 (NEL)'],
    ['a tab in a one-line field', entry('title: "Tab\\there"'), '3:12: "title": contains the control character U+0009 (TAB)'],
    ['a raw tab in a one-line field', entry('title: Tab\there'), '3:11: "title": contains the control character U+0009 (TAB)'],
    ['an escaped line break in a title', entry('title: "Two\\nlines"'), '3:12: "title": contains the control character U+000A (LF, a line break)'],
    [
      'a literal block scalar in a title',
      entry('title: |\n  Two\n  lines'),
      '4:6: "title": contains the control character U+000A (LF, a line break)',
    ],
    [
      'a folded block scalar (clip) in a title',
      entry('title: >\n  One\n  line'),
      '5:7: "title": contains the control character U+000A (LF, a line break)',
    ],
    ['an empty line in a plain title', entry('title: Two\n\n  paragraphs'), '4:1: "title": contains the control character U+000A (LF, a line break)'],
    ['a lone carriage return in a title', entry('title: "One\\rtwo"'), '3:12: "title": contains the control character U+000D (CR, a line break)'],
    ['the non-character U+FDD0', entry('title: "x\\uFDD0"'), '3:10: "title": contains the non-character U+FDD0'],
    ['the non-character U+10FFFF', entry('title: "x\\U0010FFFF"'), '3:10: "title": contains the non-character U+10FFFF'],
    ['a raw non-character of plane 1', entry('title: x\u{1FFFE}'), '3:9: "title": contains the non-character U+1FFFE'],
    ['a lone surrogate escape', entry('title: "\\uD83D\\uDE00 \\uD800"'), '3:22: "title": contains a lone surrogate U+D800 (half of a UTF-16 pair)'],
    ['DEL', entry('title: x\u007f'), '3:9: "title": contains the control character U+007F (DEL)'],
    [
      'a nested value',
      entry('title: T\ndeprecates:\n  - path: "/v1/roadmap\\x01"\n    sunset: 2026-01-01'),
      '5:23: "deprecates[0].path": contains the control character U+0001 (SOH)',
    ],
    ['a value through an alias (at its anchor)', entry('title: &t "A\\x02"\nx: *t'), '3:13: "title": contains the control character U+0002 (STX)'],
    [
      'a control character in the body after CRLF lines',
      entry('title: T', 'One line\r\nand \u0008another.\r\n'),
      '7:5: body: contains the control character U+0008 (BS)',
    ],
    ['a lone carriage return in the body', entry('title: T', 'One\rTwo\n'), '6:4: body: contains the control character U+000D (CR, a line break)'],
  ])('%s', (_what, text, expected) => {
    const problems = problemsOf('changelog/x-2026-01-01.md', text).filter((p) => !p.includes('unknown key'));
    expect(problems).toHaveLength(1);
    expect(problems[0]!.slice(0, expected.length)).toBe(expected);
  });

  it('a control character in an id is reported once, not also as a pattern mismatch', () => {
    const course = '---\ntitle: Python\ncolor: "#3572a5"\nstatus: live\nclasses: [first-steps, "bad\\u0001"]\n---\n';
    expect(problemsOf(COURSE, course)).toEqual([`5:28: "classes[1]": contains the control character U+0001 (SOH); ${ONE_LINE}`]);
  });

  it('an unknown key holding one is still reported as unknown', () => {
    const problems = problemsOf(LESSON, '---\ntitle: T\nlang: python\ntitel: "\\a"\n---\n## One\n');
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^4:9: "titel": contains the control character U\+0007/);
    expect(problems[1]).toMatch(/^4:1: unknown key "titel"/);
  });

  it('allows tab and line breaks in a blurb (multi-line) and the body, and emoji, right-to-left text, line separators anywhere', () => {
    const text =
      '---\nkind: feature\ntitle: "Catalog API 🎉 שלום \\u2028 & <b> ]]> \\"q\\" \\L \\_"\nblurb: |\n  Two\tlines\n  of blurb.\n---\n' +
      'A body\twith a tab,\r\nCRLF line endings, émoji 🎉 and U+2028 \u2028 here.\r\n';
    expect(problemsOf('changelog/x-2026-01-01.md', text)).toEqual([]);
    expect(
      problemsOf('changelog/x-2026-01-01.md', entry('title: T', 'Tab\there.\n').replace('blurb: Short.', 'blurb: >\n  Folded\n  blurb.')),
    ).toEqual([]);
  });

  it('the schemas make the blurbs multi-line ($defs/Paragraph) and every other field one line', () => {
    for (const kind of ['course', 'class', 'lesson', 'changelog'] as const) expect(allowsLineBreaks(kind, ['blurb']), kind).toBe(true);
    expect(allowsLineBreaks('course', ['title'])).toBe(false);
    expect(allowsLineBreaks('course', ['tagline'])).toBe(false);
    expect(allowsLineBreaks('class', ['soon', 0])).toBe(false);
    expect(allowsLineBreaks('roadmap', ['stages', 2, 'note'])).toBe(false);
    expect(allowsLineBreaks('roadmap-item', ['theme'])).toBe(false);
    expect(allowsLineBreaks('changelog', ['deprecates', 0, 'path'])).toBe(false);
    expect(allowsLineBreaks('lesson', ['unknown'])).toBe(false);
    // Only the field itself: not the document above it, nor a list or key one may wrongly nest under it.
    expect(allowsLineBreaks('lesson', [])).toBe(false);
    expect(allowsLineBreaks('lesson', ['blurb', 0])).toBe(false);
    expect(allowsLineBreaks('lesson', ['blurb', 'blurb'])).toBe(false);
  });

  it('a forbidden character keeps the file out of the model', () => {
    const file = parseFile('changelog/x-2026-01-01.md', entry('title: Bell\u0007'));
    expect(file.kind === 'changelog' && file.data).toBeUndefined();
  });
});
