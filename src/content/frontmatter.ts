/**
 * Splits a Markdown file into YAML frontmatter and body (gray-matter), and parses the YAML (`yaml`, after a
 * fast path for simple blocks that gives the same data); positions of keys are looked up with `yaml` when a
 * problem needs one, so every problem can name the line and column of the offending key. Syntax problems carry a
 * hint for the common traps (yaml-hints.ts).
 */
import matter from 'gray-matter';
import { LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument, type Node, type Scalar } from 'yaml';
import { parseSimpleYaml } from './simple-yaml.js';
import { withSyntaxHints } from './yaml-hints.js';

/** A 1-based line and column in a file. */
export interface Position {
  line: number;
  column: number;
}

/** A problem inside one file, before the file's path is attached. */
export interface LocalProblem extends Position {
  message: string;
}

/** A file split into its parts. */
export interface SplitFile {
  /** The YAML source between the delimiters, starting right after the opening `---` (so its line 1 is the file's line 1). */
  yaml: string;
  /** The parsed YAML as plain data (`{}` for an empty block); `undefined` when the YAML has syntax errors. */
  data: unknown;
  /** The Markdown after the closing delimiter. */
  body: string;
  /** The file line on which `body` starts (1-based). */
  bodyLine: number;
  /** Syntax problems of the frontmatter itself; empty when it is well formed. */
  problems: LocalProblem[];
}

const OPEN = /^---[ \t]*\r?\n/;
const CLOSED_HEAD = /\n---[ \t]*(?:\r?\n)?$/;
const OPEN_LENGTH = 3;
const YAML_OPTIONS = { prettyErrors: false, uniqueKeys: true, strict: true } as const;
// gray-matter only finds the delimiters here: the stub engine hands the YAML to `yaml`, which keeps positions.
// Passing options also turns off gray-matter's process-wide cache keyed by file content.
const MATTER_OPTIONS = { engines: { yaml: (): object => ({}) }, excerpt: false };

/** The start of the file, where problems about the whole frontmatter point. */
export const FILE_START: Position = { line: 1, column: 1 };

/**
 * Splits `text` into frontmatter and body and parses the frontmatter.
 * Never throws: a missing or unclosed block, or a YAML syntax error, is returned in `problems`.
 */
export function splitFile(text: string): SplitFile {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!OPEN.test(src)) {
    return {
      yaml: '',
      data: undefined,
      body: src,
      bodyLine: 1,
      problems: [{ ...FILE_START, message: 'missing frontmatter: the file must start with a line "---", then YAML keys, then a line "---"' }],
    };
  }
  // gray-matter gets only the frontmatter's lines: it copies its whole input and uses it as a cache key,
  // which for a lesson would double the cost of the load.
  const head = headLines(src);
  const file = matter(head, MATTER_OPTIONS);
  const bodyStart = head.length - file.content.length;
  const body = src.slice(bodyStart);
  const bodyLine = countLines(src.slice(0, bodyStart)) + 1;
  if (!CLOSED_HEAD.test(src.slice(0, bodyStart))) {
    return {
      yaml: file.matter,
      data: undefined,
      body: '',
      bodyLine,
      problems: [{ ...FILE_START, message: 'the frontmatter is not closed: add a line "---" after its last key' }],
    };
  }
  // A fresh copy: a slice would keep the whole file (lesson text included) alive as long as any value parsed from it.
  // With CRLF line endings the closing delimiter's `\n---` leaves the last YAML line's `\r` behind.
  const yaml = detach(file.matter.endsWith('\r') ? file.matter.slice(0, -1) : file.matter);
  const simple = parseSimpleYaml(yaml);
  if (simple) return { yaml, data: simple, body, bodyLine, problems: [] };
  const lineCounter = new LineCounter();
  const doc = parseDocument(yaml, { ...YAML_OPTIONS, lineCounter });
  if (doc.errors.length > 0) {
    return {
      yaml,
      data: undefined,
      body,
      bodyLine,
      problems: withSyntaxHints(
        yaml,
        doc.errors.map((err) => ({ ...toPosition(lineCounter, err.pos[0]), message: `invalid YAML: ${firstLine(err.message)}` })),
      ),
    };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return { yaml, data: undefined, body, bodyLine, problems: [{ ...FILE_START, message: `invalid YAML: ${(err as Error).message}` }] };
  }
  return { yaml, data: data ?? {}, body, bodyLine, problems: [] };
}

/**
 * Finds where values are written in one frontmatter block: for a key of a mapping, where the key is written; for
 * an item of a list, where the item starts. The block is parsed on the first question only and each mapping's keys
 * indexed on first use, so a file with thousands of problems costs one parse, not one per problem; parsed files
 * keep no syntax tree in memory (a locator lives as long as one file's checks).
 */
