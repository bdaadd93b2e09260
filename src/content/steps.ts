/**
 * Counts a lesson's steps: its level-2 headings (`## …` or a `---` setext underline), on the Markdown syntax
 * tree, anywhere in the document (also inside lists and block quotes). A `##` inside a code block or an HTML
 * block is not a heading. The step content itself is never kept.
 */
import type { Nodes } from 'mdast';
import { parseMarkdown } from './markdown.js';

/**
 * The number of level-2 headings in `markdown`, exactly as the remark syntax tree has them.
 *
 * A line scanner answers for the common shape of a lesson (top-level headings and fenced code blocks, prose,
 * lists); as soon as a line could change the answer in a way it does not model, the document goes to remark.
 */
export function countSteps(markdown: string): number {
  return countStepsFast(markdown) ?? countStepsOnTree(markdown);
}

/** The count taken on the remark (mdast) tree: the reference answer. */
export function countStepsOnTree(markdown: string): number {
  let count = 0;
  const visit = (node: Nodes): void => {
    if (node.type === 'heading' && node.depth === 2) count++;
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(parseMarkdown(markdown));
  return count;
}

// Container prefixes that may precede a block: indentation, block quote markers, list markers.
const CONTAINER_PREFIX = /^(?:[ \t]*(?:>|[-+*][ \t]|\d{1,9}[.)][ \t]))*[ \t]*/;
const ATX_LEVEL_2_AT_START = /^##(?:[ \t]|$)/;

/**
 * The fast path: the count when the document only uses constructs whose effect on level-2 headings is
 * certain from single lines, otherwise `undefined`.
 *
 * What it relies on (CommonMark 0.31): a line starting at column 0 ends every open container unless it is a
 * lazy paragraph continuation, which a heading or a fence never is; so a column-0 `## ` line is a level-2
 * heading unless it is inside a top-level fenced code block (tracked exactly) or a top-level HTML block.
 * It gives up on every line that, once indentation and container markers are stripped, could start an
 * HTML block, a fence, a `##` heading or a setext underline not at column 0 of the document.
 */
export function countStepsFast(markdown: string): number | undefined {
  let count = 0;
  let fenceChar = 0; // 0: not in a fenced code block; otherwise the char code of its marker
  let fenceLength = 0;
  const length = markdown.length;
  // A lone CR is a line ending too (CommonMark §2.1): leave such documents to the parser.
  if (markdown.includes('\r') && /\r(?!\n)/.test(markdown)) return undefined;
  // Index-based: slicing every line would allocate a string per line of every lesson.
  for (let start = 0; start <= length;) {
    let end = markdown.indexOf('\n', start);
    if (end === -1) end = length;
    const lineStart = start;
    start = end + 1;
    let lineEnd = end;
    if (lineEnd > lineStart && markdown.charCodeAt(lineEnd - 1) === 13 /* \r */) lineEnd--;
    if (fenceChar !== 0) {
      if (closesFence(markdown, lineStart, lineEnd, fenceChar, fenceLength)) fenceChar = 0;
      continue;
    }
    if (lineEnd === lineStart) continue;
    const first = markdown.charCodeAt(lineStart);
    if (first === 35 /* # */) {
      const after = lineStart + 2 < lineEnd ? markdown.charCodeAt(lineStart + 2) : -1;
      if (markdown.charCodeAt(lineStart + 1) === 35 && (after === -1 || after === 32 || after === 9)) {
        count++;
        continue;
      }
      // `#` not followed by a second `#` and a space: a level-1 heading or a paragraph, never level 2.
      continue;
    }
    if (first === 96 /* ` */ || first === 126 /* ~ */) {
      let run = 1;
      while (lineStart + run < lineEnd && markdown.charCodeAt(lineStart + run) === first) run++;
      if (run >= 3) {
        // A backtick in a backtick fence's info string makes the line an inline code span, not a fence.
        if (first === 96 && markdown.slice(lineStart + run, lineEnd).includes('`')) return undefined;
        fenceChar = first;
        fenceLength = run;
        continue;
      }
    }
    // Letters, digits and most punctuation at column 0 start a paragraph line or a harmless block.
    if (isPlainStart(first)) continue;
    if (isRisky(markdown.slice(lineStart, lineEnd))) return undefined;
  }
  return count;
}

/** A character that, at column 0, can only begin paragraph text (no container, HTML, fence, break or underline). */
function isPlainStart(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    code === 40 /* ( */ ||
    code === 91 /* [ */ ||
    code === 33 /* ! */ ||
    code === 34 /* " */ ||
    code === 39
  ); /* ' */
}

function closesFence(text: string, start: number, end: number, char: number, length: number): boolean {
  let i = start;
  while (i < end && i - start < 3 && text.charCodeAt(i) === 32) i++;
  let run = 0;
  while (i + run < end && text.charCodeAt(i + run) === char) run++;
  if (run < length) return false;
  for (let j = i + run; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

function isRisky(line: string): boolean {
  const prefix = CONTAINER_PREFIX.exec(line)![0];
  const rest = line.slice(prefix.length);
  // Only markers on the line (`- `, `> `): an empty list item may be a setext underline in disguise.
  if (rest === '') return prefix.trim() !== '';
  const c = rest[0];
  if (c === '<') return true; // an HTML block hides the lines that follow
  if (c === '`' || c === '~') return rest.startsWith('```') || rest.startsWith('~~~'); // a fence inside a container
  if (c === '#') return prefix.length > 0 && ATX_LEVEL_2_AT_START.test(rest); // an indented or nested `##`
  if (c === '-' || c === '=') return /^(?:-+|=+)[ \t]*$/.test(rest); // a setext underline
  return false;
}
