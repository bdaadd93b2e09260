/**
 * Warms the step counter up before a full load: runs it over a few small documents that reach every branch
 * of its line scanner. V8 optimises the scanner after a few hundred lessons, with type feedback only for the
 * branches those lessons took; each branch first taken later (a setext underline, an HTML block, a digit at the
 * start of a line…) throws the optimised code away and compiles it again, 40–90 ms of compiler time each on this
 * scanner, on the one core the load runs on. With feedback for every branch, it is compiled once.
 * Performance only: the counts of these documents are not used.
 */
import { countSteps } from './steps.js';

/** Documents whose lines, together, take every branch of the scanner (`steps-warm-up.test.ts` checks it). */
export const WARM_UP_DOCUMENTS: readonly string[] = [
  // Paragraphs, ATX and setext headings, thematic breaks, and lines that only look like them.
  [
    'Intro paragraph with `code`, *emphasis* and a [link](/x).',
    'continued',
    '',
    '## Step one',
    '# Title',
    '#hashtag text',
    '### Three',
    '##',
    '',
    'Setext two',
    '----------',
    'Setext one',
    '==========',
    '',
    '===',
    '',
    '--',
    '',
    '---',
    '',
    '2024 was a year',
    '',
    '[not a definition] of anything',
    '',
    '[ref]: /url',
    '',
    '- item',
    '  continued',
    '===',
    '> quote',
    '>',
    '    indented code',
    '* star',
    '+ plus',
    '1. one',
    '  # heading in an item',
    '  `code` in an item',
    '  text',
    '  -x',
    '#tag',
    '',
    ' indented text',
    '',
    'Text',
    '#### Four',
  ].join('\n'),
  // Fenced code and HTML blocks, and lines that only look like them.
  [
    '```js',
    '## not a step',
    ' ```x',
    '  ```',
    '~~~~',
    'x',
    '~~~',
    '~~~~',
    '`inline` code',
    '',
    '<!-- a comment',
    '## hidden',
    '-->',
    '<div>',
    '## hidden',
    '',
    '<pre>x</pre>',
    '<3 is love',
    '<span>',
    '',
    '<custom-element attr="1">',
    '',
    '<?php echo 1; ?>',
    '<!DOCTYPE html>',
    '<![CDATA[ x ]]>',
    '<script>',
    '</script>',
    '  ```',
    '',
    'résumé — “quoted” ✓\r',
    '## Last\r',
    '',
  ].join('\n'),
  // Lines the scanner cannot judge, each ending its document: the stretch goes to the parser.
  '- item\n---\n',
  '``` a`b\n',
  '- a\n<span>\n',
  '-\n',
  '- a\n  ```\n  x\n  ```\n\n## b\n',
  '> ## Note\n> text\n\n## After\n',
  '1. a\n\n   <div>\n\n   ## b\n',
  'Lone\rcarriage return\n',
  // Ends of documents: a blank last line, a lone `#`, fences that close on the last line or never (markers within
  // a line, indented four spaces or followed by text close nothing).
  'Text\n\n',
  'Text\n#',
  '## A\n```\nx\n```',
  '## A\n```\ncode ```\n    ```\nx ```',
  '~~~\ncode\n',
];

let warm = false;

/** Runs the step counter over {@link WARM_UP_DOCUMENTS}, once per process. */
export function warmUpStepCounter(): void {
  if (warm) return;
  warm = true;
  // Twice: V8 gives a function its feedback vector only after it has run a while, so the first pass may record
  // nothing for the branches it takes early.
  for (let pass = 0; pass < 2; pass++) for (const markdown of WARM_UP_DOCUMENTS) countSteps(markdown);
}
