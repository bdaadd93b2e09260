/**
 * Counts a lesson's steps: its level-2 headings (`## …` or a `---` setext underline), anywhere in the document
 * (also inside lists and block quotes), exactly as CommonMark 0.31 (remark-parse, no extensions) has them. A `##`
 * inside a code block or an HTML block is not a heading. The step content itself is never kept.
 */
import { parse, preprocess } from 'micromark';
import { htmlBlockNames, htmlRawNames } from 'micromark-util-html-tag-name';
import type { Extension, TokenizeContext } from 'micromark-util-types';
import type { Nodes } from 'mdast';
import { parseMarkdown } from './markdown.js';

/**
 * The number of level-2 headings in `markdown`, exactly as the remark syntax tree has them.
 *
 * A line scanner answers for the common shape of a lesson. Where a line could change the answer in a way it does
 * not model, the stretch of the document around it, from the last point where the scanner knows every block to be
 * closed to the next such point, goes to remark's own tokenizer run for block structure only
 * ({@link countStepsOnBlocks}), and the scanner goes on after it. (markdown-it's block parser is 40 times faster than
 * remark but counts differently from it on some HTML, link reference definition and empty list item edge cases,
 * so it cannot stand in.)
 *
 * The stretches are independent because each starts at a fresh start ({@link scanSteps}): a line at column 0 after
 * a blank line, with no top-level fenced code or HTML block open. There every container, paragraph and indented
 * code block of the lines above has ended (CommonMark 0.31 §5: a blank line ends paragraphs and lazy continuation,
 * and a line at column 0 continues no list item or block quote), so the lines from there are parsed exactly as
 * they would be on their own; what a list or a block quote carries across the split (list looseness, numbering)
 * makes no heading. The end of a stretch is taken only when nothing is still open there: when the block tokens show
 * none, or when no line of the stretch could open a top-level fence or HTML block that a blank line does not end
 * ({@link holdsNoStep}). A stretch none of whose lines could be a level-2 heading is not parsed at all.
 *
 * @param countStretch what a stretch goes to (default: {@link countStepsOnBlocks}); tests pass a spy to see which
 *   stretches reach the parser.
 */
export function countSteps(markdown: string, countStretch: StretchCounter = countStretchOnBlocks): number {
  if (needsWholeParse(markdown)) return countStretch(markdown).count;
  let count = 0;
  for (let from = 0; ;) {
    const scan = scanSteps(markdown, from);
    count += scan.count;
    if (scan.stuckAt === undefined) return count;
    const { restart } = scan;
    let end = nextFreshStartCandidate(markdown, scan.stuckAt);
    if (holdsNoStep(markdown, restart, end)) {
      if (end === markdown.length) return count;
      from = end;
      continue;
    }
    const quote = leadingBlockQuote(markdown, restart, end);
    if (quote !== undefined) {
      // The block quote ends, and everything in it, at quote.end: the scanner goes on there as at a fresh start.
      count += countSteps(quote.content, countStretch);
      if (quote.end === markdown.length) return count;
      from = quote.end;
      continue;
    }
    for (;;) {
      const blocks = countStretch(markdown.slice(restart, end));
      if (end === markdown.length) return count + blocks.count;
      if (!blocks.openAtEnd) {
        count += blocks.count;
        break;
      }
      // Something still open at `end` (a fence, an HTML block): `end` is no fresh start. The stretch grows to a later
      // candidate, at least twice as long, so a block that never closes costs about twice the rest of the document
      // and one that closes soon is not a reason to parse all of it.
      end = nextFreshStartCandidate(markdown, end + (end - restart));
    }
    from = end;
  }
}

/**
 * Counts the level-2 headings of a stretch of a document, and says whether a fenced code block or an HTML block is
 * still open at its end (see {@link countStepsOnBlocks}).
 */
export type StretchCounter = (markdown: string) => { count: number; openAtEnd: boolean };

const countStretchOnBlocks: StretchCounter = (markdown) => countStepsOnBlocks(markdown, true);