export class FrontmatterLocator {
  readonly #yaml: string;
  #parsed: { doc: ReturnType<typeof parseDocument>; lineCounter: LineCounter } | undefined;
  readonly #pairs = new WeakMap<object, Map<string, KeyedPair>>();

  constructor(yaml: string) {
    this.#yaml = yaml;
  }

  /**
   * The position of the value at `path` (`['stages', 1, 'key']`). Falls back to the deepest ancestor found, then
   * to the file start.
   */
  at(path: readonly (string | number)[]): Position {
    const { offset } = this.#walk(path);
    return offset === undefined ? FILE_START : toPosition(this.#parse().lineCounter, offset);
  }

  /**
   * Where the character `codePoint` of the string at `path` is written: a raw character at itself, one written as
   * an escape (`"\u0007"`, `"\a"`) at its backslash, a line break YAML keeps (an empty line inside a flow scalar,
   * a line of a block scalar) at that line break. The string is the decoded value, so the character is looked
   * for in the scalar's source; when it cannot be placed, the scalar's start (for a block scalar its `|` or `>`),
   * else {@link at}.
   */
  characterAt(path: readonly (string | number)[], codePoint: number): Position {
    const { offset, node } = this.#walk(path);
    const { doc, lineCounter } = this.#parse();
    const scalar = isAlias(node) ? node.resolve(doc) : node;
    if (isScalar(scalar) && scalar.range) {
      const [start, end] = scalar.range;
      const within = scalarSourceIndex(this.#yaml.slice(start, end), scalar.type, codePoint);
      return toPosition(lineCounter, start + (within ?? 0));
    }
    return offset === undefined ? FILE_START : toPosition(lineCounter, offset);
  }

  #parse(): { doc: ReturnType<typeof parseDocument>; lineCounter: LineCounter } {
    this.#parsed ??= (() => {
      const lineCounter = new LineCounter();
      // Positions only: duplicate keys were reported when the data was parsed, and checking them again is
      // quadratic in the number of keys.
      return { doc: parseDocument(this.#yaml, { ...YAML_OPTIONS, uniqueKeys: false, lineCounter }), lineCounter };
    })();
    return this.#parsed;
  }

  /**
   * Follows `path` from the document's root: the offset of the deepest key or item found, and the value node
   * when the whole path was found.
   */
  #walk(path: readonly (string | number)[]): { offset: number | undefined; node: unknown } {
    let node: unknown = this.#parse().doc.contents;
    let offset: number | undefined;
    for (const segment of path) {
      if (isMap(node)) {
        const pair = this.#pairsOf(node).get(String(segment));
        if (!pair) return { offset, node: undefined };
        offset = pair.key.range?.[0] ?? offset;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number') {
        const item = node.items[segment] as Node | undefined;
        if (!item) return { offset, node: undefined };
        offset = item.range?.[0] ?? offset;
        node = item;
      } else return { offset, node: undefined };
    }
    return { offset, node };
  }

  /** A mapping's pairs by their key's text (the first when duplicated), indexed once per mapping. */
  #pairsOf(map: { items: { key: unknown; value: unknown }[] }): Map<string, KeyedPair> {
    let pairs = this.#pairs.get(map);
    if (!pairs) {
      pairs = new Map();
      for (const { key, value } of map.items) {
        if (isScalar(key) && !pairs.has(String(key.value))) pairs.set(String(key.value), { key, value });
      }
      this.#pairs.set(map, pairs);
    }
    return pairs;
  }
}

/** The characters YAML's double-quoted escapes stand for (`\x`, `\u`, `\U` take hex digits instead; YAML 1.2 §5.7). */
const ESCAPES: Record<string, number> = {
  '0': 0x00,
  a: 0x07,
  b: 0x08,
  t: 0x09,
  '\t': 0x09,
  n: 0x0a,
  v: 0x0b,
  f: 0x0c,
  r: 0x0d,
  e: 0x1b,
  ' ': 0x20,
  '"': 0x22,
  '/': 0x2f,
  '\\': 0x5c,
  N: 0x85,
  _: 0xa0,
  L: 0x2028,
  P: 0x2029,
};
const HEX_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 };

/**
 * The index in a scalar's source `src` (from its first character: a quote, `|` or `>`, or the plain text) of the
 * first place that gives the decoded value the character `codePoint`; `undefined` when none is found.
 */
