/**
 * A lesson file's body as the step counter reads it, for the writers' preview (which shows a lesson as a learner
 * reads it): the same split from the frontmatter, the same remark tree, the same step rule ({@link isStep}), so the
 * steps it numbers are the ones the API counts. Nothing that serves uses it: production never sends a lesson body.
 */
import type { Code, Heading, Nodes, Root } from 'mdast';
import { visit } from 'unist-util-visit';
import { openFence } from './fences.js';
import { splitFile } from './frontmatter.js';
import { parseMarkdown } from './markdown.js';
import { isStep } from './steps.js';

/** A fenced code block without its closing fence, by the writers' rule (`fences.ts`), placed in the lesson file. */
export interface LessonFence {
  /** The code block (positions relative to the body). */
  readonly node: Code;
  /** The file line its opening fence is on (1-based). */
  readonly line: number;
  /** The opening fence as written, e.g. "```" or "~~~~": the closing line it needs. */
  readonly fence: string;
  /** How many lines it swallows that would be steps once it is closed where it was meant to. */
  readonly hiddenSteps: number;
  /** When a line inside it was meant to open the next block: that line's file line and text. */
  readonly reopened?: { readonly line: number; readonly text: string };
  /** What it runs to the end of (when no line reopens): the whole lesson, or the list item or block quote holding it. */
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
  readonly unclosedFences: readonly LessonFence[];
}

/** The outline of the lesson file `text` (its frontmatter is skipped, never judged here). Never throws. */
export function lessonOutline(text: string): LessonOutline {
  const { body, bodyLine } = splitFile(text);
  const tree = parseMarkdown(body);
  const steps: Heading[] = [];
  const unclosedFences: LessonFence[] = [];
  visit(tree, (node: Nodes, _index, parent) => {
    if (isStep(node)) steps.push(node);
    else if (node.type === 'code') {
      const open = openFence(node, body);
      if (open !== undefined) {
        const runsToEndOf = parent?.type === 'listItem' ? 'list item' : parent?.type === 'blockquote' ? 'block quote' : 'lesson';
        const inFile = (line: number): number => bodyLine + line - 1;
        unclosedFences.push({
          node,
          line: inFile(open.line),
          fence: open.fence,
          hiddenSteps: open.hiddenSteps,
          ...(open.reopened && { reopened: { line: inFile(open.reopened.line), text: open.reopened.text } }),
          runsToEndOf,
        });
      }
    }
  });
  return { tree, bodyLine, steps, unclosedFences };
}
