/**
 * Ids derived from titles: the id grammar of `schemas/defs.schema.json#/$defs/Id` (lowercase letters and digits in
 * hyphen-separated words, at most {@link ID_MAX_LENGTH} characters).
 */
import { ID_MAX_LENGTH } from '../../contract/params.js';

// Latin letters that Unicode does not decompose into a base letter and a mark (NFKD leaves them whole).
const LETTERS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', þ: 'th', ł: 'l', ı: 'i', ħ: 'h' };

/**
 * The id a title suggests: accents dropped (`Éléments` → `elements`), apostrophes dropped (`Don't` → `dont`), every
 * other run of characters that are not ASCII letters or digits made one hyphen, and cut to at most `maxLength`
 * characters at a word boundary when there is one. `undefined` when nothing is left (a title with no Latin letter or
 * digit, such as `日本語` or `!!!`).
 * @example slugify('Hello, world!') // 'hello-world'
 */
export function slugify(title: string, maxLength: number = ID_MAX_LENGTH): string | undefined {
  const ascii = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæœøđðþłıħ]/g, (c) => LETTERS[c]!)
    .replace(/['’‘`]/g, '');
  const words = ascii.split(/[^a-z0-9]+/).filter((w) => w !== '');
  let slug = '';
  for (const word of words) {
    const next = slug === '' ? word : `${slug}-${word}`;
    if (next.length > maxLength) {
      // A first word longer than the limit is cut; otherwise the words that fit are kept whole.
      if (slug === '') slug = word.slice(0, maxLength);
      break;
    }
    slug = next;
  }
  return slug === '' ? undefined : slug;
}
