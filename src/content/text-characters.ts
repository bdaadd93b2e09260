/**
 * Characters no text of the content may hold: C0 and C1 control characters (tab and line breaks aside, which YAML
 * block scalars and Markdown use), Unicode non-characters, and lone surrogates. They are invisible in an editor,
 * break the Atom feed (XML 1.0 allows none of the C0 controls) and mean nothing in a title. One rule, used for
 * every frontmatter value and for Markdown bodies.
 */

/** The last two code points of planes 1–16 (U+1FFFE, U+1FFFF, …, U+10FFFF), as regular-expression escapes. */
const PLANE_ENDS = Array.from({ length: 16 }, (_, i) => `\\u{${(i + 1).toString(16)}FFFE}\\u{${(i + 1).toString(16)}FFFF}`).join('');

/**
 * One forbidden character. C0 except tab (09), line feed (0A) and carriage return (0D, only as part of a line
 * ending); DEL and C1 (7F–9F); the non-characters FDD0–FDEF and the last two code points of every plane
 * (xFFFE, xFFFF); lone surrogates.
 */
const FORBIDDEN = new RegExp(
  // With the u flag the class sees code points: a surrogate pair is one character, and [\uD800-\uDFFF] only matches
  // a lone surrogate.
  `[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\uFDD0-\\uFDEF\\uFFFE\\uFFFF\\uD800-\\uDFFF${PLANE_ENDS}]|\\r(?!\\n)`,
  'u',
);

/** A forbidden character found in a text: its UTF-16 index and its code point. */
export interface ForbiddenCharacter {
  index: number;
  codePoint: number;
}

/** The first forbidden character of `text`, or `undefined` when it has none. */
export function findForbiddenCharacter(text: string): ForbiddenCharacter | undefined {
  const match = FORBIDDEN.exec(text);
  if (match === null) return undefined;
  return { index: match.index, codePoint: match[0].codePointAt(0)! };
}

/** `U+0007`, `U+FFFE`, `U+1FFFF`: the code point as Unicode writes it. */
export function codePointName(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The problem message for a forbidden character in `what` (e.g. `"title"`, `the body`). */
export function forbiddenCharacterMessage(what: string, found: ForbiddenCharacter): string {
  const cp = found.codePoint;
  const shown =
    cp >= 0xd800 && cp <= 0xdfff ? 'a lone surrogate' : `${cp <= 0x9f ? 'the control character' : 'the non-character'} ${codePointName(cp)}`;
  return `${what} contains ${shown}; text may hold no control characters but tab and line breaks, and no Unicode non-characters`;
}

/** Every string in a parsed YAML value with the path to it (keys and indexes), depth first. */
export function* stringsIn(value: unknown, path: (string | number)[] = []): Generator<[readonly (string | number)[], string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (let i = 0; i < value.length; i++) yield* stringsIn(value[i], [...path, i]);
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* stringsIn(v, [...path, k]);
}
