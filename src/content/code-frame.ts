/**
 * Code frames for problems: the offending line of a content file with a caret under the problem's column and a
 * line of context either side, rendered by `@babel/code-frame`. Used by `syllabus-content validate` in a terminal
 * and by the live preview's error page.
 *
 * ```text
 *   2 | title: Python
 * > 3 | color: #3776ab
 *     |        ^
 *   4 | status: live
 * ```
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { isAbsolute, join, posix } from 'node:path';
import { codeFrameColumns } from '@babel/code-frame';
import pc from 'picocolors';
import { displayPrefix, MAX_FILE_BYTES } from './loader.js';
import type { Problem } from './model.js';

/** How a frame is rendered. */
export interface CodeFrameOptions {
  /** ANSI colours (a dim gutter, a red marker and caret); `false` gives plain text. */
  color: boolean;
}

/** Lines of context shown above and below the problem's line. */
const CONTEXT_LINES = 1;
/** Longest stretch of a line shown past the caret, in UTF-16 code units; the rest is cut and marked `…`. */
const TAIL = 80;

/**
 * The code frame of the 1-based `line` and `column` (UTF-16 code units, as in a {@link Problem}) of `source`:
 * that line with a caret under the column, and {@link CONTEXT_LINES} line either side, each numbered.
 * Characters that would not show or would move the caret (control characters, bidirectional controls, line
 * separators) are shown as a single visible stand-in, so a file's bytes never reach the terminal raw and the caret
 * stays under its column; lines are cut {@link TAIL} characters past the caret.
 * @returns the frame (lines separated by `\n`, no final line break), or `''` when `line` is not a line of `source`.
 */
export function codeFrame(source: string, line: number, column: number, options: CodeFrameOptions): string {
  const lines = linesOf(source);
  if (!Number.isInteger(line) || line < 1 || line > lines.count) return '';
  const first = Math.max(1, line - CONTEXT_LINES);
  const last = Math.min(lines.count, line + CONTEXT_LINES);
  const limit = Math.max(column, 1) + TAIL;
  const shown: string[] = [];
  for (let n = first; n <= last; n++) shown.push(visible(lines.text(n), limit));
  // Only the window is framed: empty lines before it keep the line numbers without splitting the whole file.
  const windowed = '\n'.repeat(first - 1) + shown.join('\n');
  const frame = codeFrameColumns(
    windowed,
    { start: { line, column: Math.max(column, 1) } },
    { linesAbove: CONTEXT_LINES, linesBelow: CONTEXT_LINES },
  );
  return options.color ? colorize(frame) : frame;
}

/** Where the paths of problems point: the loader's folder and its `displayRoot` (see `ContentLoaderOptions`). */
export interface ProblemFolder {
  dir: string;
  displayRoot?: string;
}

/**
 * The text of the file a problem is in, to frame it: `problem.path` (as the loader of `folder` displays it) read
 * from `folder.dir`. A path outside the folder, a symbolic link, anything but a regular file, a file larger than
 * the loader reads, or one that cannot be read gives `undefined`: the problem is then printed without a frame.
 * Invalid UTF-8 is decoded with replacement characters.
 */
export function readProblemSource(problem: Pick<Problem, 'path'>, folder: ProblemFolder): string | undefined {
  const prefix = displayPrefix(folder.dir, folder.displayRoot);
  const rel = posix.relative(prefix === '' ? '.' : prefix, problem.path);
  if (rel === '' || rel === '..' || rel.startsWith('../') || isAbsolute(rel)) return undefined;
  let fd: number;
  try {
    fd = openSync(join(folder.dir, rel), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > MAX_FILE_BYTES) return undefined;
    const buffer = Buffer.allocUnsafe(stats.size);
    let length = 0;
    for (let n = -1; n !== 0 && length < buffer.length; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    return buffer.toString('utf8', 0, length);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

interface Lines {
  count: number;
  /** Line `n` (1-based) without its line break (`\n` or `\r\n`). */
  text(n: number): string;
}

/**
 * The lines of the last source framed: problems come file by file, so the starts of its lines are found once per
 * file, not once per problem. Lines end at `\n` only, as the YAML parser and the body's positions count them.
 */
let lastLines: { source: string; lines: Lines } | undefined;

function linesOf(source: string): Lines {
  if (lastLines?.source === source) return lastLines.lines;
  const starts = [0];
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  const lines: Lines = {
    count: starts.length,
    text: (n) => source.slice(starts[n - 1], n < starts.length ? starts[n]! - 1 : source.length).replace(/\r$/, ''),
  };
  lastLines = { source, lines };
  return lines;
}

/**
 * Invisible or layout characters shown one for one: C0 controls but tab as their Unicode control pictures
 * (U+2400–U+241F), DEL as ␡, and C1 controls, line and paragraph separators, bidirectional controls and
 * non-characters as U+FFFD. Tab is kept: the frame's caret line repeats tabs to stay aligned.
 */
const HIDDEN = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028-\u202E\u2066-\u2069\uFFFE\uFFFF]/g;

function visible(text: string, limit: number): string {
  const cut = text.length > limit ? `${text.slice(0, limit)}…` : text;
  return cut.replace(HIDDEN, (c) => {
    const code = c.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    return code === 0x7f ? '\u2421' : '\uFFFD';
  });
}

/** Colours always on: whether to colour at all is the caller's {@link CodeFrameOptions.color}, not picocolors' guess. */
const ansi = pc.createColors(true);

/** The gutter of a frame line: `> 12 |` on the problem's line, `  11 |` on context lines, `     |` on the caret's. */
const FRAME_LINE = /^([> ]) ( *\d* \|)(.*)$/s;

function colorize(frame: string): string {
  return frame
    .split('\n')
    .map((text) => {
      const m = FRAME_LINE.exec(text);
      if (!m) return text;
      const [, marker, gutter, rest] = m as unknown as [string, string, string, string];
      const caretLine = !/\d/.test(gutter);
      return `${marker === '>' ? ansi.bold(ansi.red('>')) : ' '} ${ansi.dim(gutter)}${caretLine ? ansi.bold(ansi.red(rest)) : rest}`;
    })
    .join('\n');
}
