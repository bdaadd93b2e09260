/**
 * Counts a lesson's steps: its level-2 headings (`## …` or a `---` setext underline), anywhere in the document
 * (also inside lists and block quotes), exactly as CommonMark 0.31 (remark-parse, no extensions) has them. A `##`
 * inside a code block or an HTML block is not a heading. The step content itself is never kept.
 */
import type { Heading, Nodes, Root } from 'mdast';
import { htmlBlockNames, htmlRawNames } from 'micromark-util-html-tag-name';
import { parseMarkdown } from './markdown.js';

/**
 * The number of level-2 headings in `markdown`, exactly as the remark syntax tree has them: the line scanner's
 * answer ({@link countStepsFast}) when it has one, which it has for the usual shape of a lesson, else remark's
 * ({@link countStepsOnTree}). remark alone would make parsing lesson bodies most of a cold start.
 */
export function countSteps(markdown: string): number {
  return scanSteps(markdown).steps;
}

/**
 * What the line scanner saw of the fenced code blocks it followed, for the unclosed-fence rule (`fences.ts`), so
 * that a lesson whose fences all close plainly is settled by the one scan that counts its steps.
 */
export interface FenceReport {
  /**
   * Whether an indented fence may break the rule: its block's extent depends on containers the scanner does not
   * follow, so one that runs to the end or holds a suspect line is left to remark's tree.
   */
  uncertain: boolean;
  /**
   * The blocks opened at column 0 that may break the rule, as `[start, end)` offsets of the markdown from the
   * opening fence to the end of its closing line (or of the text): those running to the end, and those holding a
   * line that starts with the fence's character (which may open the next block).
   */
  suspects: Array<readonly [number, number]>;
}

/** A lesson body's step count, with the line scanner's {@link FenceReport} when it had the answer, else remark's tree. */
export type StepScan = { steps: number; fences: FenceReport; tree?: undefined } | { steps: number; fences?: undefined; tree: Root };

/** A lesson body's step count ({@link countSteps}), and what the count was taken on, for the fence rule to reuse. */
export function scanSteps(markdown: string): StepScan {
  const fences: FenceReport = { uncertain: false, suspects: [] };
  const fast = countStepsFast(markdown, fences);
  if (fast !== undefined) return { steps: fast, fences };
  const tree = parseMarkdown(markdown);
  return { steps: countStepsInTree(tree), tree };
}

/**
 * Whether a node of a lesson's remark (mdast) tree starts a step: a level-2 heading. The one rule of a step, for the
 * count the API serves and for the numbers the writers' preview shows.
 */
export function isStep(node: Nodes): node is Heading {
  return node.type === 'heading' && node.depth === 2;
}

/** The count taken on the remark (mdast) tree: the reference answer. */
export function countStepsOnTree(markdown: string): number {
  return countStepsInTree(parseMarkdown(markdown));
}

