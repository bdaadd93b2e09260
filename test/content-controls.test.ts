/**
 * Control characters and non-characters in content text (issue: a BEL in a changelog title made the Atom feed
 * ill-formed XML): each is a problem at its `path:line:column` (a frontmatter value at its key, like every
 * frontmatter problem; a body character at its own line and column), in any value and in the body; the
 * `syllabus-content validate` output names it; the feed built from the most awkward valid text parses as XML.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentLoader } from '../src/content/loader.js';
import { parseFile } from '../src/content/parse-file.js';
import { renderPages } from '../src/pages/index.js';
import { nodeCodec } from '../src/server/node-codec.js';
import { removeTree, writeContentFixture } from './helpers/content-fixture.js';

const ROOT = join(import.meta.dirname, '..');
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const ENTRY = 'changelog/catalog-api-2026-08-20.md';
const LESSON = 'courses/python-basics/first-steps/hello-world.md';

const entry = (title: string, body = 'Now available.\n') => `---\nkind: feature\ntitle: ${title}\nblurb: Short.\n---\n${body}`;
const problemsOf = (rel: string, text: string) => parseFile(rel, text).problems.map((p) => `${p.line}:${p.column}: ${p.message}`);

describe('a forbidden character is a problem at its position', () => {
  it.each([
    ['a raw BEL in a title', entry('Catalog \u0007API'), '3:1: "title" contains the control character U+0007'],
    ['a BEL written as a YAML escape', entry('"Catalog \\u0007API"'), '3:1: "title" contains the control character U+0007'],
    ['a C1 control (NEL)', entry('"Catalog \\x85API"'), '3:1: "title" contains the control character U+0085'],
    [
      'a non-character in a blurb',
      '---\nkind: feature\ntitle: T\nblurb: "Short \\uFFFE"\n---\nBody.\n',
      '4:1: "blurb" contains the non-character U+FFFE',
    ],
    ['a NUL in the body, at its column', entry('T', 'First line.\nSecond \u0000 line.\n'), '7:8: the body contains the control character U+0000'],
    ['a lone carriage return in the body', entry('T', 'One\rTwo\n'), '6:4: the body contains the control character U+000D'],
  ])('%s', (_what, text, expected) => {
    const problems = problemsOf(ENTRY, text);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(expected);
    expect(problems[0]).toContain('text may hold no control characters but tab and line breaks, and no Unicode non-characters');
  });

  it('a nested value is located by its path', () => {
    const lesson = `---\ntitle: Hello\nlang: python\n---\n\n## One\n`;
    expect(problemsOf(LESSON, lesson)).toEqual([]);
    const course = '---\ntitle: Python\ncolor: "#3572a5"\nstatus: live\nclasses: [first-steps, "bad\\u0001"]\n---\n';
    const problems = problemsOf('courses/python-basics/index.md', course);
    expect(problems.some((p) => p.includes('"classes.1" contains the control character U+0001'))).toBe(true);
  });

  it('allows tab and line breaks, emoji, right-to-left text and line separators', () => {
    const text = entry('"Catalog\\tAPI 🎉 שלום \\u2028 & <b>"', 'A body\twith a tab,\r\nCRLF line endings and émoji 🎉.\r\n');
    expect(problemsOf(ENTRY, text)).toEqual([]);
  });
});

describe('over a whole tree', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await writeContentFixture();
  });
  afterAll(async () => {
    await removeTree(dir);
  });

  it('the bundled content has none', async () => {
    const result = await new ContentLoader(join(ROOT, 'content')).load();
    expect(result.ok).toBe(true);
  });

  it('`syllabus-content validate` prints path:line:column and exits 1', async () => {
    const changelog = (await import('node:fs/promises')).readdir(join(dir, 'changelog'));
    const name = (await changelog)[0]!;
    await writeFile(join(dir, 'changelog', name), entry('Bell \u0007 here'));
    const { code, stderr, stdout } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ['--import', TSX, join(ROOT, 'src/content/cli.ts'), 'validate', dir],
        { env: { ...process.env, GITHUB_ACTIONS: '' } },
        (err, out, errOut) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout: out, stderr: errOut }),
      ),
    );
    expect(code).toBe(1);
    expect(stdout + stderr).toContain(`changelog/${name}:3:1: "title" contains the control character U+0007`);
  });
});

describe('the Atom feed', () => {
  it('is well-formed XML for the most awkward valid text', async () => {
    const dir = await writeContentFixture(undefined, (files) => {
      const [path] = Object.keys(files).filter((p) => p.startsWith('changelog/'));
      files[path!] = entry('"Tabs\\tand <tags> & ]]> \\"quotes\\" \'apostrophes\' שלום 🎉 \\u2028 end"', 'Body with <b>markup</b>, & ]]> and 🎉.\n');
    });
    try {
      const result = await new ContentLoader(dir).load();
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      const pages = new Map(renderPages(result.model, { publicBaseUrl: 'https://catalog.example', digest: nodeCodec.digest }));
      for (const path of ['/changelog.atom', '/sitemap.xml']) {
        const body = pages.get(path)!.body;
        const xml = typeof body === 'string' ? body : new TextDecoder().decode(body);
        expect(XMLValidator.validate(xml), path).toBe(true);
      }
      const feed = pages.get('/changelog.atom')!.body;
      expect(typeof feed === 'string' ? feed : new TextDecoder().decode(feed)).toContain('&lt;tags&gt;');
    } finally {
      await removeTree(dir);
    }
  });
});
