import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { countSteps, countStepsFast, countStepsOnBlocks, countStepsOnTree, type StretchCounter } from './steps.js';
import { seededRandom } from '../../test/helpers/seeded-random.js';

/** The CommonMark 0.31.2 spec's examples (the package has no type declarations). */
const require = createRequire(import.meta.url);
const specExamples = (require('commonmark-spec') as { tests: { markdown: string; number: number }[] }).tests;

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

describe('countSteps', () => {
  for (const [name, markdown, expected] of cases) {
    it(`${name}: ${expected}`, () => {
      expect(countStepsOnTree(markdown)).toBe(expected);
      expect(countSteps(markdown)).toBe(expected);
      expect(countStepsOnBlocks(markdown)).toBe(expected);
      const fast = countStepsFast(markdown);
      if (fast !== undefined) expect(fast).toBe(expected);
    });
  }

  it('answers a typical lesson on the fast path', () => {
    const lesson = [
      'Intro with `code`, [a link](https://example.com) and *emphasis*.',
      '',
      '## Step one',
      '',
      '- a list item',
      '- another with **bold**',
      '1. ordered',
      '',
      '```python',
      '## a comment, not a step',
      'print(1)',
      '```',
      '',
      '## Step two',
      '',
      '"Quoted" (parenthesised) text.',
    ].join('\n');
    expect(countStepsFast(lesson)).toBe(2);
    expect(countStepsOnTree(lesson)).toBe(2);
  });

  it('answers a changelog whose versions are setext headings on the fast path', () => {
    const changelog = '1.0.1 / 2015-02-20\n------------------\n\n  * Fix a bug\n\n1.0.0 / 2015-02-19\n------------------\n\n  * First release\n';
    expect(countStepsFast(changelog)).toBe(2);
    expect(countStepsOnTree(changelog)).toBe(2);
  });

  it('answers a block quote with empty lines on the fast path, and leaves an empty list item to the parser', () => {
    const quote = '> **Note**\n>\n> Read this first.\n> >\n\n## Step one\n';
    expect(countStepsFast(quote)).toBe(1);
    expect(countStepsOnTree(quote)).toBe(1);
    // `> Foo` then `> - `: a setext underline inside the quote, which the scanner does not follow.
    expect(countStepsFast('> Foo\n> - \n')).toBeUndefined();
    expect(countStepsOnTree('> Foo\n> - \n')).toBe(1);
  });

  /** A stretch counter that records what reaches the parser. */
  const spy = (): { slices: string[]; countStretch: StretchCounter } => {
    const slices: string[] = [];
    return { slices, countStretch: (markdown) => (slices.push(markdown), countStepsOnBlocks(markdown, true)) };
  };

  /** Checks that `markdown` stops the line scanner yet is answered, as remark counts it, with no stretch parsed. */
  const expectAnsweredWithoutParser = (markdown: string, steps: number): void => {
    expect(countStepsFast(markdown)).toBeUndefined();
    const { slices, countStretch } = spy();
    expect(countSteps(markdown, countStretch)).toBe(steps);
    expect(countStepsOnTree(markdown)).toBe(steps);
    expect(slices).toEqual([]);
  };

  // As in type-fest's readme: HTML and fences inside list items stop the scanner, but no line could be a heading.
  const listWithDetails = [
    '# Types',
    '',
    '- `Foo`: does foo.',
    '\t<details>',
    '\t<summary>Example</summary>',
    '\t### A level-3 heading is no step',
    '',
    '\t```ts',
    "\timport type {Foo} from 'type-fest';",
    '\t```',
    '\t</details>',
    '',
    '## Step one',
    '',
    'text',
  ];

  // The same with its fences indented by three spaces: low enough to open a top-level fence.
  const withLowFences = listWithDetails.map((line) => line.replace(/^\t```/, '   ```'));

  it('answers a stretch that no line of could make a step without the parser', () => {
    expectAnsweredWithoutParser(listWithDetails.join('\n'), 1);
    // Up to the end of the document, a block left open does not matter either.
    const { slices, countStretch } = spy();
    const toTheEnd = '- item\n  <div>\n\n```\ncode\n';
    expect(countSteps(toTheEnd, countStretch)).toBe(0);
    expect(slices).toEqual([]);
  });

  it('takes a stretch to the parser when one of its lines could be a step, or could open a top-level block', () => {
    const heading = [...listWithDetails.slice(0, 5), '\t## Inside the HTML block', ...listWithDetails.slice(5)].join('\n');
    const withHeading = spy();
    expect(countSteps(heading, withHeading.countStretch)).toBe(countStepsOnTree(heading));
    expect(withHeading.slices).toHaveLength(1);
    // Three spaces of indentation: a top-level fence or the list item's. With no blank line after the HTML start, it
    // may be the HTML block's content instead, and then the closing fence would open one; only the parser can tell.
    const inHtml = withLowFences.filter((_, i) => i !== 6).join('\n');
    const withFence = spy();
    expect(countSteps(inHtml, withFence.countStretch)).toBe(countStepsOnTree(inHtml));
    expect(withFence.slices).toHaveLength(1);
  });

  it('answers fences after an HTML block that a blank line ended without the parser', () => {
    expectAnsweredWithoutParser(withLowFences.join('\n'), 1);
  });

  // As in a lesson's numbered instructions: a fence indented by three spaces is the list item's or a top-level one;
  // either way the next fence line, as far indented, closes it.
  const numberedSteps = [
    'Intro.',
    '',
    '1. Install:',
    '',
    '   ```bash',
    '   npm i foo',
    '',
    '   ```',
    '',
    '2. Import:',
    '',
    '   ```js',
    "   import foo from 'foo';",
    '   ```',
    '',
    '## Step one',
    '',
  ];

  it('answers fences in list items, closed at the same indentation, without the parser', () => {
    expectAnsweredWithoutParser(numberedSteps.join('\n'), 1);
    // HTML inside a pair of fences is their content, whatever HTML block it would start elsewhere.
    expectAnsweredWithoutParser(numberedSteps.map((l, i) => (i === 5 ? '   <!-- a comment' : l)).join('\n'), 1);
  });

  it('takes fences to the parser when the list item may end before the closing fence', () => {
    const variants = {
      'closing fence at column 0 (it ends the list item, then opens a fence)': numberedSteps.map((l, i) => (i === 7 ? '```' : l)),
      'closing fence less indented': numberedSteps.map((l, i) => (i === 7 ? '  ```' : l)),
      'a line between less indented': numberedSteps.map((l, i) => (i === 5 ? 'npm i foo' : l)),
      'a fence line indented by four spaces between': numberedSteps.map((l, i) => (i === 5 ? '    ```' : l)),
      'an HTML line right before the fence (it may hold it)': numberedSteps.map((l, i) => (i === 3 ? '   <div>' : l)),
      'an HTML line in the list item before the fence': numberedSteps.map((l, i) => (i === 3 ? '   <b>Install</b>:' : l)),
      'an HTML comment before the fence (it runs past blank lines)': numberedSteps.map((l, i) => (i === 2 ? '1. <!-- Install:' : l)),
      'a closing fence shorter than the opening one': numberedSteps.map((l, i) => (i === 4 ? '   ````bash' : l)),
      'a backtick in the info string (no fence)': numberedSteps.map((l, i) => (i === 4 ? '   ```b`ash' : l)),
    };
    for (const [name, lines] of Object.entries(variants)) {
      const markdown = lines.join('\n');
      const { slices, countStretch } = spy();
      expect({ name, count: countSteps(markdown, countStretch) }).toEqual({ name, count: countStepsOnTree(markdown) });
      expect({ name, parsed: slices.length > 0 }).toEqual({ name, parsed: true });
    }
  });

  // As in a readme's notes and quoted licences: a block quote with headings, each line marked, then a blank line.
  const quotedNote = [
    'Intro.',
    '',
    '> ## Note',
    '>',
    '> Security releases:',
    '> ```',
    '> ## in a fence',
    '> ```',
    '>',
    '> > Title',
    '> > -----',
    '',
    '## Step one',
  ];

  it('counts a block quote with headings as a document of its own, without the parser', () => {
    expectAnsweredWithoutParser(quotedNote.join('\n'), 3);
    expectAnsweredWithoutParser(quotedNote.join('\r\n'), 3);
    // A fence or an ATX heading at column 0 ends the quote with no blank line before it; the scanner goes on there.
    const fenceAfter = ['> ## Note', '> Shown as:', '```js', '## a comment', '```', '## Step one'];
    expectAnsweredWithoutParser(fenceAfter.join('\n'), 2);
    expectAnsweredWithoutParser(['> ## Note', '> text', '# Title', '## Step one'].join('\n'), 2);
  });

  it('takes a block quote to the parser when a line is not marked, or a tab follows a marker', () => {
    const variants = {
      'a lazy continuation line': quotedNote.map((l, i) => (i === 4 ? 'Security releases:' : l)),
      'a fence with a backtick in its info string after it (paragraph text)': [...quotedNote.slice(0, 4), '``` a`b', ...quotedNote.slice(-2)],
      'a tab after the marker (its width depends on the column)': quotedNote.map((l, i) => (i === 2 ? '> \t## Note' : l)),
      'a marked line after a blank line that the stretch kept': [...quotedNote.slice(0, 4), '', '    code', '> ## more', ...quotedNote.slice(-2)],
    };
    for (const [name, lines] of Object.entries(variants)) {
      const markdown = lines.join('\n');
      const { slices, countStretch } = spy();
      expect({ name, count: countSteps(markdown, countStretch) }).toEqual({ name, count: countStepsOnTree(markdown) });
      expect({ name, parsed: slices.some((slice) => slice.startsWith(lines[2]!)) }).toEqual({ name, parsed: true });
    }
  });

  it('grows a stretch while a block is open at its end, without parsing the rest of the document', () => {
    // `<div>` in a list item stops the scanner; the fence at column 0 ends the item and stays open past the blank line.
    const tail = Array.from({ length: 60 }, (_, i) => (i === 30 ? '## Step two' : `Paragraph ${i}.\n`));
    const markdown = ['- item', '  <div>', '```js', 'a', '', '## not a step', '```', '', '## Step one', '', ...tail].join('\n');
    const { slices, countStretch } = spy();
    expect(countSteps(markdown, countStretch)).toBe(2);
    expect(countStepsOnTree(markdown)).toBe(2);
    expect(slices.length).toBeGreaterThan(1); // the first stretch ended inside the fence
    expect(Math.max(...slices.map((slice) => slice.length))).toBeLessThan(markdown.length / 4);
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
    ];
    const { random } = seededRandom(7);
    let answered = 0;
    let stuckWithoutParser = 0;
    for (let n = 0; n < 5000; n++) {
      const lines = Array.from({ length: 1 + Math.floor(random() * 12) }, () => pool[Math.floor(random() * pool.length)]!);
      const markdown = lines.join(random() < 0.1 ? '\r\n' : random() < 0.05 ? '\r' : '\n');
      const reference = countStepsOnTree(markdown);
      expect({ markdown, count: countStepsOnBlocks(markdown) }).toEqual({ markdown, count: reference });
      const { slices, countStretch } = spy();
      expect({ markdown, count: countSteps(markdown, countStretch) }).toEqual({ markdown, count: reference });
      const fast = countStepsFast(markdown);
      if (fast === undefined && slices.length === 0) stuckWithoutParser++;
      if (fast === undefined) continue;
      answered++;
      expect({ markdown, count: fast }).toEqual({ markdown, count: reference });
    }
    // The comparison must actually exercise the fast path, and stretches answered without the parser.
    expect(answered).toBeGreaterThan(300);
    expect(stuckWithoutParser).toBeGreaterThan(100);
  });

  it('agrees with remark on random block quotes, counted as documents of their own', () => {
    const quoted = ['', 'text', '## Heading', '##', '# One', '```', '~~~', '   ```', '    ```', '-', '- ', '- item', '1. item', '- ## In list'];
    quoted.push('> ## Q', '>', '---', '===', '--', 'Title', '  ## Indented', '    ## Code', '<div>', '<!--', '-->', '  - nested');
    quoted.push('[a]: /u', '1.0.2 / 2020', '12345678901. x', '***', '\uFEFF## bom', '\t## tab', '## x ##');
    const markers = ['> ', '>', '>  ', '>    ', '> > ', ' > ', '>\t'];
    const between = ['', '', 'text', '## H', '---', '- item', '```', '``` a`b', '~~~', '# T', '    code'];
    const { random, pick } = seededRandom(11);
    let quotesAnswered = 0;
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
      const markdown = lines.join(random() < 0.1 ? '\r\n' : '\n');
      const { slices, countStretch } = spy();
      expect({ markdown, count: countSteps(markdown, countStretch) }).toEqual({ markdown, count: countStepsOnTree(markdown) });
      if (countStepsFast(markdown) === undefined && !slices.some((slice) => slice.startsWith('>'))) quotesAnswered++;
    }
    // Block quotes must actually be answered through their content, not all handed to the parser.
    expect(quotesAnswered).toBeGreaterThan(500);
  });

  // The reference is remark; the scanner must agree with it on every input it answers for, not on most.
  it('agrees with remark on every example of the CommonMark spec', () => {
    for (const { markdown, number: example } of specExamples) {
      const reference = countStepsOnTree(markdown);
      expect({ example, markdown, count: countStepsOnBlocks(markdown) }).toEqual({ example, markdown, count: reference });
      expect({ example, markdown, count: countSteps(markdown) }).toEqual({ example, markdown, count: reference });
      const fast = countStepsFast(markdown);
      if (fast !== undefined) expect({ example, markdown, count: fast }).toEqual({ example, markdown, count: reference });
    }
  });

  it('agrees with remark on every distinct Markdown document in node_modules', { timeout: 180_000 }, async () => {
    const documents = await nodeModulesDocuments();
    for (const { path, markdown } of documents) {
      const reference = countStepsOnTree(markdown);
      expect({ path, count: countStepsOnBlocks(markdown) }).toEqual({ path, count: reference });
      expect({ path, count: countSteps(markdown) }).toEqual({ path, count: reference });
      const fast = countStepsFast(markdown);
      if (fast !== undefined) expect({ path, count: fast }).toEqual({ path, count: reference });
    }
    expect(documents.length).toBeGreaterThan(100);
  });

  // Real constructs in new neighbourhoods: where one stretch of a document ends and the next begins is what the
  // stretch rule relies on, so pieces of different documents are joined at arbitrary lines.
  it('agrees with remark on documents spliced from pieces of the node_modules documents', { timeout: 180_000 }, async () => {
    const lines = (await nodeModulesDocuments()).map(({ markdown }) => markdown.split('\n'));
    const { random } = seededRandom(3);
    for (let n = 0; n < 1500; n++) {
      const pieces = Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
        const document = lines[Math.floor(random() * lines.length)]!;
        const from = Math.floor(random() * document.length);
        return document.slice(from, from + 1 + Math.floor(random() * 40)).join('\n');
      });
      const markdown = pieces.join('\n');
      expect({ markdown, count: countSteps(markdown) }).toEqual({ markdown, count: countStepsOnTree(markdown) });
    }
  });
});

let documentsRead: Promise<{ path: string; markdown: string }[]> | undefined;

/** Every distinct UTF-8 `*.md` file in `node_modules`, read once for the tests that need them. */
function nodeModulesDocuments(): Promise<{ path: string; markdown: string }[]> {
  documentsRead ??= (async () => {
    const root = join(import.meta.dirname, '../../node_modules');
    const seen = new Set<string>();
    const utf8 = new TextDecoder('utf-8', { fatal: true });
    const documents: { path: string; markdown: string }[] = [];
    for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
      const path = join(entry.parentPath, entry.name);
      const bytes = await readFile(path);
      const digest = createHash('sha256').update(bytes).digest('hex');
      if (seen.has(digest)) continue;
      seen.add(digest);
      try {
        documents.push({ path, markdown: utf8.decode(bytes) });
      } catch {
        // not UTF-8: not a lesson
      }
    }
    return documents.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  })();
  return documentsRead;
}