function countStepsInTree(tree: Root): number {
  let count = 0;
  const visit = (node: Nodes): void => {
    if (isStep(node)) count++;
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(tree);
  return count;
}

/**
 * The line scanner: the count when every line's effect on level-2 headings is certain without knowing the
 * containers (lists, block quotes) or paragraphs that are open, otherwise `undefined`.
 *
 * What it relies on (CommonMark 0.31): a line at column 0 that is an ATX heading, opens a fenced code block or
 * starts an HTML block of types 1–6 is never a lazy continuation line, so it ends every open container and
 * paragraph. So at column 0 a `##` line is a level-2 heading unless it is inside a fenced code block or an HTML
 * block, which the scanner follows from the line that opens them ({@link afterFence}, {@link afterHtml}) and
 * whose lines it skips. Every other way to a level-2 heading, or to a block that hides one, goes through a line
 * that, once indentation and container markers are stripped, starts with `<`, a fence or `##`, or is a setext
 * underline of `-` or an empty list item right after a line of text ({@link mayHideOrMakeAStep}): such a line
 * makes the answer `undefined`. A lone carriage return (a line ending too) and a leading byte-order mark (which
 * remark drops) do as well.
 */
export function countStepsFast(markdown: string, fences?: FenceReport): number | undefined {
  if (markdown.charCodeAt(0) === 0xfeff || (markdown.includes('\r') && /\r(?!\n)/.test(markdown))) return undefined;
  let count = 0;
  let afterBlank = true; // the previous line was blank, or there was none: no paragraph is open
  // Index-based: slicing every line would allocate a string per line of every lesson.
  for (let start = 0; start < markdown.length;) {
    const lineStart = start;
    const lineEnd = endOfLine(markdown, lineStart);
    start = nextLine(markdown, lineStart);
    const previousBlank = afterBlank;
    afterBlank = isBlank(markdown, lineStart, lineEnd);
    if (afterBlank || canOnlyBeText(markdown.charCodeAt(lineStart))) continue;
    const line = markdown.slice(lineStart, lineEnd);
    const prefix = CONTAINER_PREFIX.exec(line)![0];
    const rest = line.slice(prefix.length);
    let after: number | undefined;
    if (prefix === '' && rest[0] === '#') {
      if (ATX_LEVEL_2.test(rest)) count++; // any other `#` line is a heading of another level or text
      continue;
    } else if (FENCE.test(rest) && SPACES.exec(prefix)![0] === prefix) after = afterFence(markdown, lineStart, start, rest, prefix.length, fences);
    else if (prefix === '' && rest[0] === '<') after = afterHtml(markdown, start, rest);
    else if (mayHideOrMakeAStep(prefix, rest, previousBlank)) return undefined;
    else continue;
    if (after === undefined) return undefined;
    start = after;
  }
  return count;
}

/**
 * The start of the line after the fenced code block that `fence` (the opening line from its run of backticks or
 * tildes, indented by `indent` spaces, starting at `opening`) opens, looking from the line start `from`; past the
 * end of the text when it runs to the end; `undefined` when that is not certain. Tells `fences` what it saw.
 *
 * At column 0 it is a top-level block, closed by the next line that closes it. Indented, it may be a top-level
 * block, one in a list item (whose content starts at or before `indent`), indented code, or the text of a
 * paragraph; in each reading, the lines indented at least as far and blank lines are its content (or are code, or
 * text), up to a closing fence indented exactly as far. A line indented less (which may end the list item) or a
 * line indented further that may close it makes it uncertain. A line that opens no fence gives `from`.
 */
function afterFence(text: string, opening: number, from: number, fence: string, indent: number, fences?: FenceReport): number | undefined {
  const run = FENCE.exec(fence)![0];
  // A backtick after a backtick run opens no fence: the line is text (a code span) or code, which make no step.
  if (run[0] === '`' && fence.includes('`', run.length)) return from;
  const character = run.charCodeAt(0);
  // Index-based like the scan itself: a lesson is mostly code, and slicing each of its lines made garbage.
  const closesAt = (at: number, end: number): boolean => {
    if (text.charCodeAt(at) !== character) return false;
    CLOSING_RUN_AT.lastIndex = at;
    const closing = CLOSING_RUN_AT.exec(text);
    return closing !== null && closing.index + closing[0].length === end && closing[1]!.length >= run.length;
  };
  let suspect = false;
  for (let start = from; start < text.length; start = nextLine(text, start)) {
    const end = endOfLine(text, start);
    let content = start;
    while (content < end && text.charCodeAt(content) === 32) content++;
    const lineIndent = content - start;
    if (indent === 0) {
      if (lineIndent <= 3 && closesAt(content, end)) {
        if (suspect) fences?.suspects.push([opening, end]);
        return nextLine(text, start);
      }
    } else if (content === end) {
      continue; // blank
    } else if (lineIndent < indent) {
      return undefined;
    } else if (closesAt(content, end)) {
      if (lineIndent !== indent) return undefined;
      if (suspect && fences) fences.uncertain = true;
      return nextLine(text, start);
    }
    suspect ||= startsWithFenceCharacter(text, content, end, character);
  }
  if (indent === 0) fences?.suspects.push([opening, text.length]);
  else if (fences) fences.uncertain = true;
  return text.length + 1;
}

/** Whether the line `text[from, end)`, past indentation and block quote markers, starts with `character` (a fence's code unit). */
function startsWithFenceCharacter(text: string, from: number, end: number, character: number): boolean {
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 62) return c === character;
  }
  return false;
}

/**
 * The start of the line after the HTML block that a line at column 0 starting with `<` may open, looking from the
 * line start `from`; `undefined` when that is not certain.
 *
 * An HTML block of types 1–5 (`<pre`, `<!--`, `<?`, `<!X`, `<![CDATA[`) or 6 (a block-level tag) interrupts a
 * paragraph, so it is certain; it ends at the line holding its end marker or at the next blank line. Any other
 * line starting with `<` may be an HTML block of type 7 or the text of a paragraph, depending on what is open; up
 * to the next blank line the lines are the same in both readings when each is plain text.
 */