/**
 * Whether the stretch of `markdown` from `from` (a fresh start) to `to` (the start of a line after a blank line, or
 * the end) can be answered without a parser: none of its lines could be a level-2 heading, and, unless it runs to
 * the end, nothing could still be open at `to`. Conservative: a line that might do either, read after every prefix
 * that might be container markers, makes it `false`.
 *
 * - A level-2 heading's line is, after its container markers and indentation, `##` (then a space, a tab or the end of
 *   the line) or a setext underline of `-`; an empty list item may be such an underline too.
 * - At `to` every container has ended ({@link countSteps}), and with it every block inside one; a top-level HTML
 *   block of types 6 and 7 ended at the blank line before `to`. What may still be open there is a top-level fenced
 *   code block or HTML block of types 1–5, whose first line has at most three spaces of indentation and no marker
 *   (a *low* line). Without low fences, a low HTML start of types 1–5 makes it `false`; with them, {@link fencesClose}
 *   decides, HTML starts included.
 */
function holdsNoStep(markdown: string, from: number, to: number): boolean {
  const runsToEnd = to === markdown.length;
  const lines: StretchLine[] = [];
  let lowFences = false;
  let otherFences = false;
  let lowLastingHtml = false;
  for (let start = from; start < to;) {
    let end = markdown.indexOf('\n', start);
    if (end === -1 || end > to) end = to;
    const line = markdown.slice(start, withoutCr(markdown, start, end));
    start = end + 1;
    const prefix = CONTAINER_PREFIX.exec(line)![0];
    const rest = line.slice(prefix.length);
    if (rest === '') {
      if (LIST_MARKER.test(prefix)) return false;
      if (runsToEnd) continue;
      // Markers alone (`>`): no block opens, but the line is not blank and counts for the fences' indentation.
      lines.push(isBlank(prefix, 0, prefix.length) ? BLANK : { indent: indentation(line), fence: undefined, html: HtmlStart.None });
      continue;
    }
    const first = rest.charCodeAt(0);
    if (first === 35 /* # */ && ATX_LEVEL_2_AT_START.test(rest)) return false;
    if (first === 45 /* - */ && DASHES_OR_EQUALS.test(rest)) return false;
    if (runsToEnd) continue;
    const low = TOP_LEVEL_INDENT.test(prefix);
    const fence = FENCE_RUN.exec(rest) !== null;
    if (fence && low) lowFences = true;
    else if (fence) otherFences = true;
    let html = HtmlStart.None;
    if (first === 60 /* < */) {
      const end = htmlStart(rest);
      html = end !== undefined && end !== BLANK_LINE && end !== TYPE_7 ? HtmlStart.Lasting : HtmlStart.UntilBlank;
      if (html === HtmlStart.Lasting && low) lowLastingHtml = true;
    }
    lines.push({ indent: indentation(line), fence: fence && low ? rest : undefined, html });
  }
  // Without low fences, only a low HTML block of types 1–5 may be open at `to`; with them, such a block is harmless
  // only as a fence's content.
  return lowFences ? !otherFences && fencesClose(lines) : !lowLastingHtml;
}

/**
 * The block quote that the stretch of `markdown` from `from` to `to` starts with, when its end is certain: every
 * line from `from` starts with `>` at column 0, up to a blank line after which every line of the stretch is blank
 * (the quote ends at `to`), or up to a line at column 0 that opens a fenced code block or is an ATX heading, which no
 * lazy continuation line can be (the quote ends at that line). Its content is those lines without their `>` and the
 * one space after it, which CommonMark 0.31 (§5.1) parses as a document of its own; with no line left out, no lazy
 * continuation line joins it. `undefined` for any other stretch, and for a quote with a tab (whose width depends on
 * the column it starts at, which taking the marker away moves) or a byte-order mark (which remark drops at the start
 * of a document but keeps as text inside one).
 */
