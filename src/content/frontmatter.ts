/**
 * Splits a Markdown file into YAML frontmatter and body at its `---` lines, and parses the YAML (`yaml`, after a
 * fast path for simple blocks that gives the same data); positions of keys are looked up with `yaml` when a
 * problem needs one, so every problem can name the line and column of the offending key. Syntax problems carry a
 * hint for the common traps (yaml-hints.ts).
 */
import { LineCounter, Scalar, isAlias, isMap, isScalar, isSeq, parseDocument, visit, type Document, type Node, type Range } from 'yaml';
import { parseSimpleYaml } from './simple-yaml.js';
import { commentHint, withSyntaxHints } from './yaml-hints.js';
import { positionAt } from './position.js';

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
  /** What is well formed but likely not meant ({@link cutByComments}); shared and empty when there is none. */
  warnings: readonly LocalProblem[];
}

const NO_WARNINGS: readonly LocalProblem[] = Object.freeze([]);

const OPEN = /^---[ \t]*\r?\n/;
/** The line that closes the frontmatter: the first that starts with `---`. */
const CLOSE = '\n---';
const OPEN_LENGTH = 3;
const YAML_OPTIONS = { prettyErrors: false, uniqueKeys: true, strict: true } as const;
// Positions only: duplicate keys were reported when the data was parsed, and checking them again is quadratic in the
// number of keys.
const LOCATOR_OPTIONS = { ...YAML_OPTIONS, uniqueKeys: false } as const;
/** Closes a cut scalar (FrontmatterLocator.characterAt): a character no forbidden-character check looks for. */
const SENTINEL = 'x';

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
      warnings: NO_WARNINGS,
    };
  }
  const close = src.indexOf(CLOSE, OPEN_LENGTH);
  // The body starts after the closing `---` and its line break; the rest of that line, if any, is the body's.
  let bodyStart = close === -1 ? src.length : close + CLOSE.length;
  if (src[bodyStart] === '\r') bodyStart++;
  if (src[bodyStart] === '\n') bodyStart++;
  const bodyLine = positionAt(src, bodyStart).line;
  const matter = src.slice(OPEN_LENGTH, close === -1 ? src.length : close);
  // A carriage return alone does not end the closing line.
  if (close === -1 || src[bodyStart - 1] === '\r') {
    return {
      yaml: matter,
      data: undefined,
      body: '',
      bodyLine,
      problems: [{ ...FILE_START, message: 'the frontmatter is not closed: add a line "---" after its last key' }],
      warnings: NO_WARNINGS,
    };
  }
  const body = src.slice(bodyStart);
  // A fresh copy: a slice would keep the whole file (lesson text included) alive as long as any value parsed from it.
  // With CRLF line endings the closing delimiter's `\n---` leaves the last YAML line's `\r` behind.
  const yaml = detach(matter.endsWith('\r') ? matter.slice(0, -1) : matter);
  const simple = parseSimpleYaml(yaml);
  // The fast path takes no block with a comment: nothing to warn about.
  if (simple) return { yaml, data: simple, body, bodyLine, problems: [], warnings: NO_WARNINGS };
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
      warnings: NO_WARNINGS,
    };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return {
      yaml,
      data: undefined,
      body,
      bodyLine,
      problems: [{ ...FILE_START, message: `invalid YAML: ${(err as Error).message}` }],
      warnings: NO_WARNINGS,
    };
  }
  return { yaml, data: data ?? {}, body, bodyLine, problems: [], warnings: cutByComments(yaml, doc, lineCounter) };
}

/**
 * Plain (unquoted) values followed on their line by a comment: `title: Booleans #1 and comparisons` is the title
 * `Booleans` and a comment, as YAML says, but rarely what was meant. One warning each, at the `#`, with the line as it
 * reads with the value quoted. A quoted value, a block scalar (`|`, `>`, where `#` is text) and a comment on a line of
 * its own are left alone.
 */