function afterHtml(text: string, from: number, line: string): number | undefined {
  const marker = HTML_END_MARKERS.find(([start]) => start.test(line))?.[1];
  if (marker !== undefined) {
    if (marker.test(line)) return from;
    for (let start = from; start < text.length; start = nextLine(text, start)) {
      if (marker.test(text.slice(start, endOfLine(text, start)))) return nextLine(text, start);
    }
    return text.length + 1;
  }
  const blockTag = HTML_BLOCK_TAG.exec(line)?.[1]?.toLowerCase();
  const certain = blockTag !== undefined && BLOCK_NAMES.has(blockTag);
  for (let start = from; start < text.length; start = nextLine(text, start)) {
    const end = endOfLine(text, start);
    if (isBlank(text, start, end)) return start;
    if (!certain && !canOnlyBeText(text.charCodeAt(start))) return undefined;
  }
  return text.length + 1;
}

/**
 * Whether a line, split into its indentation and container markers (`prefix`) and the rest, could start an HTML
 * block, a fence or a `##` heading inside a container or indented, or be a setext underline of `-` (or an empty
 * list item, which may be one) under a line of text.
 */
function mayHideOrMakeAStep(prefix: string, rest: string, previousBlank: boolean): boolean {
  if (rest === '') return !previousBlank && LIST_MARKER.test(prefix); // `>` markers alone: a blank line in a quote
  return rest[0] === '<' || FENCE.test(rest) || ATX_LEVEL_2.test(rest) || (!previousBlank && DASHES.test(rest));
}

/**
 * Whether a line starting with this character, at column 0, can only be paragraph text or a block that makes and
 * hides no level-2 heading: not indentation, a container marker, `<`, a fence, `#` or `-`.
 */
function canOnlyBeText(code: number): boolean {
  switch (code) {
    case 32: // space
    case 9: // tab
    case 62: // >
    case 45: // -
    case 43: // +
    case 42: // *
    case 60: // <
    case 35: // #
    case 96: // `
    case 126: // ~
      return false;
    default:
      return code < 48 || code > 57; // a digit may be an ordered list marker
  }
}

/** The end of the content of the line starting at `start`: its `\n`, less the `\r` of a CRLF, or the text's end. */
function endOfLine(text: string, start: number): number {
  let end = text.indexOf('\n', start);
  if (end === -1) end = text.length;
  return end > start && text.charCodeAt(end - 1) === 13 /* \r */ ? end - 1 : end;
}

/** The start of the line after the one starting at `start` (past the end of the text for the last line). */
function nextLine(text: string, start: number): number {
  const end = text.indexOf('\n', start);
  return end === -1 ? text.length + 1 : end + 1;
}

function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/** Indentation, block quote markers and list markers, as many as precede the line's content. */
const CONTAINER_PREFIX = /^(?:[ \t]*(?:>|[-+*][ \t]|\d{1,9}[.)][ \t]))*[ \t]*/;
const LIST_MARKER = /[-+*\d]/;
const SPACES = /^ */;
const ATX_LEVEL_2 = /^##(?:[ \t]|$)/;
const FENCE = /^(?:`{3,}|~{3,})/;
/** A closing fence from where its indentation ends, matched at `lastIndex` (the line must end where it does). */
const CLOSING_RUN_AT = /(`{3,}|~{3,})[ \t]*/y;
/** A setext underline of level 2 (or a thematic break, or an empty list item). */
const DASHES = /^-+[ \t]*$/;

// HTML blocks (CommonMark 0.31 §4.6) at column 0: types 1–5 end at the line holding their end marker, 6 and 7 at a
// blank line.
const RAW_NAMES = htmlRawNames.join('|');
const HTML_END_MARKERS: readonly (readonly [RegExp, RegExp])[] = [
  [new RegExp(`^<(?:${RAW_NAMES})(?:[ \\t>]|$)`, 'i'), new RegExp(`</(?:${RAW_NAMES})>`, 'i')],
  [/^<!--/, /-->/],
  [/^<\?/, /\?>/],
  [/^<!\[CDATA\[/, /\]\]>/],
  [/^<![A-Za-z]/, />/],
];
const HTML_BLOCK_TAG = /^<\/?([A-Za-z][A-Za-z0-9-]*)(?:[ \t>]|\/>|$)/;
const BLOCK_NAMES = new Set(htmlBlockNames);
