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

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ ]+(.*))?$/;
const ITEM_LINE = /^([ ]*)-(?:[ ]+(.*))?$/;
const DECIMAL = /^(?:0|[1-9][0-9]{0,14})$/;
const RESERVED_WORD = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|y|Y|n|N|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF)$/;
// Characters that change a scalar's meaning somewhere, or that YAML forbids: control characters, tabs,
// DEL, C1 controls, BOM, and Unicode line/paragraph separators.
const UNSAFE_CHAR = /[\u0000-\u001f\u007f-\u009f\ufeff\u2028\u2029]/;

/**
 * The mapping in `source` when it is simple (see the module comment), otherwise `undefined`.
 * Never throws.
 */
export function parseSimpleYaml(source: string): Record<string, unknown> | undefined {
  if (UNSAFE_CHAR.test(source.replace(/\n/g, ''))) return undefined;
  const out: Record<string, unknown> = {};
  let list: unknown[] | undefined; // the block list being filled, after a `key:` line with no value
  let listIndent = -1;
  let keys = 0;
  for (const line of source.split('\n')) {
    if (line.trim() === '') continue;
    const item = list ? ITEM_LINE.exec(line) : null;
    if (item && list) {
      const indent = item[1]!.length;
      if (listIndent === -1) listIndent = indent;
      if (indent !== listIndent || item[2] === undefined) return undefined;
      const value = scalar(item[2], false);
      if (value === undefined) return undefined;
      list.push(value);
      continue;
    }
    if (list && list.length === 0) return undefined; // `key:` followed by no items is null, not a list
    list = undefined;
    const pair = KEY_LINE.exec(line);
    if (!pair) return undefined;
    const key = pair[1]!;
    if (Object.prototype.hasOwnProperty.call(out, key) || key === '__proto__') return undefined;
    keys++;
    const raw = pair[2];
    if (raw === undefined || raw.trim() === '') {
      list = [];
      listIndent = -1;
      out[key] = list;
      continue;
    }
    const value = raw.startsWith('[') ? flowList(raw) : scalar(raw, false);
    if (value === undefined) return undefined;
    out[key] = value;
  }
  if ((list && list.length === 0) || keys === 0) return undefined;
  return out;
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