function cutByComments(yaml: string, doc: Document, lineCounter: LineCounter): readonly LocalProblem[] {
  let warnings: LocalProblem[] | undefined;
  visit(doc, {
    Scalar(key, node) {
      if (key === 'key' || node.type !== Scalar.PLAIN || !node.range) return;
      const end = node.range[1];
      const lineEnd = yaml.indexOf('\n', end);
      const rest = yaml.slice(end, lineEnd === -1 ? yaml.length : lineEnd).replace(/\r$/, '');
      const comment = /^[ \t]+#/.exec(rest);
      if (!comment) return;
      const hash = end + comment[0].length - 1;
      const lineStart = yaml.lastIndexOf('\n', node.range[0] - 1) + 1;
      // A plain value over several lines: the hint cannot show it as one line.
      const oneLine = !yaml.slice(node.range[0], end).includes('\n');
      const lineText = oneLine ? yaml.slice(lineStart, lineEnd === -1 ? yaml.length : lineEnd).replace(/\r$/, '') : '';
      const message =
        `a comment cuts this value: YAML reads ${JSON.stringify(rest.trim())} as a comment, so the value is ` +
        `${JSON.stringify(String(node.value))}; hint: ${commentHint(lineText)}`;
      (warnings ??= []).push({ ...toPosition(lineCounter, hash), message });
    },
  });
  return warnings ?? NO_WARNINGS;
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
  /** Made on the first question too: a start makes a locator per file, and most files are never asked one. */
  #pairs: WeakMap<object, Map<string, KeyedPair>> | undefined;

  constructor(yaml: string) {
    this.#yaml = yaml;
  }

  /**
   * The position of the value at `path` (`['stages', 1, 'key']`). Falls back to the deepest ancestor found, then
   * to the file start.
   */
  at(path: readonly (string | number)[]): Position {
    const { offset } = this.#walk(this.#parse().doc.contents, path);
    return offset === undefined ? FILE_START : toPosition(this.#parse().lineCounter, offset);
  }

  /**
   * Where the character at the UTF-16 index `index` of the string at `path` is written: a raw character at itself,
   * one written as an escape (`"\u0007"`, `"\a"`) at its backslash, a line break YAML keeps (an empty line inside a
   * flow scalar, a line of a block scalar) at that line break. When it cannot be placed, the scalar's start, else
   * {@link at}.
   */
  characterAt(path: readonly (string | number)[], index: number): Position {
    const { offset, node } = this.#walk(this.#parse().doc.contents, path);
    const { doc, lineCounter } = this.#parse();
    const scalar = isAlias(node) ? node.resolve(doc) : node;
    if (isScalar(scalar) && scalar.range && typeof scalar.value === 'string') {
      return toPosition(lineCounter, this.#sourceOf(path, scalar.range, scalar.value, index));
    }
    return offset === undefined ? FILE_START : toPosition(lineCounter, offset);
  }

  /**
   * The offset where the source of the string `value`, written at `start`–`end`, gives it its character at
   * `index`, with `yaml` itself decoding escapes, folded lines and block indentation: the scalar's source is cut
   * after ever more characters and closed by a sentinel, until the value holds the character; it is written at the
   * last cut before that one which still parses (not inside an escape).
   */
  #sourceOf(path: readonly (string | number)[], [start, end]: Range, value: string, index: number): number {
    const want = value.slice(0, index + (value.codePointAt(index)! > 0xffff ? 2 : 1));
    const source = this.#yaml.slice(start, end);
    const quote = source[0] === '"' || source[0] === "'" ? source[0] : '';
    // A cut at the start of a line is indented as the scalar's first line with content after its first, so that the
    // sentinel continues the scalar (in a block scalar, as a line of its own indentation).
    const indent = /\n( *)[ \t]*\S/.exec(source)?.[1] ?? '';
    /** The scalar's value with its source cut at `cut`; `undefined` when that does not parse as a string. */
    const valueCut = (cut: number): string | undefined => {
      if (/[\uD800-\uDBFF\r]/.test(this.#yaml[cut - 1] ?? '') && /[\uDC00-\uDFFF\n]/.test(this.#yaml[cut] ?? '')) return undefined;
      const sentinel = this.#yaml[cut - 1] === '\n' ? indent + SENTINEL : SENTINEL;
      const doc = parseDocument(`${this.#yaml.slice(0, cut)}${sentinel}${quote}${this.#yaml.slice(end)}`, LOCATOR_OPTIONS);
      if (doc.errors.length > 0) return undefined;
      const { node } = this.#walk(doc.contents, path);
      const scalar = isAlias(node) ? node.resolve(doc) : node;
      return isScalar(scalar) && typeof scalar.value === 'string' ? scalar.value : undefined;
    };
    // Each character of the value comes from at least one source character: no earlier cut can hold it.
    let holds = start + want.length;
    while (holds < end && !valueCut(holds)?.startsWith(want)) holds++;
    let at = holds - 1;
    while (at > start && valueCut(at) === undefined) at--;
    // A line break placed in a line's indentation comes from that line as a whole: an empty line (spaces only) is
    // placed at its start, a more indented line of a folded scalar at the line break before it.
    const lineStart = this.#yaml.lastIndexOf('\n', at - 1) + 1;
    if (value[index] !== '\n' || lineStart <= start || !/^[ \t]*$/.test(this.#yaml.slice(lineStart, at))) return at;
    if (/^[\r\n]/.test(this.#yaml.slice(at))) return lineStart;
    if (source[0] !== '>') return at;
    return this.#yaml[lineStart - 2] === '\r' ? lineStart - 2 : lineStart - 1;
  }

  #parse(): { doc: ReturnType<typeof parseDocument>; lineCounter: LineCounter } {
    this.#parsed ??= (() => {
      const lineCounter = new LineCounter();
      return { doc: parseDocument(this.#yaml, { ...LOCATOR_OPTIONS, lineCounter }), lineCounter };
    })();
    return this.#parsed;
  }

  /**
   * Follows `path` from a document's root: the offset of the deepest key or item found, and the value node when the
   * whole path was found.
   */
  #walk(root: unknown, path: readonly (string | number)[]): { offset: number | undefined; node: unknown } {
    let node: unknown = root;
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
    this.#pairs ??= new WeakMap();
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

/** A copy of `text` that does not share memory with the string it was sliced from. */
export function detach(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

function firstLine(message: string): string {
  return message.split('\n', 1)[0]!.trim();
}
