/** The body rule of changelog entries and roadmap items: exactly one non-empty paragraph of Markdown. */
import type { RootContent } from 'mdast';
import { detach, type LocalProblem } from './frontmatter.js';
import { parseMarkdown } from './markdown.js';

const BLOCK_NAMES: Partial<Record<RootContent['type'], string>> = {
  paragraph: 'a second paragraph',
  heading: 'a heading',
  list: 'a list',
  code: 'a code block',
  blockquote: 'a block quote',
  thematicBreak: 'a thematic break',
  html: 'an HTML block',
  definition: 'a link reference definition',
};

/**
 * The paragraph's Markdown source (trimmed), or a problem located in the file.
 * @param body the Markdown after the frontmatter
 * @param bodyLine the file line on which `body` starts
 */
export function singleParagraph(body: string, bodyLine: number): { paragraph: string } | { problem: LocalProblem } {
  const blocks = parseMarkdown(body).children;
  const first = blocks[0];
  if (!first) return { problem: { line: bodyLine, column: 1, message: 'the body must be exactly one paragraph, but it is empty' } };
  const wrong = first.type !== 'paragraph' ? first : blocks[1];
  if (wrong) {
    const start = wrong.position?.start;
    const line = start ? bodyLine + start.line - 1 : bodyLine;
    const what = BLOCK_NAMES[wrong.type] ?? `a ${wrong.type}`;
    return { problem: { line, column: start?.column ?? 1, message: `the body must be exactly one paragraph, but it has ${what} here` } };
  }
  const { start, end } = first.position!;
  return { paragraph: detach(body.slice(start.offset, end.offset).trim()) };
}
