import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { countSteps, countStepsFast, countStepsOnTree, scanSteps } from './steps.js';
import { firstOpenFence, unclosedFence } from './fences.js';
import { parseMarkdown } from './markdown.js';
import { seededRandom } from '../../test/helpers/seeded-random.js';

/** The CommonMark 0.31.2 spec's examples (the package has no type declarations). */
const require = createRequire(import.meta.url);
const specExamples = (require('commonmark-spec') as { tests: { markdown: string; number: number }[] }).tests;

/** The shared lesson corpus beside the checkout (real lessons, see its README); CI has it, a bare clone may not. */
const CORPUS = join(import.meta.dirname, '../../../shared/corpus');

const cases: [string, string, number][] = [
  ['atx headings', '## One\n\ntext\n\n## Two\n', 2],
  ['## in a fenced code block', '## One\n\n```bash\n## comment\n```\n', 1],
  ['## in a tilde fence with a longer closer', '~~~\n## x\n~~~~\n## Two\n', 1],
  ['unclosed fence runs to the end', '## One\n```\n## x\n', 1],
  ['fence closed by a longer run only', '````\n```\n## x\n````\n## y\n', 1],
  ['backtick in info string: not a fence', '``` a`b\n## x\n', 1],
  ['fence markers within a line, indented four spaces or before text close nothing', '```\ncode ```\n    ```\n``` x\n## x\n```\n## y\n', 1],
  ['a closing fence with spaces around, on the last line', '## a\n   ~~~~ js\n## x\n  ~~~~~  ', 1],
  ['a fence closed on a CRLF line', '```\r\n## x\r\n```\r\n## y\r\n', 1],
  ['setext level 2', 'Title\n-----\n\ntext', 1],
  ['setext level 1 is not a step', 'Title\n=====\n', 0],
  ['thematic break after a blank line', 'text\n\n---\n', 0],
  ['level 3 and hashtag', '### Three\n#tag\n##nospace\n', 0],
  ['empty level-2 heading', '##\n', 1],
  ['heading in a list item', '- ## In a list\n- item\n', 1],
  ['heading in a block quote', '> ## Quoted\n', 1],
  ['indented heading', '   ## Indented\n', 1],
  ['indented code is not a heading', '    ## code\n', 0],
  ['html block hides a heading', '<div>\n## not a heading\n</div>\n', 0],
  ['CRLF line endings', '## One\r\n\r\n## Two\r\n', 2],
  ['lone CR line endings', 'text\r## Two\r', 1],
  ['heading interrupts a paragraph', 'text\n## Two\n', 1],
  ['list item setext', '- foo\n  ---\n', 1],
  ['empty list item after paragraph is a setext underline', 'Foo\n- \n', 1],
  ['fenced code in a list item', '- item\n\n  ```\n  ## x\n  ```\n## y\n', 1],
  ['tab after ##', '##\tTab\n', 1],
  ['no steps', 'Just a paragraph.\n', 0],
  ['comment block hides a heading until -->', '<!--\n## x\n-->\n## y\n', 1],
  ['comment closed on its own line', '<!-- c -->\n## y\n', 1],
  ['pre block ends at its closing tag', '<pre>\n## x\n\n## x\n</pre>\n## y\n', 1],
  ['block tag ends at a blank line', '<p align="center">\n## x\n\n## y\n', 1],
  ['type 7 tag starts a block', '<img src="x">\n## x\n', 0],
  ['type 7 tag cannot interrupt a paragraph', 'text\n<img src="x">\n## y\n', 1],
  ['inline HTML starts a paragraph', '<span>a</span> text\n---\n', 1],
  ['setext level 2 under a top-level paragraph', 'Title\n---\n', 1],
  ['one dash is an underline too', 'Title\n-\n', 1],
  ['thematic break with no paragraph', '## a\n---\n', 1],
  ['=== then --- is a level-2 heading', '===\n---\n', 1],
  ['definition only: thematic break', '[a]: /u\n---\n', 0],
  ['definition then text: heading', '[a]: /u\nb\n---\n', 1],
  ['lazy line in a list: thematic break', '- a\nb\n---\n', 0],
  ['a closing sequence is not the level', '# One ##\n## Two #\n', 1],
  ['a byte-order mark before the first heading', '\uFEFF## One\n\nText 😀\n---\n', 2],
  ['astral characters before a setext underline', '😀😀 title\n--\n', 1],
  ['a fence at column 0 ends a list item and hides what follows', '1. x\n\n   ```\n   a\n```\n\n## hidden\n', 0],
  ['a version number over a setext underline', '1.0.10 / 2018-02-15\n-------------------\n', 1],
  ['ten digits and a dot: no list item', '1234567890. x\n---\n', 1],
  ['an ordered list item, then a thematic break', '1) item\n---\n', 0],
  ['a tab after a block quote marker reaches column 4', '> \t## x\n', 1],
  ['a byte-order mark in a block quote is text', '> \uFEFF## x\n> ## y\n', 1],
  ['an HTML block holds a fence line, and the next one stays open', '- a\n  <b>x</b>\n<div>\n  ```\n  z\n\n  ```\n\n## hidden\n', 0],
  ['a lazy line continues a quoted paragraph', '> ## x\n> Foo\nbar\n---\n', 1],
  ['a code span line after a quote is a lazy line', '> ## x\n> Foo\n``` a`b\n---\n', 1],
  ['an HTML comment runs past the stretch', '- a\n  <b>x</b>\n<!--\n\n## hidden\n-->\n', 0],
  ['an HTML comment after fences holds more', '- a\n  ~~~\n  ~~~\n<!--\n  ```\n  z\n\n  ```\n\n## hidden\n-->\n', 0],
  ['inline constructs that look like blocks', '`## code span`\n\n*text*\n---\n\n[a](</u>)\n', 1],
];