function scalarSourceIndex(src: string, type: Scalar.Type | undefined, codePoint: number): number | undefined {
  const block = type === 'BLOCK_LITERAL' || type === 'BLOCK_FOLDED';
  if (block && codePoint === 0x0a) return keptBlockBreak(src, type === 'BLOCK_FOLDED');
  const doubleQuoted = type === 'QUOTE_DOUBLE';
  for (let i = 0; i < src.length;) {
    const c = src.codePointAt(i)!;
    if (doubleQuoted && c === 0x5c) {
      const escape = decodeEscape(src, i + 1);
      if (escape.codePoint === codePoint) return i;
      i += 1 + escape.length;
      continue;
    }
    if (c === 0x0a || (c === 0x0d && src[i + 1] === '\n')) {
      // In a flow scalar a line break folds into a space, but an empty line after it is kept as a line feed.
      const next = src.indexOf('\n', i) + 1;
      if (!block && codePoint === 0x0a && /^[ \t]*\r?\n/.test(src.slice(next))) return next;
      i = next;
      continue;
    }
    // Spaces and tabs around a folded line break are not part of a flow scalar's value.
    if (c === codePoint && !(c === 0x09 && !block && foldedWhitespace(src, i))) return i;
    i += c > 0xffff ? 2 : 1;
  }
  return undefined;
}

/** The escape after a backslash at `at`: the code point it stands for (none for an escaped line break) and its length. */
function decodeEscape(src: string, at: number): { codePoint?: number; length: number } {
  const c = src[at] ?? '';
  const digits = HEX_DIGITS[c];
  if (digits !== undefined) {
    const hex = src.slice(at + 1, at + 1 + digits);
    let codePoint = /^[0-9a-fA-F]+$/.test(hex) ? parseInt(hex, 16) : undefined;
    // A pair of \u escapes is one character.
    const low = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(src.slice(at + 5));
    if (c === 'u' && codePoint !== undefined && codePoint >= 0xd800 && codePoint <= 0xdbff && low) {
      codePoint = 0x10000 + ((codePoint - 0xd800) << 10) + (parseInt(low[1]!, 16) - 0xdc00);
      return { codePoint, length: 11 };
    }
    return { codePoint, length: 1 + digits };
  }
  if (c === '\r' && src[at + 1] === '\n') return { length: 2 };
  if (c === '\n') return { length: 1 };
  return { codePoint: ESCAPES[c], length: c.length };
}

/** Whether the tab or space at `i` of a flow scalar's source is in the white space around a line break. */
function foldedWhitespace(src: string, i: number): boolean {
  let left = i;
  while (left > 0 && (src[left - 1] === ' ' || src[left - 1] === '\t')) left--;
  let right = i;
  while (right < src.length && (src[right] === ' ' || src[right] === '\t')) right++;
  return src[left - 1] === '\n' || src[right] === '\n' || src[right] === '\r';
}

/**
 * The first line break a block scalar keeps, as an index in its source (which starts at `|` or `>`): in a literal
 * scalar the end of its first line; in a folded one an empty line, the line break around a more-indented line, or
 * the end of its last line. `undefined` when the scalar has no content line.
 */
function keptBlockBreak(src: string, folded: boolean): number | undefined {
  const lines: { start: number; end: number; text: string }[] = [];
  for (let start = src.indexOf('\n') + 1; start > 0 && start < src.length;) {
    const eol = src.indexOf('\n', start);
    const end = eol === -1 ? src.length : eol;
    lines.push({ start, end: src[end - 1] === '\r' ? end - 1 : end, text: src.slice(start, end).replace(/\r$/, '') });
    start = end + 1;
  }
  if (lines.length === 0) return undefined;
  if (!folded) return lines[0]!.end;
  const indent = /^ */.exec(lines.find((l) => l.text.trim() !== '')?.text ?? '')![0].length;
  const moreIndented = (l: { text: string } | undefined): boolean => l !== undefined && l.text.trim() !== '' && /^[ \t]/.test(l.text.slice(indent));
  const last = lines.findLastIndex((l) => l.text.trim() !== '');
  if (last === -1) return undefined;
  for (let k = 0; k < last; k++) {
    const line = lines[k]!;
    if (line.text.trim() === '') return line.start;
    if (moreIndented(line) || moreIndented(lines[k + 1])) return line.end;
  }
  return lines[last]!.end;
}

/** A mapping entry whose key is a scalar. */
interface KeyedPair {
  key: Node;
  value: unknown;
}

function toPosition(lineCounter: LineCounter, offset: number): Position {
  const { line, col } = lineCounter.linePos(offset);
  // The YAML source starts right after the opening `---` on the file's first line.
  return { line, column: line === 1 ? col + OPEN_LENGTH : col };
}

/** The file up to the end of the line that closes the frontmatter (the whole file when it is not closed). */
function headLines(src: string): string {
  const close = src.indexOf('\n---', OPEN_LENGTH - 1);
  if (close === -1) return src;
  const eol = src.indexOf('\n', close + 4);
  return eol === -1 ? src : src.slice(0, eol + 1);
}

/** A copy of `text` that does not share memory with the string it was sliced from. */
export function detach(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function firstLine(message: string): string {
  return message.split('\n', 1)[0]!.trim();
}