function leadingBlockQuote(markdown: string, from: number, to: number): { content: string; end: number } | undefined {
  if (markdown.charCodeAt(from) !== 62 /* > */) return undefined;
  let content = '';
  let end = to;
  let blankSeen = false;
  for (let start = from; start < to;) {
    let lineEnd = markdown.indexOf('\n', start);
    if (lineEnd === -1 || lineEnd > to) lineEnd = to;
    const next = lineEnd + 1;
    lineEnd = withoutCr(markdown, start, lineEnd);
    if (isBlank(markdown, start, lineEnd)) blankSeen = true;
    else if (blankSeen) return undefined;
    else if (markdown.charCodeAt(start) !== 62) {
      if (!interruptsAnything(markdown.slice(start, lineEnd))) return undefined;
      end = start;
      break;
    } else content += `${markdown.slice(start + (markdown.charCodeAt(start + 1) === 32 ? 2 : 1), lineEnd)}\n`;
    start = next;
  }
  const quote = markdown.slice(from, end);
  return quote.includes('\t') || quote.includes('\uFEFF') ? undefined : { content, end };
}

/** Whether a line at column 0 opens a fenced code block or is an ATX heading: no paragraph can take it in. */
function interruptsAnything(line: string): boolean {
  return fenceOpening(line) > 0 || ATX_HEADING.test(line);
}

/**
 * The length of the run of backticks or tildes with which `line` (from its first character) opens a fenced code
 * block, or 0 when it opens none: fewer than three, or a backtick in a backtick fence's info string, which makes the
 * line paragraph text (CommonMark 0.31 §4.5).
 */
function fenceOpening(line: string): number {
  const run = FENCE_RUN.exec(line)?.[0].length ?? 0;
  return run > 0 && line.charCodeAt(0) === 96 /* ` */ && line.includes('`', run) ? 0 : run;
}

/** What HTML block a line of a stretch may start, by how it would end. */
const enum HtmlStart {
  /** None: the line does not start with `<`. */
  None,
  /** Maybe one of type 6 or 7 (or the line is paragraph text): it ends at the next blank line. */
  UntilBlank,
  /** One of types 1–5 (`<pre>`, `<!--`, …): it runs past blank lines, to its own end marker. */
  Lasting,
}

/**
 * A non-blank line of a stretch: its indentation in columns (4 standing for 4 or more); for a low fence line, the
 * line from its run of backticks or tildes on; the HTML block it may start. A blank line is {@link BLANK}.
 */
interface StretchLine {
  indent: number;
  fence: string | undefined;
  html: HtmlStart;
}

/** A blank line of a stretch (no container marker on it either). */
const BLANK: StretchLine = { indent: -1, fence: undefined, html: HtmlStart.None };

