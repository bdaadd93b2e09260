/**
 * Edits a content file's frontmatter in place, keeping every other byte: the writer's layout, quoting and comments,
 * and the body. The `yaml` Document API finds the nodes and their source ranges; the new text is spliced in there.
 * (`Document.toString()` would re-serialise the whole block: long lines folded, `[a,b]` respaced, quotes changed.)
 */
import { isDeepStrictEqual } from 'node:util';
import { isScalar, isSeq, parseDocument, stringify, type Node } from 'yaml';

/** An edit that cannot be made without rewriting more than the value itself (the file is left as it was). */
export class FrontmatterEditError extends Error {}

/**
 * `text` with `item` appended to the list under the top-level `key` of its frontmatter: a block list gets a new line
 * `- item` written like its last item's, a flow list `[a, b]` gets `, item` with the separator it already uses.
 * @throws FrontmatterEditError when the frontmatter or the list is not in a shape this can extend safely
 */
export function appendToList(text: string, key: string, item: string): string {
  return editFrontmatter(text, (yaml) => {
    const doc = parseDocument(yaml);
    const list = doc.get(key, true) as Node | undefined;
    if (!isSeq(list) || !list.range) throw new FrontmatterEditError(`"${key}" is not a list`);
    const written = scalarText(item);
    const items = list.items as Node[];
    const edited = list.flow ? appendToFlow(yaml, list.range, items, written) : appendToBlock(yaml, items, written);
    const before = doc.toJS() as Record<string, unknown>;
    return { edited, expected: { ...before, [key]: [...(before[key] as unknown[]), item] } };
  });
}

/**
 * `text` with the scalar under the top-level `key` of its frontmatter replaced by `value` (written plain when YAML
 * reads it back as the same string, quoted otherwise); a comment after it stays.
 * @throws FrontmatterEditError when `key` holds no scalar
 */
export function setScalar(text: string, key: string, value: string): string {
  return editFrontmatter(text, (yaml) => {
    const doc = parseDocument(yaml);
    const node = doc.get(key, true) as Node | undefined;
    if (!isScalar(node) || !node.range) throw new FrontmatterEditError(`"${key}" is not a single value`);
    const [start, end] = node.range;
    const before = doc.toJS() as Record<string, unknown>;
    return { edited: yaml.slice(0, start) + scalarText(value) + yaml.slice(end), expected: { ...before, [key]: value } };
  });
}

/**
 * Applies `edit` to the YAML between the frontmatter's delimiters and checks that the result parses to exactly the
 * data expected (so a splice can never change anything else).
 */
function editFrontmatter(text: string, edit: (yaml: string) => { edited: string; expected: unknown }): string {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const open = /^---[ \t]*\r?\n/.exec(text.slice(bom));
  // The first line starting with `---` closes the block, as in frontmatter.ts (splitFile).
  const close = open ? text.indexOf('\n---', bom + open[0].length - 1) : -1;
  if (!open || close === -1) throw new FrontmatterEditError('the file has no closed frontmatter');
  const start = bom + open[0].length;
  const end = close + 1;
  const yaml = text.slice(start, end);
  const { edited, expected } = edit(yaml);
  const check = parseDocument(edited);
  if (check.errors.length > 0 || !isDeepStrictEqual(check.toJS(), expected)) {
    throw new FrontmatterEditError('the edit would change more than the value (an unusual layout)');
  }
  return text.slice(0, start) + edited + text.slice(end);
}

/** `value` as a YAML scalar that reads back as this string: plain when it can be (`py-loops`), else quoted (`"2024"`). */
function scalarText(value: string): string {
  return stringify(value, { lineWidth: 0 }).trimEnd();
}

function appendToFlow(yaml: string, range: readonly number[], items: Node[], item: string): string {
  const close = range[1]! - 1; // the `]`
  if (yaml[close] !== ']') throw new FrontmatterEditError('the flow list does not end with "]"');
  const last = items.at(-1);
  if (!last?.range) {
    // `[]` → `[item]`; `[ ]` → `[ item ]`.
    const inside = yaml.slice(range[0]! + 1, close);
    const spaced = inside !== '' && !inside.includes('\n') ? ` ${item} ` : item;
    return yaml.slice(0, range[0]! + 1) + spaced + yaml.slice(close);
  }
  const lastEnd = last.range[1];
  const previous = items.at(-2)?.range;
  // The separator the list uses between its items (`, `, `,`, `,\n  `); with one item, a comma and a space, or for an
  // item on a line of its own, a line break and its indentation.
  const separator = previous
    ? yaml.slice(previous[1], last.range[0])
    : /\n[ \t]*$/.test(yaml.slice(0, last.range[0]))
      ? `,${yaml.slice(yaml.lastIndexOf('\n', last.range[0]), last.range[0])}`
      : ', ';
  if (!/^[ \t]*,[ \t\r\n]*$/.test(separator)) throw new FrontmatterEditError('the flow list holds comments between its items');
  const trailing = /^[ \t]*,/.exec(yaml.slice(lastEnd, close));
  if (trailing) {
    // `[a, b,]` → `[a, b, c,]`: the new item goes after the trailing comma, and gets one.
    const at = lastEnd + trailing[0].length;
    return yaml.slice(0, at) + separator.slice(separator.indexOf(',') + 1) + item + ',' + yaml.slice(at);
  }
  return yaml.slice(0, lastEnd) + separator + item + yaml.slice(lastEnd);
}

function appendToBlock(yaml: string, items: Node[], item: string): string {
  const last = items.at(-1);
  if (!last?.range) throw new FrontmatterEditError('the list is empty');
  const lineStart = yaml.lastIndexOf('\n', last.range[0] - 1) + 1;
  // `  - ` before the last item, copied for the new one; anything else (`- - a`, an anchor) is not a plain item.
  const prefix = yaml.slice(lineStart, last.range[0]);
  if (!/^[ \t]*-[ \t]+$/.test(prefix)) throw new FrontmatterEditError('the list\'s last item is not on a line "- item" of its own');
  const eol = yaml.indexOf('\n', last.range[1]);
  if (eol === -1) throw new FrontmatterEditError("the list's last item does not end its line");
  const newline = yaml[eol - 1] === '\r' ? '\r\n' : '\n';
  return yaml.slice(0, eol + 1) + prefix + item + newline + yaml.slice(eol + 1);
}
