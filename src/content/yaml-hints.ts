/**
 * Hints for the common YAML traps, read from the raw frontmatter line a problem points at and appended to its
 * message as `; hint: …`:
 *
 * - an unquoted value starting with `#` (`color: #3776ab`) is a comment, so the key has no value;
 * - a tab in a line's indentation (YAML indents with spaces only);
 * - a quoted value whose closing quote is missing (the problem is moved to the opening quote);
 * - a colon followed by a space in an unquoted value (`title: Python: the basics`) starts a nested mapping.
 *
 * Each hint shows the line as it should be written. A problem on a line that is no trap gets no hint.
 */

/** A 1-based line and column of a file (frontmatter.ts's `Position`; frontmatter.ts imports this module). */
interface Position {
  line: number;
  column: number;
}

/** A problem in one file (frontmatter.ts's `LocalProblem`). */
interface LocalProblem extends Position {
  message: string;
}

/** A line `key: value`, `- value` or `- key: value`: its indentation, what leads to the value, and the value. */
const VALUE_LINE = /^(?<indent>[ \t]*)(?<lead>(?:-[ \t]+)*(?:[^\s"'#:[{-][^:#]*?:|-)[ \t]+)(?<value>\S.*?)[ \t]*$/;
const TAB_HINT = 'indent with spaces instead of the tab';
const TAB_MESSAGE = 'invalid YAML: Tabs are not allowed as indentation';

/**
 * The YAML syntax problems of a frontmatter block with hints added. `yaml` is the block as parsed (its line 1 is
 * the file's line 1, see `SplitFile.yaml`), `problems` its syntax problems, positioned in the file. A line gets its
 * hint once, on its first problem; a missing closing quote is moved to the line that opens the quote.
 */
export function withSyntaxHints(yaml: string, problems: readonly LocalProblem[]): LocalProblem[] {
  const lines = yaml.split('\n').map((line) => line.replace(/\r$/, ''));
  const hinted = new Set<number>();
  // A tab in a line's indentation is the cause of every complaint YAML makes about that line: one problem says so.
  const tabbed = new Set<number>();
  const kept = problems.filter((problem) => {
    if (!tabHint(lines[problem.line - 1] ?? '')) return true;
    if (tabbed.has(problem.line)) return false;
    tabbed.add(problem.line);
    return true;
  });
  return kept.map((problem) => {
    if (tabbed.has(problem.line)) return { line: problem.line, column: 1, message: `${TAB_MESSAGE}; hint: ${TAB_HINT}` };
    let { line, column } = problem;
    let hint: string | undefined;
    if (/missing closing ["']?quote/i.test(problem.message)) {
      const opener = unclosedQuoteBefore(lines, line);
      if (opener) {
        ({ line, column } = opener.position);
        hint = `close the quote: ${opener.fixed}`;
      }
    }
    const text = lines[line - 1] ?? '';
    hint ??= unclosedQuoteHint(text) ?? colonHint(text) ?? hashHint(text);
    if (hint === undefined || hinted.has(line)) return { line, column, message: problem.message };
    hinted.add(line);
    return { line, column, message: `${problem.message}; hint: ${hint}` };
  });
}

/**
 * A schema problem's message with a hint when the raw line explains it. Only a wrong type is a trap: the value
 * found is nothing (`null`) and the line's value starts with `#`, or it is a mapping and the line is a list item
 * whose unquoted text holds `: `. `at` is where the problem points (the key, or the list item), `found` the value
 * there.
 */
export function withSchemaHint(yaml: string, at: Position, problem: { keyword: string; message: string }, found: unknown): string {
  if (problem.keyword !== 'type') return problem.message;
  const text = lineOf(yaml, at.line);
  let hint: string | undefined;
  if (found === null) hint = hashHint(text);
  else if (typeof found === 'object' && !Array.isArray(found) && /^[ ]*-[ \t]/.test(text)) hint = colonHint(text, true);
  return hint === undefined ? problem.message : `${problem.message}; hint: ${hint}`;
}

/** The value at `path` in parsed frontmatter `data`, `undefined` when there is none. */
export function valueAt(data: unknown, path: readonly (string | number)[]): unknown {
  let node = data;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

function lineOf(yaml: string, line: number): string {
  let start = 0;
  for (let n = 1; n < line; n++) {
    start = yaml.indexOf('\n', start) + 1;
    if (start === 0) return '';
  }
  const end = yaml.indexOf('\n', start);
  return (end === -1 ? yaml.slice(start) : yaml.slice(start, end)).replace(/\r$/, '');
}

function tabHint(text: string): string | undefined {
  return /^[ ]*\t/.test(text) || /^[ \t]*-[ ]*\t/.test(text) ? TAB_HINT : undefined;
}

/**
 * `title: Booleans #1 and comparisons`: a comment after a plain value (frontmatter.ts warns about it). The hint shows
 * the line with everything after the key quoted, and the other way out.
 */
export function commentHint(text: string): string {
  const m = VALUE_LINE.exec(text);
  const fixed = m?.groups ? `${m.groups.indent}${m.groups.lead}${quoted(m.groups.value!)}` : undefined;
  const own = 'or, if it is a comment, put it on a line of its own';
  return fixed === undefined ? `quote the value if the # belongs to it, ${own}` : `quote the value if the # belongs to it: ${fixed.trim()} (${own})`;
}

/** `color: #3776ab`: the value is a comment. */
function hashHint(text: string): string | undefined {
  const m = VALUE_LINE.exec(text);
  if (!m?.groups || !m.groups.value!.startsWith('#')) return undefined;
  return `quote it: ${m.groups.lead}${quoted(m.groups.value!)} (# starts a YAML comment)`;
}

/**
 * `title: Python: the basics`: a colon and a space in an unquoted value. With `item`, the line is a list item
 * whose whole text is the value (`- a: b` read as a mapping).
 */
function colonHint(text: string, item = false): string | undefined {
  if (item) {
    const m = /^[ ]*(-[ \t]+)(\S.*?)[ \t]*$/.exec(text);
    return m && isPlain(m[2]!) && /:[ \t]/.test(m[2]!) ? `quote the value: ${m[1]}${quoted(m[2]!)}` : undefined;
  }
  const m = VALUE_LINE.exec(text);
  if (!m?.groups) return undefined;
  const value = m.groups.value!;
  if (!isPlain(value) || !/:[ \t]/.test(value)) return undefined;
  return `quote the value: ${m.groups.lead}${quoted(value)}`;
}

/** A quoted value on `text` that does not close on it. */
function unclosedQuoteHint(text: string): string | undefined {
  const fixed = closedLine(text);
  return fixed === undefined ? undefined : `close the quote: ${fixed}`;
}

/** The last line at or before `line` (1-based) that opens a quote it does not close, and the line fixed. */
function unclosedQuoteBefore(lines: readonly string[], line: number): { position: Position; fixed: string } | undefined {
  for (let n = Math.min(line, lines.length); n >= 1; n--) {
    const text = lines[n - 1]!;
    const fixed = closedLine(text);
    if (fixed === undefined) continue;
    const m = VALUE_LINE.exec(text)!;
    // Line 1 of the block is what follows the opening `---`, always blank: columns need no shift.
    return { position: { line: n, column: m.groups!.indent!.length + m.groups!.lead!.length + 1 }, fixed };
  }
  return undefined;
}

/** `text` with its unclosed quoted value closed (`title: "Python` → `title: "Python"`), or `undefined`. */
function closedLine(text: string): string | undefined {
  const m = VALUE_LINE.exec(text);
  if (!m?.groups) return undefined;
  const value = m.groups.value!;
  const quote = value[0];
  if (quote !== '"' && quote !== "'") return undefined;
  // Inside double quotes a backslash escapes the next character; inside single quotes `''` is one quote.
  for (let i = 1; i < value.length; i++) {
    if (quote === '"' && value[i] === '\\') i++;
    else if (value[i] === quote) {
      if (quote === "'" && value[i + 1] === "'") i++;
      else return undefined;
    }
  }
  return `${m.groups.lead}${value}${quote}`;
}

/** Whether a value is written plain (not quoted, not a flow collection, block scalar, anchor, alias or tag). */
function isPlain(value: string): boolean {
  return !/^["'[{|>&*!%@`#]/.test(value);
}

/** `value` as a YAML quoted scalar: double quotes, else single quotes, else JSON's escapes (valid YAML). */
function quoted(value: string): string {
  if (!/["\\]/.test(value)) return `"${value}"`;
  if (!value.includes("'")) return `'${value}'`;
  return JSON.stringify(value);
}
