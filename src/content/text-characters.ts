/**
 * The one rule for the characters content text may hold. Control characters and Unicode non-characters are
 * invisible in an editor, mean nothing in a title, and break formats: XML 1.0 allows no C0 control but tab and
 * line breaks and no U+FFFE/U+FFFF, so one BEL in a changelog title made `/changelog.atom` ill-formed; HTML calls
 * them parse errors. Every string of the frontmatter (any field, in nested lists and mappings, after YAML has
 * decoded its escapes) and every Markdown body is checked with {@link findForbiddenCharacter}, by the loader and
 * so by `syllabus-content validate`.
 *
 * - **one-line text** (every frontmatter field but those the schemas declare multi-line): no C0 control at all,
 *   not even tab or a line break; no DEL, no C1 control (U+0080–U+009F); no non-character; no lone surrogate.
 * - **multi-line text** (the body, and the fields whose schema is `defs.schema.json#/$defs/Paragraph`): the same,
 *   but tab, line feed and a carriage return before a line feed (CRLF line endings) are allowed.
 *
 * Non-characters are U+FDD0–U+FDEF and the last two code points of every plane (U+FFFE, U+FFFF, U+1FFFE, …,
 * U+10FFFF). A lone surrogate cannot come from a UTF-8 file but can from a YAML escape such as `"\uD800"`.
 */

/** Which line-layout characters a text may hold: none (`one-line`), or tab and line breaks (`multi-line`). */
export type TextKind = 'one-line' | 'multi-line';

/**
 * The code units that may start a forbidden character; {@link findForbiddenCharacter} decides on each. A class of
 * code units without the `u` flag: scanning a whole lesson with a code-point class (`u`) or with a look-ahead for
 * CRLF is several times slower, and bodies are most of the bytes of a load.
 * - one-line: every C0 control; multi-line: every C0 control but tab (09) and line feed (0A), carriage return (0D)
 *   included, to be let through before a line feed;
 * - both: DEL and C1 (7F–9F), the non-characters FDD0–FDEF, FFFE and FFFF, and every surrogate (a lone one is
 *   forbidden; a pair is checked for the non-characters at the end of planes 1–16, U+1FFFE … U+10FFFF).
 */
const CANDIDATES: Record<TextKind, RegExp> = {
  'one-line': /[\u0000-\u001F\u007F-\u009F\uD800-\uDFFF\uFDD0-\uFDEF\uFFFE\uFFFF]/g,
  'multi-line': /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\uD800-\uDFFF\uFDD0-\uFDEF\uFFFE\uFFFF]/g,
};

/** A forbidden character found in a text: its UTF-16 index and its code point. */
export interface ForbiddenCharacter {
  index: number;
  codePoint: number;
}

/** The first character of `text` that text of `kind` may not hold, or `undefined` when there is none. */
export function findForbiddenCharacter(text: string, kind: TextKind): ForbiddenCharacter | undefined {
  const candidates = CANDIDATES[kind];
  candidates.lastIndex = 0;
  for (let match = candidates.exec(text); match !== null; match = candidates.exec(text)) {
    const index = match.index;
    const unit = text.charCodeAt(index);
    if (unit === 0x0d && kind === 'multi-line' && text.charCodeAt(index + 1) === 0x0a) continue; // CRLF
    const codePoint = text.codePointAt(index)!; // a lone surrogate's own value
    if (codePoint > 0xffff) {
      if ((codePoint & 0xfffe) === 0xfffe) return { index, codePoint }; // U+1FFFE, U+1FFFF, …
      candidates.lastIndex = index + 2; // a character outside the BMP: both halves of the pair are fine
      continue;
    }
    return { index, codePoint };
  }
  return undefined;
}

/** What text of each kind allows, for messages. */
const ALLOWED: Record<TextKind, string> = {
  'one-line': 'one-line text allows no control character, not even tab or a line break, and no Unicode non-character',
  'multi-line': 'text allows tab and line breaks but no other control character, and no Unicode non-character',
};

// The abbreviations of the C0 controls (00–1F) and the C1 controls (80–9F; PAD, HOP and SGC are informal aliases).
const C0 = 'NUL SOH STX ETX EOT ENQ ACK BEL BS TAB LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB ESC FS GS RS US'.split(' ');
const C1 = 'PAD HOP BPH NBH IND NEL SSA ESA HTS HTJ VTS PLD PLU RI SS2 SS3 DCS PU1 PU2 STS CCH MW SPA EPA SOS SGC SCI CSI ST OSC PM APC'.split(' ');

/** `U+0007`, `U+FFFE`, `U+1FFFF`: the code point as Unicode writes it. */
function codePointName(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `the control character U+0007 (BEL)`, `the non-character U+FFFE`, `a lone surrogate U+D800`. */
function describeCharacter(codePoint: number): string {
  const name = codePointName(codePoint);
  if (codePoint <= 0x1f) return `the control character ${name} (${C0[codePoint]}${codePoint === 0x0a || codePoint === 0x0d ? ', a line break' : ''})`;
  if (codePoint === 0x7f) return `the control character ${name} (DEL)`;
  if (codePoint >= 0x80 && codePoint <= 0x9f) return `the control character ${name} (${C1[codePoint - 0x80]})`;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return `a lone surrogate ${name} (half of a UTF-16 pair)`;
  return `the non-character ${name}`;
}

/**
 * The problem message: `"title": contains the control character U+0007 (BEL); one-line text allows …`.
 * @param field the field as messages name it (`"title"`, `"deprecates[0].path"`), or `body`.
 */
export function forbiddenCharacterMessage(field: string, found: ForbiddenCharacter, kind: TextKind): string {
  return `${field}: contains ${describeCharacter(found.codePoint)}; ${ALLOWED[kind]}`;
}

/**
 * Calls `visit` with every string in a parsed YAML value and the path to it (keys and indexes), depth first.
 * `path` is one array, valid during the call only (copy it to keep it): every frontmatter string is visited, and a
 * generator with a new path per value cost several times more.
 */
export function forEachString(value: unknown, visit: (path: readonly (string | number)[], text: string) => void): void {
  const path: (string | number)[] = [];
  const walk = (node: unknown): void => {
    if (typeof node === 'string') visit(path, node);
    else if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        path.push(i);
        walk(node[i]);
        path.pop();
      }
    } else if (node !== null && typeof node === 'object') {
      for (const key of Object.keys(node)) {
        path.push(key);
        walk((node as Record<string, unknown>)[key]);
        path.pop();
      }
    }
  };
  walk(value);
}
