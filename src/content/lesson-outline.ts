/**
 * A lesson file's body as the step counter reads it, for the writers' preview (which shows a lesson as a learner
 * reads it): the same split from the frontmatter, the same remark tree, the same step rule ({@link isStep}), so the
 * steps it numbers are the ones the API counts. Nothing that serves uses it: production never sends a lesson body.
 */
import type { Code, Heading, Nodes, Root } from 'mdast';
import { visit } from 'unist-util-visit';
import { splitFile } from './frontmatter.js';
import { parseMarkdown } from './markdown.js';
import { isStep } from './steps.js';

/** A fenced code block without its closing fence: it takes every line after it, to the end of what holds it. */
export interface UnclosedFence {
  /** The code block (positions relative to the body). */
  readonly node: Code;
  /** The file line its opening fence is on (1-based). */
  readonly line: number;
  /** The opening fence as written, e.g. "```" or "~~~~". */
  readonly fence: string;
  /** What it runs to the end of: the whole lesson, or the list item or block quote that holds it. */
  readonly runsToEndOf: 'lesson' | 'list item' | 'block quote';
}

/** A lesson's body, parsed; see the module comment. */
export interface LessonOutline {
  /** The body's remark tree; its positions are relative to the body. */
  readonly tree: Root;
  /** The file line the body starts on (1-based). */
  readonly bodyLine: number;
  /** The step headings in document order: step `n` is `steps[n - 1]`, and their number is the lesson's `steps`. */
  readonly steps: readonly Heading[];
  /** Every fenced code block that is never closed, in document order. */
  readonly unclosedFences: readonly UnclosedFence[];
}

/** An opening code fence: three or more backticks or tildes. */
const OPENING = /^(`{3,}|~{3,})/;
/** A closing fence once the line's indentation and block quote markers are taken away. */
const CLOSING = /^(`{3,}|~{3,})[ \t]*$/;
/** What precedes a line's content inside list items and block quotes. */
const CONTAINER_PREFIX = /^[ \t>]*/;

/** The outline of the lesson file `text` (its frontmatter is skipped, never judged here). Never throws. */
export function lessonOutline(text: string): LessonOutline {
  const { body, bodyLine } = splitFile(text);
  const tree = parseMarkdown(body);
  const steps: Heading[] = [];
  const unclosedFences: UnclosedFence[] = [];
  visit(tree, (node: Nodes, _index, parent) => {
    if (isStep(node)) steps.push(node);
    else if (node.type === 'code') {
      const fence = unclosedFence(node, body);
      if (fence !== undefined) {
        const runsToEndOf = parent?.type === 'listItem' ? 'list item' : parent?.type === 'blockquote' ? 'block quote' : 'lesson';
        unclosedFences.push({ node, fence, runsToEndOf, line: bodyLine + node.position!.start.line - 1 });
      }
    }
  });
  return { tree, bodyLine, steps, unclosedFences };
}

/**
 * The opening fence of a fenced code block that has no closing fence (CommonMark 0.31 §4.5: it then runs to the end
 * of the document or of its container), or `undefined` for a closed or an indented code block. remark does not
 * record the closing fence, so it is read off the block's last line: it closes when it is a run of the opening's
 * character at least as long, with nothing after it.
 */
function unclosedFence(node: Code, body: string): string | undefined {
  const { start, end } = node.position!;
  const source = body.slice(start.offset, end.offset);
  const opening = OPENING.exec(source)?.[1];
  if (opening === undefined) return undefined; // indented code
  const lastBreak = source.lastIndexOf('\n');
  if (lastBreak === -1) return opening; // the opening line alone
  const last = source.slice(lastBreak + 1).replace(CONTAINER_PREFIX, '');
  const closing = CLOSING.exec(last)?.[1];
  const closed = closing !== undefined && closing[0] === opening[0] && closing.length >= opening.length;
  return closed ? undefined : opening;
}