/**
 * Checks both counts against remark's on `markdown`, and the unclosed fence found from the scan that counted them
 * against the one found on remark's tree; whether the scanner answered.
 */
function expectAsRemark(markdown: string, label: Record<string, unknown> = { markdown }): boolean {
  const reference = countStepsOnTree(markdown);
  expect({ ...label, count: countSteps(markdown) }).toEqual({ ...label, count: reference });
  const fast = countStepsFast(markdown);
  if (fast !== undefined) expect({ ...label, count: fast }).toEqual({ ...label, count: reference });
  const scan = scanSteps(markdown);
  expect({ ...label, steps: scan.steps, fence: unclosedFence(markdown, scan) }).toEqual({
    ...label,
    steps: reference,
    fence: firstOpenFence(parseMarkdown(markdown), markdown),
  });
  return fast !== undefined;
}

describe('countSteps', () => {
  for (const [name, markdown, expected] of cases) {
    it(`${name}: ${expected}`, () => {
      expect(countStepsOnTree(markdown)).toBe(expected);
      expect(countSteps(markdown)).toBe(expected);
      const fast = countStepsFast(markdown);
      if (fast !== undefined) expect(fast).toBe(expected);
    });
  }

  it('answers a typical lesson with the line scanner', () => {
    const lesson = [
      'Intro with `code`, [a link](https://example.com) and *emphasis*.',
      '',
      '## Step one',
      '',
      '- a list item',
      '- another with **bold**',
      '1. ordered',
      '> **Note**',
      '>',
      '> Read this first.',
      '',
      '```python',
      '## a comment, not a step',
      'print(1)',
      '```',
      '',
      '## Step two',
      '',
      '"Quoted" (parenthesised) text.',
      'Title',
      '=====',
    ].join('\n');
    expect(countStepsFast(lesson)).toBe(2);
    expect(countStepsOnTree(lesson)).toBe(2);
  });

  it('answers fences in list items and HTML blocks at column 0 with the line scanner', () => {
    const lesson = [
      '## Step one',
      '',
      '1. Install it:',
      '',
      '   ```bash',
      '   ## a comment',
      '   ```',
      '',
      '<!-- a note',
      '## hidden',
      '-->',
      '<details>',
      '## hidden',
      '',
      '---',
      '',
      '## Step two',
    ].join('\n');
    expect(countStepsFast(lesson)).toBe(2);
    expect(countStepsOnTree(lesson)).toBe(2);
  });

  it('leaves to remark each line whose effect depends on the containers or paragraphs open', () => {
    const uncertain = ['> Foo\n> - \n', '- ```\n  ## x\n  ```\n', '- a\n  ```\n## x\n', 'Title\n---\n', '  ## x\n', '   <div>\n', '<img>\n- ## x\n'];
    for (const markdown of uncertain) {
      expect(countStepsFast(markdown), markdown).toBeUndefined();
      expect(countSteps(markdown), markdown).toBe(countStepsOnTree(markdown));
    }
  });

  it('agrees with remark on random lists holding fences and HTML', () => {
    const pool = ['', '', '- item', '1. item', '  ```', '   ```', '  ```js', '    ```', '  ~~~', '  code', '    code', '## H', '  ## H'];
    pool.push('text', '<div>', '<!--', '-->', '<img src="x">', '---', '- ', '```', '> quote', '>', '   - nested', '     ```', '  ``` a`b');
    const { random, pick } = seededRandom(5);
    let answered = 0;
    for (let n = 0; n < 3000; n++) {
      if (expectAsRemark(Array.from({ length: 1 + Math.floor(random() * 10) }, () => pick(pool)).join('\n'))) answered++;
    }
    expect(answered).toBeGreaterThan(300);
  });

  it('agrees with remark on thousands of random documents built from tricky lines', () => {
    const pool = [
      '',
      '',
      'text',
      'More *text* with `code`.',
      '## Heading',
      '##',
      '##x',
      '### Three',
      '# One',
      '#tag',
      '```',
      '```js',
      '````',
      '~~~',
      '~~~ info',
      '``` a`b',
      '  ```',
      '   ```',
      '    ```',
      '-',
      '- ',
      '- item',
      '* item',
      '+ item',
      '1. item',
      '2) item',
      '- ## In list',
      '> quote',
      '> ## Quoted',
      '>## Tight',
      '---',
      '- - -',
      '***',
      '===',
      'Title',
      '  ## Indented',
      '    ## Code',
      '\t## Tab',
      '<div>',
      '</div>',
      '<!-- c -->',
      '  - nested',
      '   ---',
      '  text',
      '[ref]: /url',
      '## Closed ##',
      '\\## Escaped',
      '  > ## deep',
      '1. ## num',
      '-\t## tab list',
      '--',
      '=',
      '---  ',
      '<pre>',
      '</pre>',
      '<script src="x">',
      '<!--',
      '-->',
      '<?php',
      '?>',
      '<!DOCTYPE html>',
      '<![CDATA[',
      ']]>',
      '<a href="x">',
      '</a>',
      '<p align="center">',
      '<img src="x" />',
      '<span>text</span>',
      '<br/>',
      '[![b](i)](l)',
      '[a]: /u',
      '| a | b |',
      '  - ## nested h',
      '   1. x',
      '      ```',
      '    - y',
      '>',
      '> - q',
      '>     code',
      ' > - ## z',
      '\t- t',
      '  \t## x',
      '_ _ _',
      '  ===',
      '> ---',
      '- ---',
      '1.',
      '10) a',
      '-     ## five',
      '> > ## deep q',
      '> [a]: /u',
      '[a]:',
      '/url',
      '"title"',
      '`code ## x`',
      '<http://a.b>',
      '&#35;# x',
      '\uFEFF## bom',
      '\t<details>',
      '\t```ts',
      '\t</details>',
      '   ```bash',
      '   code',
      '  ```js',
      '  ```',
      '  ~~~',
      '      ```',
      '  code',
      '     more',
      '<!-->',
      '<!--->',
      '<!-- open',
      '-->',
      '<?>',
      '<?php',
      '?>',
      '<![CDATA[',
      ']]>',
      '<!DOCTYPE html>',
      '<!x',
      '<script>',
      '</script>',
      '<STYLE type="x">',
      '<textarea',
      '</textarea>',
      '<details>',
      '  <summary>Hint</summary>',
      '</details>',
      '<img src="x">',
      '<img src="x"> text',
      '<span>',
      '<3 love',
      '<http://a.b>',
      '</pre>',
      '<div/>',
      '<custom-element>',
    ];
    const { random } = seededRandom(7);
    let answered = 0;
    for (let n = 0; n < 5000; n++) {
      const lines = Array.from({ length: 1 + Math.floor(random() * 12) }, () => pool[Math.floor(random() * pool.length)]!);
      if (expectAsRemark(lines.join(random() < 0.1 ? '\r\n' : random() < 0.05 ? '\r' : '\n'))) answered++;
    }
    // The comparison must actually exercise the line scanner.
    expect(answered).toBeGreaterThan(300);
  });

  it('agrees with remark on random block quotes', () => {
    const quoted = ['', 'text', '## Heading', '##', '# One', '```', '~~~', '   ```', '    ```', '-', '- ', '- item', '1. item', '- ## In list'];
    quoted.push('> ## Q', '>', '---', '===', '--', 'Title', '  ## Indented', '    ## Code', '<div>', '<!--', '-->', '  - nested');
    quoted.push('[a]: /u', '1.0.2 / 2020', '12345678901. x', '***', '\uFEFF## bom', '\t## tab', '## x ##');
    const markers = ['> ', '>', '>  ', '>    ', '> > ', ' > ', '>\t'];
    const between = ['', '', 'text', '## H', '---', '- item', '```', '``` a`b', '~~~', '# T', '    code'];
    const { random, pick } = seededRandom(11);
    let answered = 0;
    for (let n = 0; n < 2000; n++) {
      const lines: string[] = [];
      for (let block = 1 + Math.floor(random() * 4); block > 0; block--) {
        if (random() < 0.3) {
          for (let k = 1 + Math.floor(random() * 3); k > 0; k--) lines.push(pick(between));
          continue;
        }
        const marker = random() < 0.9 ? pick(markers.slice(0, 2)) : undefined; // mostly one marker throughout
        for (let k = 1 + Math.floor(random() * 8); k > 0; k--)
          lines.push((random() < 0.9 ? (marker ?? pick(markers)) : pick(markers)) + pick(quoted));
        for (let k = Math.floor(random() * 3); k > 0; k--) lines.push(random() < 0.8 ? '' : pick(between));
      }
      if (expectAsRemark(lines.join(random() < 0.1 ? '\r\n' : '\n'))) answered++;
    }
    expect(answered).toBeGreaterThan(100);
  });

  // The reference is remark; the scanner must agree with it on every input it answers for, not on most.
  it('agrees with remark on every example of the CommonMark spec', () => {
    for (const { markdown, number: example } of specExamples) expectAsRemark(markdown, { example, markdown });
  });

  it.skipIf(!existsSync(CORPUS))('agrees with remark on every lesson of the shared corpus, and answers most with the scanner', async () => {
    const lessons = await corpusLessons();
    let answered = 0;
    for (const { path, markdown } of lessons) if (expectAsRemark(markdown, { path })) answered++;
    expect(lessons.length).toBeGreaterThan(1000);
    // The scanner is there for lessons: if it stopped answering them, a cold start would be remark's again.
    expect(answered / lessons.length).toBeGreaterThan(0.9);
  });

  // Real constructs in new neighbourhoods: pieces of different lessons joined at arbitrary lines.
  it.skipIf(!existsSync(CORPUS))('agrees with remark on documents spliced from pieces of the corpus lessons', async () => {
    const lines = (await corpusLessons()).map(({ markdown }) => markdown.split('\n'));
    const { random } = seededRandom(3);
    for (let n = 0; n < 3000; n++) {
      const pieces = Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
        const document = lines[Math.floor(random() * lines.length)]!;
        const from = Math.floor(random() * document.length);
        return document.slice(from, from + 1 + Math.floor(random() * 40)).join('\n');
      });
      expectAsRemark(pieces.join('\n'));
    }
  });
});

let lessonsRead: Promise<{ path: string; markdown: string }[]> | undefined;

/** Every `*.md` file of the shared corpus, read once for the tests that need them. */
function corpusLessons(): Promise<{ path: string; markdown: string }[]> {
  lessonsRead ??= (async () => {
    const lessons: { path: string; markdown: string }[] = [];
    for (const entry of await readdir(CORPUS, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
      const path = join(entry.parentPath, entry.name);
      lessons.push({ path, markdown: await readFile(path, 'utf8') });
    }
    return lessons.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  })();
  return lessonsRead;
}
