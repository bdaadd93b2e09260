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
const OPENING_FENCE = /^(`{3,}|~{3,})(.*)$/;

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
  let fence: { char: string; length: number } | undefined;
  let start = 0;
  const length = markdown.length;
  while (start <= length) {
    let end = markdown.indexOf('\n', start);
    if (end === -1) end = length;
    let line = markdown.slice(start, end);
    start = end + 1;
    if (line.includes('\r')) {
      // A lone CR is a line ending too: leave such documents to the parser.
      if (line.indexOf('\r') !== line.length - 1) return undefined;
      line = line.slice(0, -1);
    }
    if (fence) {
      if (closesFence(line, fence)) fence = undefined;
      continue;
    }
    const first = line.charCodeAt(0);
    if (first === 35 /* # */ && ATX_LEVEL_2_AT_START.test(line)) {
      count++;
      continue;
    }
    if (first === 96 /* ` */ || first === 126 /* ~ */) {
      const open = OPENING_FENCE.exec(line);
      if (open) {
        const marker = open[1]!;
        // A backtick in a backtick fence's info string makes the line an inline code span, not a fence.
        if (marker[0] === '`' && open[2]!.includes('`')) return undefined;
        fence = { char: marker[0]!, length: marker.length };
        continue;
      }
    }
    if (isRisky(line)) return undefined;
  }
  return count;
}

function closesFence(line: string, fence: { char: string; length: number }): boolean {
  let i = 0;
  while (i < 3 && line[i] === ' ') i++;
  let run = 0;
  while (line[i + run] === fence.char) run++;
  if (run < fence.length) return false;
  for (let j = i + run; j < line.length; j++) if (line[j] !== ' ' && line[j] !== '\t') return false;
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