/** The run of backticks or tildes that a line opening or closing a fenced code block starts with. */
const FENCE_RUN = /^(?:`{3,}|~{3,})/;

/**
 * Whether the low fences of a stretch pair up, each closed by the next, in every reading of the stretch, so that
 * none is open at its end. A low fence may open a top-level fenced code block or one in a list item whose content
 * starts at or before its indentation; which, only the list items tell. Either way it is closed by the next low
 * fence when that is a closing fence for it, indented at least as far, and every line between is blank or indented
 * at least as far too (so a list item that holds the first holds the second), with no other fence line in the
 * stretch (which {@link holdsNoStep} checks) that could close it sooner. Outside the pairs, a line starting with `<`
 * may open an HTML block that holds the next lines as its content: up to a blank line (types 6 and 7), where a fence
 * before that blank line may be such content, or past blank lines (types 1–5), which makes it `false` at once.
 * Inside a pair, such a line is the fence's content in every reading.
 */
function fencesClose(lines: readonly StretchLine[]): boolean {
  let opening: { indent: number; char: number; run: number } | undefined;
  let inHtml = false;
  for (const line of lines) {
    if (line === BLANK) {
      inHtml = false;
      continue;
    }
    const { indent, fence } = line;
    if (opening === undefined) {
      if (line.html === HtmlStart.Lasting) return false;
      if (line.html === HtmlStart.UntilBlank) inHtml = true;
      if (fence === undefined) continue;
      if (inHtml) return false;
      const run = fenceOpening(fence);
      if (run === 0) return false; // not a fence: paragraph text
      opening = { indent, char: fence.charCodeAt(0), run };
      continue;
    }
    if (indent < opening.indent) return false;
    if (fence === undefined) continue;
    if (!closesFence(fence, 0, fence.length, opening.char, opening.run)) return false;
    opening = undefined;
  }
  return opening === undefined;
}

/** The indentation of a non-blank line in columns, up to 4 (a tab in it reaches column 4 at least). */
function indentation(line: string): number {
  let i = 0;
  while (i < 3 && line.charCodeAt(i) === 32) i++;
  const next = line.charCodeAt(i);
  return next === 32 || next === 9 ? 4 : i;
}

/** A line prefix that holds a list marker. */
const LIST_MARKER = /[-+*\d]/;
/** A line prefix that leaves the line's block at the top level, where it may open a fence or an HTML block. */
const TOP_LEVEL_INDENT = /^ {0,3}$/;

/** A lone CR is a line ending too (CommonMark §2.1); remark drops a byte-order mark that starts its input. */
function needsWholeParse(markdown: string): boolean {
  return (markdown.includes('\r') && /\r(?!\n)/.test(markdown)) || markdown.charCodeAt(0) === 0xfeff;
}

/**
 * The start of the first line after `offset`'s line that may be a fresh start ({@link startsAfresh}, after a blank
 * line); `markdown.length` when there is none.
 */
function nextFreshStartCandidate(markdown: string, offset: number): number {
  let lineStart = markdown.indexOf('\n', offset) + 1;
  let previousBlank = false;
  while (lineStart > 0 && lineStart < markdown.length) {
    let end = markdown.indexOf('\n', lineStart);
    if (end === -1) end = markdown.length;
    const lineEnd = withoutCr(markdown, lineStart, end);
    if (previousBlank && startsAfresh(markdown, lineStart, lineEnd)) return lineStart;
    previousBlank = isBlank(markdown, lineStart, lineEnd);
    lineStart = end + 1;
  }
  return markdown.length;
}

/**
 * Whether the line from `lineStart` to `lineEnd` may be a fresh start once a blank line precedes it: not blank, not
 * indented, and not starting with a byte-order mark (which remark would drop at the start of a stretch but keeps
 * as text in the middle of a document).
 */
function startsAfresh(text: string, lineStart: number, lineEnd: number): boolean {
  if (lineStart >= lineEnd) return false; // read no character past the text: V8 would deoptimise the scanner
  const first = text.charCodeAt(lineStart);
  return first !== 32 && first !== 9 && first !== 0xfeff;
}

/** The end of a line's content: `end` (its `\n` or the end of the text) less the `\r` of a CRLF. */
function withoutCr(text: string, lineStart: number, end: number): number {
  return end > lineStart && text.charCodeAt(end - 1) === 13 /* \r */ ? end - 1 : end;
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

/**
 * micromark (the tokenizer under remark-parse) without its inline constructs. CommonMark settles the block
 * structure, headings included, before any inline parsing (spec, appendix "A parsing strategy"), and micromark
 * tokenizes the text of paragraphs and headings only after its block tokenizers are done, so leaving the inline
 * constructs out changes no block token; it only spares the work that decides nothing here (emphasis, links, code
 * spans, escapes and entities in text and in strings).
 */
const BLOCKS_ONLY: Extension = {
  disable: {
    null: [
      'attention',
      'autolink',
      'characterEscape',
      'characterReference',
      'codeText',
      'hardBreakEscape',
      'htmlText',
      'labelEnd',
      'labelStartImage',
      'labelStartLink',
    ],
  },
};

/**
 * The count taken on micromark's block tokens, as mdast-util-from-markdown turns them into `heading` nodes: an ATX
 * heading's depth is the length of its opening sequence (a closing `##` sequence does not count), a setext
 * heading's is 1 when its underline is made of `=` and 2 otherwise. It agrees with {@link countStepsOnTree} on
 * every input (the tests compare them on the CommonMark spec, on every Markdown document in `node_modules` and on
 * random documents) and costs about a third as much: it builds no syntax tree and leaves the text of paragraphs
 * and headings untokenized.
 *
 * micromark's document tokenizer hands the lines inside and outside containers to a flow tokenizer as it goes
 * (the `_tokenizer` of its `chunkFlow` tokens, part of micromark-util-types' `Token`), and that tokenizer resolves
 * headings, setext underlines and the paragraphs or definitions they depend on then and there. What
 * `postprocess` adds afterwards is only the splicing of those events into the document's and the tokenizing of
 * text, so the count reads the flow tokenizers' events and skips it.
 */
export function countStepsOnBlocks(markdown: string): number;
/**
 * The same count, and whether a fenced code block or an HTML block is still open at the end of `markdown` (it
 * reaches past the last non-blank line: an unclosed one takes the blank lines at the end as its content).
 */
export function countStepsOnBlocks(markdown: string, withOpenAtEnd: true): { count: number; openAtEnd: boolean };
export function countStepsOnBlocks(markdown: string, withOpenAtEnd?: true): number | { count: number; openAtEnd: boolean } {
  const lastText = withOpenAtEnd ? endOfLastNonBlankLine(markdown) : 0;
  let openAtEnd = false;
  const events = parse({ extensions: [BLOCKS_ONLY] })
    .document()
    .write(preprocess()(markdown, undefined, true));
  const flows = new Set<TokenizeContext>();
  for (const [kind, token] of events) if (kind === 'enter' && token._tokenizer !== undefined) flows.add(token._tokenizer);
  let count = 0;
  for (const flow of flows) {
    let atxOpening = false; // inside an ATX heading whose opening sequence is still to come
    for (const [kind, token, context] of flow.events) {
      if (kind === 'exit') {
        if ((token.type === 'codeFenced' || token.type === 'htmlFlow') && token.end.offset > lastText) openAtEnd = true;
        continue;
      }
      switch (token.type) {
        case 'atxHeading':
          atxOpening = true;
          break;
        case 'atxHeadingSequence':
          if (atxOpening && context.sliceSerialize(token).length === 2) count++;
          atxOpening = false;
          break;
        case 'setextHeadingLineSequence':
          if (context.sliceSerialize(token).codePointAt(0) !== 61 /* = */) count++; // as mdast: `=` is level 1
          break;
      }
    }
  }
  return withOpenAtEnd ? { count, openAtEnd } : count;
}

/** The offset just past the last character of the last line of `markdown` that is not blank (0 if none is). */
function endOfLastNonBlankLine(markdown: string): number {
  for (let i = markdown.length - 1; i >= 0; i--) {
    const c = markdown.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i + 1;
  }
  return 0;
}

// Container prefixes that may precede a block: indentation, block quote markers, list markers.
const CONTAINER_PREFIX = /^(?:[ \t]*(?:>|[-+*][ \t]|\d{1,9}[.)][ \t]))*[ \t]*/;
const ATX_LEVEL_2_AT_START = /^##(?:[ \t]|$)/;
const ATX_HEADING = /^#{1,6}(?:[ \t]|$)/;
/** A line of only `-` or only `=` (and trailing spaces): a setext underline, a thematic break or paragraph text. */
const DASHES_OR_EQUALS = /^(?:-+|=+)[ \t]*$/;

/** What is known at a line's start about the paragraph the previous lines left open. */
const enum Paragraph {
  /** None: after a blank line, a heading, a fence, an HTML block or a thematic break. */
  None,
  /** A paragraph of the document itself (in no container), with text that is not only link reference definitions. */
  TopLevel,
  /** Maybe one, maybe in a container: a setext underline or an HTML block start of type 7 cannot be judged. */
  Unknown,
}

/**
 * The line scanner's answer for the whole document: the count when the document only uses constructs whose
 * effect on level-2 headings is certain from single lines, otherwise `undefined`.
 */
export function countStepsFast(markdown: string): number | undefined {
  if (needsWholeParse(markdown)) return undefined;
  const scan = scanSteps(markdown, 0);
  return scan.stuckAt === undefined ? scan.count : undefined;
}

/**
 * How far the line scanner got from `from`: the steps it counted, and where it got stuck if it did.
 * `count` covers the lines before `restart` when `stuckAt` is set, every line otherwise.
 */
interface Scan {
  count: number;
  /** The start of the line the scanner could not judge. */
  stuckAt?: number;
  /** The start of the last fresh start before it (`from` if none): a point where the scanner may begin anew. */
  restart: number;
}

/**
 * The line scanner, from `from` (0 or a fresh start) to the end or the first line it cannot judge.
 *
 * What it relies on (CommonMark 0.31): a line starting at column 0 ends every open container unless it is a
 * lazy paragraph continuation, which a heading, a fence, a setext underline or an HTML block start of types 1–6
 * never is; so at column 0 it tracks fenced code blocks and HTML blocks exactly, and setext underlines when the
 * paragraph above is known to be a top-level one. It gets stuck on every line that, once indentation and container
 * markers are stripped, could start an HTML block, a fence, a `##` heading or a setext underline inside a
 * container, and on column-0 lines whose meaning depends on a paragraph it did not track.
 *
 * A fresh start is a line at column 0 after a blank line while no fenced code or HTML block is open: nothing the
 * lines above opened is open any more there (see {@link countSteps}).
 */
function scanSteps(markdown: string, from: number): Scan {
  let count = 0;
  let html: HtmlEnd | undefined; // in an HTML block: how it ends
  let paragraph = Paragraph.None;
  let previousBlank = true; // `from` is the start of the document or a fresh start
  let restart = from;
  let countAtRestart = 0;
  const length = markdown.length;
  const stuck = (lineStart: number): Scan => ({ count: countAtRestart, stuckAt: lineStart, restart });
  // Index-based: slicing every line would allocate a string per line of every lesson.
  for (let start = from; start <= length;) {
    let end = markdown.indexOf('\n', start);
    if (end === -1) end = length;
    const lineStart = start;
    start = end + 1;
    const lineEnd = withoutCr(markdown, lineStart, end);
    // A fresh start (a non-blank line at column 0 after a blank line, nothing open): remember it.
    if (previousBlank && html === undefined && startsAfresh(markdown, lineStart, lineEnd)) {
      restart = lineStart;
      countAtRestart = count;
    }
    previousBlank = false;
    if (html !== undefined) {
      if (html === BLANK_LINE ? isBlank(markdown, lineStart, lineEnd) : endsHtml(markdown.slice(lineStart, lineEnd), html)) {
        previousBlank = html === BLANK_LINE;
        html = undefined;
      }
      continue;
    }
    if (isBlank(markdown, lineStart, lineEnd)) {
      paragraph = Paragraph.None;
      previousBlank = true;
      continue;
    }
    const first = markdown.charCodeAt(lineStart);
    if (first === 35 /* # */) {
      const after = lineStart + 2 < lineEnd ? markdown.charCodeAt(lineStart + 2) : -1;
      if (lineStart + 1 < lineEnd && markdown.charCodeAt(lineStart + 1) === 35 && (after === -1 || after === 32 || after === 9)) {
        count++;
        paragraph = Paragraph.None;
        continue;
      }
      // Any other `#` line: a heading of another level, or paragraph text; never level 2.
      paragraph = ATX_HEADING.test(markdown.slice(lineStart, Math.min(lineEnd, lineStart + 8)))
        ? Paragraph.None
        : paragraph === Paragraph.None
          ? Paragraph.TopLevel
          : paragraph;
      continue;
    }
    if (first === 96 /* ` */ || first === 126 /* ~ */) {
      // A run with a backtick in a backtick fence's info string opens none: it is left to isRisky below.
      const run = fenceOpening(markdown.slice(lineStart, lineEnd));
      if (run > 0) {
        // Its lines are code: the scanner goes on after the line that closes it, or stops at the end of the text.
        const after = afterClosingFence(markdown, start, first, run);
        if (after === -1) break;
        start = after;
        paragraph = Paragraph.None;
        continue;
      }
    }
    if (first === 60 /* < */) {
      const line = markdown.slice(lineStart, lineEnd);
      const start = htmlStart(line);
      if (start === undefined || (start === TYPE_7 && paragraph === Paragraph.TopLevel)) {
        paragraph = paragraph === Paragraph.None ? Paragraph.TopLevel : paragraph; // text of a paragraph
      } else if (start === TYPE_7 && paragraph === Paragraph.Unknown) {
        return stuck(lineStart); // an HTML block, or a lazy continuation of a paragraph in a container
      } else {
        paragraph = Paragraph.None;
        if (start === TYPE_7 || start === BLANK_LINE) html = BLANK_LINE;
        else if (!endsHtml(line, start)) html = start;
      }
      continue;
    }
    if (first === 45 /* - */ || first === 61 /* = */) {
      const line = markdown.slice(lineStart, lineEnd);
      if (DASHES_OR_EQUALS.test(line)) {
        if (paragraph === Paragraph.TopLevel) {
          if (first === 45) count++; // a setext underline: level 2 with `-`, 1 with `=`
          paragraph = Paragraph.None;
        } else if (paragraph === Paragraph.Unknown) {
          if (first === 45) return stuck(lineStart);
        } else if (first === 61 || (line.startsWith('--') && !line.startsWith('---'))) {
          paragraph = Paragraph.TopLevel; // `===` or `--` with no paragraph above: paragraph text
        } else if (line.startsWith('---')) {
          paragraph = Paragraph.None; // a thematic break
        } else return stuck(lineStart); // `-`: an empty list item
        continue;
      }
    }
    if (isRisky(markdown, lineStart, lineEnd)) return stuck(lineStart);
    paragraph = nextParagraph(paragraph, markdown, lineStart, lineEnd);
  }
  return { count, restart };
}

/**
 * The paragraph state after a line that starts no block the scanner tracks: paragraph text at column 0 starts or
 * continues a top-level paragraph, anything else (a list item, a block quote, indentation) is left unknown.
 */
function nextParagraph(paragraph: Paragraph, text: string, start: number, end: number): Paragraph {
  if (paragraph === Paragraph.Unknown || !beginsParagraphText(text, start, end)) return Paragraph.Unknown;
  if (paragraph === Paragraph.TopLevel) return paragraph;
  // A paragraph that may open with link reference definitions may be none at all (`[a]: /url` then `---`).
  if (text.charCodeAt(start) === 91 /* [ */ && !NOT_A_DEFINITION.test(text.slice(start, end))) return Paragraph.Unknown;
  return Paragraph.TopLevel;
}

/** A `[` line whose first label ends on it and is not followed by `:`, or holds a `[`: no link reference definition. */
const NOT_A_DEFINITION = /^\[(?:[^\]\\[]|\\.)*(?:\[|\](?!:))/;

/** An ordered list item's marker at the start of a line (CommonMark 0.31 §5.2): up to nine digits, `.` or `)`, then a space, a tab or the end. */
const ORDERED_LIST_MARKER = /^\d{1,9}[.)](?:[ \t]|$)/;

/** Whether the line from `start` to `end`, at column 0, can only be paragraph text (a version number, a year…). */
function beginsParagraphText(text: string, start: number, end: number): boolean {
  const code = text.charCodeAt(start);
  if (code >= 48 && code <= 57) return !ORDERED_LIST_MARKER.test(text.slice(start, Math.min(end, start + 11)));
  return isParagraphTextStart(code);
}

/** A character that, at column 0, can only begin paragraph text (no container, HTML, fence, heading, break or underline). */
function isParagraphTextStart(code: number): boolean {
  switch (code) {
    case 32: // space
    case 9: // tab
    case 62: // >
    case 45: // -
    case 43: // +
    case 42: // *
    case 95: // _
    case 61: // =
    case 35: // #
    case 96: // `
    case 126: // ~
    case 60: // <
      return false;
    default:
      return code < 48 || code > 57; // digits: an ordered list item
  }
}

function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/**
 * The start of the line after the one that closes a fenced code block of at least `length` times `char` (a backtick
 * or a tilde), looking from the line start `from`; `text.length + 1` when that line is the last, -1 when no line
 * closes it (the block runs to the end). Only lines holding three such characters are looked at, not every line
 * of the block: about a third of a lesson's lines are code (29 % of the real-Markdown corpus's, 33 % of the
 * generator's).
 */
function afterClosingFence(text: string, from: number, char: number, length: number): number {
  const marker = char === 96 ? '```' : '~~~';
  for (let at = text.indexOf(marker, from); at !== -1;) {
    const lineStart = text.lastIndexOf('\n', at) + 1;
    let end = text.indexOf('\n', at);
    if (end === -1) end = text.length;
    if (closesFence(text, lineStart, withoutCr(text, lineStart, end), char, length)) return end + 1;
    if (end === text.length) return -1;
    at = text.indexOf(marker, end + 1);
  }
  return -1;
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

/**
 * Whether the line from `start` to `end` could, inside a container, start an HTML block, a fence, a `##` heading or
 * a setext underline, or be an empty list item: then the scanner cannot judge it.
 */
function isRisky(text: string, start: number, end: number): boolean {
  // Most lines of a lesson: the first character after the indentation can only begin paragraph text, so there is
  // no container marker and no block start (and no slice or regular expression to spend on them).
  let i = start;
  while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  if (i < end && isParagraphTextStart(text.charCodeAt(i))) return false;
  const line = text.slice(start, end);
  const prefix = CONTAINER_PREFIX.exec(line)![0];
  const rest = line.slice(prefix.length);
  // Only markers on the line (`- `, `> `): an empty list item may be a setext underline in disguise; block quote
  // markers alone (`>`, `> >`) are a blank line inside the quote, which opens nothing.
  if (rest === '') return !/^[ \t>]*$/.test(prefix);
  const c = rest[0];
  if (c === '<') return true; // an HTML block hides the lines that follow
  if (c === '`' || c === '~') return rest.startsWith('```') || rest.startsWith('~~~'); // a fence inside a container
  if (c === '#') return prefix.length > 0 && ATX_LEVEL_2_AT_START.test(rest); // an indented or nested `##`
  if (c === '-' || c === '=') return DASHES_OR_EQUALS.test(rest); // a setext underline
  return false;
}

// HTML blocks (CommonMark 0.31 §4.6): the start conditions 1–7 on a line beginning with `<`, and what ends each.
/** Types 1–5 end on a line that contains this text (type 1 in any letter case). */
type HtmlEnd = RegExp | string;
/** Types 6 and 7 end at a blank line. */
const BLANK_LINE = 'blank line';
const TYPE_7 = 'type 7';
const RAW_NAMES = htmlRawNames.join('|');
const TYPE_1_START = new RegExp(`^<(?:${RAW_NAMES})(?:[ \\t>]|$)`, 'i');
const TYPE_1_END = new RegExp(`</(?:${RAW_NAMES})>`, 'i');
const TYPE_6_START = /^<\/?([A-Za-z][A-Za-z0-9-]*)(?:[ \t>]|\/>|$)/;
const BLOCK_NAMES = new Set(htmlBlockNames);
const ATTRIBUTE = `[ \\t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \\t]*=[ \\t]*(?:[^ \\t"'=<>\`]+|'[^']*'|"[^"]*"))?`;
const TYPE_7_START = new RegExp(`^(?:<[A-Za-z][A-Za-z0-9-]*(?:${ATTRIBUTE})*[ \\t]*/?>|</[A-Za-z][A-Za-z0-9-]*[ \\t]*>)[ \\t]*$`);

/** How the HTML block that `line` starts ends ({@link TYPE_7} for a type-7 start), or `undefined` if it starts none. */
function htmlStart(line: string): HtmlEnd | undefined {
  if (TYPE_1_START.test(line)) return TYPE_1_END;
  if (line.startsWith('<!--')) return '-->';
  if (line.startsWith('<?')) return '?>';
  if (line.startsWith('<![CDATA[')) return ']]>';
  if (/^<![A-Za-z]/.test(line)) return '>';
  const name = TYPE_6_START.exec(line)?.[1];
  if (name !== undefined && BLOCK_NAMES.has(name.toLowerCase())) return BLANK_LINE;
  // remark (micromark) also takes `</pre>` and the other raw names' closing tags for type 7, unlike the spec.
  return TYPE_7_START.test(line) ? TYPE_7 : undefined;
}

/** Whether `line` holds the end of an HTML block of types 1–5 (the start line counts). */
function endsHtml(line: string, end: HtmlEnd): boolean {
  return typeof end === 'string' ? line.includes(end) : end.test(line);
}
