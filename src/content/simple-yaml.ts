/**
 * A fast path for the frontmatter most files have: top-level `key: value` lines whose values are plain
 * words, simple quoted strings, decimal integers, or lists of those (flow `[a, b]` or block `- a` items).
 *
 * The `yaml` library costs tens of microseconds per document, which is most of a 10,000-lesson load. This
 * reader answers only when the meaning is certain under YAML 1.2's core schema — the same data `yaml` would
 * produce — and returns `undefined` for everything else (comments, nesting, flow mappings, escapes,
 * multi-line scalars, words that could be null/bool/number, …), which then goes to `yaml`. A test compares
 * both on thousands of generated documents.
 */

const DECIMAL = /^(?:0|[1-9][0-9]{0,14})$/;
const RESERVED_WORD = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|y|Y|n|N|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF)$/;
// Characters that change a scalar's meaning somewhere, or that YAML forbids: control characters but the line feed
// (tabs and carriage returns included), DEL, C1 controls, BOM, and Unicode line/paragraph separators.
const UNSAFE_CHAR = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\ufeff\u2028\u2029]/;
const SPACE = 32;
const COLON = 58;
const DASH = 45;

/**
 * The mapping in `source` when it is simple (see the module comment), otherwise `undefined`.
 * Never throws.
 */
export function parseSimpleYaml(source: string): Record<string, unknown> | undefined {
  if (UNSAFE_CHAR.test(source)) return undefined;
  const out: Record<string, unknown> = {};
  let list: unknown[] | undefined; // the block list being filled, after a `key:` line with no value
  let listIndent = -1;
  let keys = 0;
  // Line by line by index, matched by hand: a start reads a frontmatter block per file, and splitting it and
  // matching each line with patterns made most of its cost.
  for (let start = 0; start <= source.length;) {
    let end = source.indexOf('\n', start);
    if (end === -1) end = source.length;
    const lineStart = start;
    start = end + 1;
    let indent = lineStart;
    while (indent < end && source.charCodeAt(indent) === SPACE) indent++;
    if (indent === end) continue; // blank
    if (list && source.charCodeAt(indent) === DASH) {
      // `- item`: the dash, then the end of the line or spaces and the item.
      const item = afterSpaces(source, indent + 1, end);
      if (listIndent === -1) listIndent = indent - lineStart;
      if (indent - lineStart !== listIndent || item === undefined || item === end) return undefined;
      const value = scalar(source.slice(item, end), false);
      if (value === undefined) return undefined;
      list.push(value);
      continue;
    }
    if (list && list.length === 0) return undefined; // `key:` followed by no items is null, not a list
    list = undefined;
    // `key:`, then the end of the line or spaces and the value.
    const colon = keyEnd(source, lineStart, end);
    if (colon === -1) return undefined;
    const valueStart = afterSpaces(source, colon + 1, end);
    if (valueStart === undefined) return undefined;
    const key = source.slice(lineStart, colon);
    if (Object.prototype.hasOwnProperty.call(out, key) || key === '__proto__') return undefined;
    keys++;
    if (valueStart === end) {
      list = [];
      listIndent = -1;
      out[key] = list;
      continue;
    }
    const raw = source.slice(valueStart, end);
    const value = raw.startsWith('[') ? flowList(raw) : scalar(raw, false);
    if (value === undefined) return undefined;
    out[key] = value;
  }
  if ((list && list.length === 0) || keys === 0) return undefined;
  return out;
}

/**
 * The offset of the `:` ending a key (`[A-Za-z_][A-Za-z0-9_-]*`) that starts at `from`, or -1 when the line does
 * not start with one.
 */
function keyEnd(text: string, from: number, end: number): number {
  if (from === end || !isKeyCharacter(text.charCodeAt(from), true)) return -1;
  let at = from + 1;
  while (at < end && isKeyCharacter(text.charCodeAt(at), false)) at++;
  return at < end && text.charCodeAt(at) === COLON ? at : -1;
}

function isKeyCharacter(c: number, first: boolean): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || (!first && ((c >= 48 && c <= 57) || c === DASH));
}

/**
 * Where what follows a `:` or `-` marker at `from` starts: `end` when the line ends there, past the spaces after it
 * (one at least) otherwise; `undefined` when another character follows the marker.
 */
function afterSpaces(text: string, from: number, end: number): number | undefined {
  if (from === end) return end;
  if (text.charCodeAt(from) !== SPACE) return undefined;
  let at = from + 1;
  while (at < end && text.charCodeAt(at) === SPACE) at++;
  return at;
}

function flowList(raw: string): string[] | undefined {
  const text = raw.trimEnd();
  if (!text.endsWith(']')) return undefined;
  const inner = text.slice(1, -1);
  if (inner.trim() === '') return [];
  const items: string[] = [];
  for (const part of inner.split(',')) {
    const value = scalar(part.trim(), true);
    if (typeof value !== 'string') return undefined; // numbers in lists: leave to the full parser
    items.push(value);
  }
  return items;
}

/** A scalar on its own: a plain word sequence, a simple quoted string, or a decimal integer. */
function scalar(raw: string, inFlow: boolean): string | number | undefined {
  const text = raw.trimEnd();
  if (text === '') return undefined;
  const first = text.charCodeAt(0);
  if (first === 34 /* " */ || first === 39 /* ' */) {
    const quote = text[0]!;
    if (text.length < 2 || !text.endsWith(quote)) return undefined;
    const inner = text.slice(1, -1);
    // No escapes, no embedded quote (which would need doubling or escaping).
    if (inner.includes(quote) || (quote === '"' && inner.includes('\\'))) return undefined;
    return inner;
  }
  if (first >= 48 && first <= 57) return DECIMAL.test(text) ? Number(text) : undefined;
  const letter = (first >= 65 && first <= 90) || (first >= 97 && first <= 122);
  if (!letter) return undefined;
  if (RESERVED_WORD.test(text)) return undefined;
  // A `: ` or a trailing `:` would make a mapping, ` #` starts a comment; in a flow list `:` `#` and brackets
  // have meanings too.
  if (text.includes(': ') || text.endsWith(':') || text.includes(' #')) return undefined;
  if (inFlow && /[:#[\]{}]/.test(text)) return undefined;
  return text;
}
