/**
 * A fenced code block whose closing fence is missing. CommonMark lets such a block run to the end of its container
 * (the document, a list item, a block quote), or to the next bare fence line, which was meant to close the next block:
 * either way every `##` it swallows is code, not a step. One forgotten closing fence turned a 3-step lesson into 1 step
 * without an error; this finds both shapes:
 *
 * - a block that runs to the end of its container without a closing line;
 * - a block holding a line that opens a fence of its own kind with an info string (```` ```python ````): a closing
 *   fence takes no info string, so that line was meant to open the next block (showing fences inside a code block
 *   takes a longer fence, as CommonMark requires, and is never reported).
 */
import type { Code, Nodes } from 'mdast';
import { parseMarkdown } from './markdown.js';
import { positionAt } from './position.js';
import { scanSteps, type StepScan } from './steps.js';

/** A fence that opens a code block whose closing line is missing. */
export interface UnclosedFence {
  /** 1-based line and column of the opening fence, in the Markdown given. */
  line: number;
  column: number;
  /** The fence as written (e.g. "```"): the closing line it needs. */
  fence: string;
  /** How many lines it swallows that would be level-2 headings (steps) once it is closed where it was meant to. */
  hiddenSteps: number;
  /** When a line inside it opens the next block: that line's number, and the line (trimmed). */
  reopened?: { line: number; text: string };
}

/** A line that would be a level-2 heading outside the code block (indented as a list item's content may be). */
const HEADING_LINE = /^[ \t>]*##(?:[ \t]|$)/;

/**
 * The first fenced code block of `markdown` that is never closed, or `undefined`, from the scan that counted its
 * steps: when the line scanner settled every fence, only the blocks it found suspect are read; otherwise every code
 * block of remark's tree (the one steps were counted on, or a new one).
 */
export function unclosedFence(markdown: string, scan: StepScan = scanSteps(markdown)): UnclosedFence | undefined {
  if (scan.fences !== undefined && !scan.fences.uncertain) {
    for (const [start, end] of scan.fences.suspects) {
      const found = openFence(codeBlockAt(markdown, start, end), markdown);
      if (found) return found;
    }
    return undefined;
  }
  return firstOpenFence(scan.tree ?? parseMarkdown(markdown), markdown);
}

/** The first code block of remark's tree `node` of `markdown` whose closing line is missing ({@link openFence}). */
export function firstOpenFence(node: Nodes, markdown: string): UnclosedFence | undefined {
  if (node.type === 'code') return openFence(node, markdown);
  if ('children' in node) {
    for (const child of node.children) {
      const found = firstOpenFence(child, markdown);
      if (found) return found;
    }
  }
  return undefined;
}

/** The code block of remark's tree that spans `[start, end)` of `markdown`, opened at column 1: as much as {@link openFence} reads. */
function codeBlockAt(markdown: string, start: number, end: number): Code {
  const { line } = positionAt(markdown, start);
  return { type: 'code', value: '', position: { start: { line, column: 1, offset: start }, end: { line, column: 1, offset: end } } };
}

/**
 * Whether the code block `node` of remark's tree of `markdown` is a fenced block whose closing line is missing (see
 * the module comment): the one rule, for the writers' problems and the preview's marks. remark does not record the
 * closing fence, so it is read off the block's last line: it closes when it is a run of the opening's character at
 * least as long, with nothing after it.
 * @returns the fence, or `undefined` for a closed or an indented code block.
 */
export function openFence(node: Code, markdown: string): UnclosedFence | undefined {
  const start = node.position?.start;
  const end = node.position?.end.offset;
  if (start?.offset === undefined || end === undefined) return undefined;
  const source = markdown.slice(start.offset, end);
  const open = /^(`{3,}|~{3,})/.exec(source)?.[1];
  if (open === undefined) return undefined; // indented code
  const lines = source.split('\n').map((line) => line.replace(/\r$/, ''));
  const char = open[0] === '`' ? '`' : '~';
  const closes = new RegExp(`^${char}{${open.length},}[ \\t]*$`).test(lines.length > 1 ? lines.at(-1)!.replace(/^[ \t>]*/, '') : '');
  const inside = lines.slice(1, closes ? -1 : undefined);
  const opensNext = new RegExp(`^${char}{${open.length},}[ \\t]*[^\\s${char === '`' ? '`' : ''}][^${char === '`' ? '`' : ''}]*$`);
  const next = inside.findIndex((line) => opensNext.test(line.replace(/^[ \t>]*/, '')));
  if (closes && next === -1) return undefined;
  const swallowed = next === -1 ? inside : inside.slice(0, next);
  const found: UnclosedFence = {
    line: start.line,
    column: start.column,
    fence: open,
    hiddenSteps: swallowed.filter((l) => HEADING_LINE.test(l)).length,
  };
  if (next !== -1) found.reopened = { line: start.line + 1 + next, text: inside[next]!.trim() };
  return found;
}
