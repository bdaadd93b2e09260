/**
 * The Atom feed and the sitemap are well-formed XML, and no page holds a character XML or HTML forbids, for the
 * bundled catalog and for content full of awkward but valid text (issue 16, point 7: a BEL in a changelog title
 * made `/changelog.atom` ill-formed). Built as production builds its index (`indexBuilder`), checked strictly:
 * fast-xml-parser's XMLValidator (syntax) plus the XML 1.0 `Char` production, which that validator does not
 * check; and the characters that broke it cannot get in any more, because validation rejects them.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { ContentLoader } from '../src/content/loader.js';
import type { ContentModel } from '../src/content/model.js';
import { findForbiddenCharacter } from '../src/content/text-characters.js';
import { completeCompression } from '../src/index/build.js';
import { renderAtomFeed } from '../src/pages/feed.js';
import { indexBuilder } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { nodeCodec } from '../src/server/node-codec.js';
import { removeTree, writeContentFixture, type ContentFiles } from './helpers/content-fixture.js';
import { BUNDLED_CONTENT_DIR } from './helpers/pages-content.js';

const BASE = 'https://catalog.example';
const XML_PATHS = ['/changelog.atom', '/sitemap.xml'];

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeTree));
});

/** A character XML 1.0 does not allow (§2.2 `Char`), or one it discourages: C1 controls, DEL, non-characters. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const DISCOURAGED =
  /[\u007F-\u009F\uFDD0-\uFDEF\u{1FFFE}\u{1FFFF}\u{2FFFE}\u{2FFFF}\u{3FFFE}\u{3FFFF}\u{4FFFE}\u{4FFFF}\u{5FFFE}\u{5FFFF}\u{6FFFE}\u{6FFFF}\u{7FFFE}\u{7FFFF}\u{8FFFE}\u{8FFFF}\u{9FFFE}\u{9FFFF}\u{AFFFE}\u{AFFFF}\u{BFFFE}\u{BFFFF}\u{CFFFE}\u{CFFFF}\u{DFFFE}\u{DFFFF}\u{EFFFE}\u{EFFFF}\u{FFFFE}\u{FFFFF}\u{10FFFE}\u{10FFFF}]/u;
const isXmlChar = (cp: number) => !NOT_XML_CHAR.test(String.fromCodePoint(cp));

/** Why a text is not a document every XML parser accepts, or `[]`. */
function xmlProblems(xml: string): string[] {
  const out: string[] = [];
  const syntax = XMLValidator.validate(xml);
  if (syntax !== true) out.push(`${syntax.err.code} at ${syntax.err.line}:${syntax.err.col}: ${syntax.err.msg}`);
  out.push(...characterProblems(xml));
  // Character references must name characters too (`&#7;` is as ill-formed as a raw BEL).
  for (const m of xml.matchAll(/&#(x[0-9a-fA-F]+|[0-9]+);/g)) {
    const cp = m[1]!.startsWith('x') ? parseInt(m[1]!.slice(1), 16) : parseInt(m[1]!, 10);
    if (cp > 0x10ffff || !isXmlChar(cp)) out.push(`a reference to a character XML forbids: ${m[0]}`);
  }
  // `]]>` may only close a CDATA section (§2.4).
  const outsideCdata = xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
  if (outsideCdata.includes(']]>')) out.push('"]]>" outside a CDATA section');
  return out;
}

/** Characters no XML (nor HTML: "control-character-" and "noncharacter-in-input-stream") document should hold. */
function characterProblems(text: string): string[] {
  const bad = NOT_XML_CHAR.exec(text) ?? DISCOURAGED.exec(text);
  return bad ? [`the character U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} at offset ${bad.index}`] : [];
}

/** The index production builds for a content folder, with every compressed form. */
async function buildSite(dir: string): Promise<{ model: ContentModel; pages: Map<string, { type: string; text: string }> }> {
  const result = await new ContentLoader(dir).load();
  if (!result.ok) throw new Error(`content invalid:\n${result.problems.map((p) => `${p.path}:${p.line}:${p.column}: ${p.message}`).join('\n')}`);
  const index = await completeCompression(nodeCodec, await indexBuilder(loadConfig({ CONTENT_DIR: '.', PUBLIC_BASE_URL: BASE }))(result.model));
  const pages = new Map<string, { type: string; text: string }>();
  for (const [path, rep] of index.representations) {
    if (!/^text\/html|xml/.test(rep.contentType)) continue; // the pages, the feed and the sitemap
    const text = new TextDecoder('utf-8', { fatal: true }).decode(rep.body);
    if (rep.gzip) expect(new TextDecoder().decode(gunzipSync(rep.gzip)), path).toBe(text);
    pages.set(path, { type: rep.contentType, text });
  }
  return { model: result.model, pages };
}

function expectWellFormed(pages: Map<string, { type: string; text: string }>): void {
  for (const path of XML_PATHS) {
    expect(pages.has(path), path).toBe(true);
    expect(xmlProblems(pages.get(path)!.text), path).toEqual([]);
  }
  const html = [...pages].filter(([, p]) => p.type.startsWith('text/html'));
  expect(html.length).toBeGreaterThan(3);
  for (const [path, page] of html) expect(characterProblems(page.text), path).toEqual([]);
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  trimValues: false,
  isArray: (name) => name === 'entry' || name === 'link',
});
/** The text of an Atom `type="html"` element: its HTML escapes undone. */
const unescapeHtml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

