/**
 * Splits a Markdown file into YAML frontmatter and body (gray-matter), and parses the YAML (`yaml`, after a
 * fast path for simple blocks that gives the same data); positions of keys are looked up with `yaml` when a
 * problem needs one, so every problem can name the line and column of the offending key.
 */
import matter from 'gray-matter';
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { parseSimpleYaml } from './simple-yaml.js';

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
      yaml: '', data: undefined, body: src, bodyLine: 1,
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
      yaml: file.matter, data: undefined, body: '', bodyLine,
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
      yaml, data: undefined, body, bodyLine,
      problems: doc.errors.map((err) => ({ ...toPosition(lineCounter, err.pos[0]), message: `invalid YAML: ${firstLine(err.message)}` })),
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
    this.#parsed ??= (() => {
      const lineCounter = new LineCounter();
      // Positions only: duplicate keys were reported when the data was parsed, and checking them again is
      // quadratic in the number of keys.
      return { doc: parseDocument(this.#yaml, { ...YAML_OPTIONS, uniqueKeys: false, lineCounter }), lineCounter };
    })();
    let node: unknown = this.#parsed.doc.contents;
    let offset: number | undefined;
    for (const segment of path) {
      if (isMap(node)) {
        const pair = this.#pairsOf(node).get(String(segment));
        if (!pair) break;
        offset = pair.key.range?.[0] ?? offset;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number') {
        const item = node.items[segment] as Node | undefined;
        if (!item) break;
        offset = item.range?.[0] ?? offset;
        node = item;
      } else break;
    }
    return offset === undefined ? FILE_START : toPosition(this.#parsed.lineCounter, offset);
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
