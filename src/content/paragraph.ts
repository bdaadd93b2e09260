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
  // remark's first parse in a process costs more than all the lines a plain paragraph has; it decides the rest.
  if (isPlainParagraph(body)) return { paragraph: detach(body.trim()) };
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

/**
 * Whether Markdown is certainly one paragraph (CommonMark 0.31), blank lines around it aside: its first line is
 * not indented (which may make code) and does not start with `[` (a link reference definition); there is no blank
 * line between its lines, no carriage return, and no line starting (past its indentation) with a character that
 * may begin another block or end the paragraph: a heading, fence, block quote, list item, thematic break, setext
 * underline or HTML block (`#`, a backtick, `~`, `>`, `-`, `*`, `+`, `_`, `=`, `<`, a digit). A `false` is no
 * verdict: remark's tree decides.
 */
export function isPlainParagraph(markdown: string): boolean {
  const text = markdown.replace(LEADING_BLANK_LINES, '').trimEnd();
  if (text === '' || text.includes('\r') || FIRST_LINE_MAY_NOT_BE_TEXT.test(text) || PARAGRAPH_BREAK.test(text)) return false;
  return !MAY_START_A_BLOCK.test(text);
}

const LEADING_BLANK_LINES = /^(?:[ \t]*\n)*/;
const FIRST_LINE_MAY_NOT_BE_TEXT = /^[ \t[]/;
const PARAGRAPH_BREAK = /\n[ \t]*\n/;
const MAY_START_A_BLOCK = /^[ \t]*[#`~>\-*+_=<0-9]/m;