// Awkward but valid text: markup characters, a CDATA end, quotes, emoji (a surrogate pair), right-to-left text
// with a direction mark, U+2028/U+2029, a no-break space, a BOM-like U+FEFF inside text, tabs and line breaks
// where allowed, CRLF endings, and a character reference to a control character (Markdown makes it U+FFFD).
const TRICKY_TITLE = 'Python & <basics> ]]> "quoted" \'single\' — שלום עולם\u200f 🎉 \u2028 \u2029 \u00a0\ufeff end';
const TRICKY_ENTRY = [
  '---',
  'kind: course',
  `title: "${TRICKY_TITLE.replace(/"/g, '\\"')}"`,
  'blurb: |',
  '  Two <lines> & a\ttab,',
  '  then ]]> and 🎉.',
  '---',
  '',
  'Body with <b>markup</b>, <script>x()</script>, & ]]> and 🎉, مرحبا, a\ttab, \u2028, a reference &#7; and &#xFFFE;,\r\nCRLF lines.\r\n',
].join('\n');

function tricky(files: ContentFiles): void {
  files['changelog/python-basics-2025-03-01.md'] = TRICKY_ENTRY;
  files['changelog/quotes-2025-07-01.md'] =
    "---\nkind: feature\ntitle: 'It''s \"here\" <now> & ]]>'\nblurb: >\n  Folded\n  over lines.\n---\nOne paragraph.\n";
  const course = files['courses/python-basics/index.md']!;
  files['courses/python-basics/index.md'] = course
    .replace('title: Python basics', 'title: "Python <basics> & ]]> \\"1\\" 🐍"')
    .replace('tagline: From zero to scripts', 'tagline: "עברית tagline\\u2028 ok"');
  const lesson = files['courses/python-basics/first-steps/hello-world.md']!;
  files['courses/python-basics/first-steps/hello-world.md'] = lesson.replace('title: Hello, world', 'title: "Hello, <world> & \'you\' ]]>"');
  const item = files['roadmap/sql-joins.md']!;
  files['roadmap/sql-joins.md'] = item.replace('title: SQL joins', 'title: "SQL <joins> & ]]>"');
}

describe('the Atom feed and the sitemap are well-formed XML', () => {
  it('for the bundled catalog', async () => {
    const { pages } = await buildSite(BUNDLED_CONTENT_DIR);
    expectWellFormed(pages);
  });

  it('for content full of awkward but valid characters, which the feed carries unchanged', async () => {
    const dir = await writeContentFixture(await mkdtemp(join(tmpdir(), 'syllabus-feed-')), tricky);
    dirs.push(dir);
    const { model, pages } = await buildSite(dir);
    expectWellFormed(pages);

    const feed = parser.parse(pages.get('/changelog.atom')!.text).feed;
    const entries = feed.entry as { id: string; title: { '#text': string }; summary: { '#text': string }; content: { '#text': string } }[];
    expect(entries).toHaveLength(model.changelog.entries.length);
    model.changelog.entries.forEach((e, i) => {
      expect(unescapeHtml(entries[i]!.title['#text'])).toBe(e.title);
      expect(unescapeHtml(entries[i]!.summary['#text'])).toBe(e.blurb);
    });
    const entry = model.changelog.entries.find((e) => e.id === 'python-basics-2025-03-01')!;
    expect(entry.title).toBe(TRICKY_TITLE);
    expect(entry.blurb).toBe('Two <lines> & a\ttab,\nthen ]]> and 🎉.\n');
    const content = entries.find((e) => e.id.endsWith(':changelog/python-basics-2025-03-01'))!.content['#text'];
    expect(content).toContain('Body with markup, x(), &#x26; ]]&gt; and 🎉, مرحبا'); // raw HTML in Markdown is dropped
    expect(content).not.toContain('<script');
    expect(content).toContain('\uFFFD'); // `&#7;` in Markdown is the replacement character, not a BEL
    expect(content).not.toMatch(/[\u0000-\u0008]/);
  });
});

describe('the characters that made the feed ill-formed cannot reach it', () => {
  // Each in a changelog title, one file per character: raw, or as a YAML escape where YAML needs one.
  const samples: [string, string][] = [
    ['BEL', '\u0007'],
    ['BEL as "\\a"', '\\a'],
    ['NUL as "\\0"', '\\0'],
    ['ESC', '\u001b'],
    ['VT', '\u000b'],
    ['FF', '\u000c'],
    ['a lone CR as "\\r"', '\\r'],
    ['NEL', '\u0085'],
    ['DEL', '\u007f'],
    ['U+FFFE', '\uFFFE'],
    ['U+FFFF as "\\uFFFF"', '\\uFFFF'],
    ['U+FDD0', '\uFDD0'],
    ['U+10FFFF', '\u{10FFFF}'],
    ['a lone surrogate as "\\uDC00"', '\\uDC00'],
  ];
  const nameOf = (i: number) => `changelog/bad-${i + 1}-2025-07-0${(i % 9) + 1}.md`;

  it('validation rejects each, one problem per file, so no model (and no feed) holds them', async () => {
    const dir = await writeContentFixture(await mkdtemp(join(tmpdir(), 'syllabus-feed-bad-')), (files) => {
      samples.forEach(([, c], i) => {
        files[nameOf(i)] = `---\nkind: feature\ntitle: "Bad ${c} title"\nblurb: Short.\n---\nBody.\n`;
      });
    });
    dirs.push(dir);
    const result = await new ContentLoader(dir, { displayRoot: '' }).load();
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    samples.forEach(([what], i) => {
      const mine = problems.filter((p) => p.path === nameOf(i));
      expect(
        mine.map((p) => `${p.line}:${p.column}`),
        what,
      ).toEqual(['3:13']);
      expect(mine[0]!.message, what).toMatch(/^"title": contains (the control character|the non-character|a lone surrogate) U\+/);
    });
    expect(problems).toHaveLength(samples.length);
  });

  it('and this check would have caught the bug: a BEL forced into a title makes the feed fail it', () => {
    const entry = {
      id: 'bell-2026-01-01',
      date: '2026-01-01',
      kind: 'feature' as const,
      title: 'Bell \u0007',
      blurb: 'B.',
      body: 'Body.',
      deprecates: [],
    };
    const xml = renderAtomFeed({ entries: [entry] }, BASE);
    expect(XMLValidator.validate(xml)).toBe(true); // the syntax check alone misses it
    expect(xmlProblems(xml)).toEqual([expect.stringMatching(/^the character U\+0007 at offset \d+$/)]);
  });

  it('nothing the rule allows, in any text, is a character XML forbids or discourages (every code point)', () => {
    const allowedButNotXml: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const c = cp >= 0xd800 && cp <= 0xdfff ? String.fromCharCode(cp) : String.fromCodePoint(cp);
      const allowedInLines = findForbiddenCharacter(c, 'multi-line') === undefined;
      const allowedInLine = findForbiddenCharacter(c, 'one-line') === undefined;
      if (allowedInLine && !allowedInLines) allowedButNotXml.push(`U+${cp.toString(16)} allowed in one line only`);
      if (allowedInLines && (NOT_XML_CHAR.test(c) || DISCOURAGED.test(c))) allowedButNotXml.push(`U+${cp.toString(16)}`);
      if (allowedInLine && cp < 0x20) allowedButNotXml.push(`U+${cp.toString(16)} in one-line text`);
    }
    expect(allowedButNotXml).toEqual([]);
    expect(findForbiddenCharacter('a\r\nb\tc\n', 'multi-line')).toBeUndefined(); // CRLF, tab, LF: line layout
    expect(findForbiddenCharacter('\uD83D\uDE00', 'one-line')).toBeUndefined(); // a surrogate pair is one character
  });
});
