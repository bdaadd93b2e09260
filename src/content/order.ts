/** The one order of text in this service: by Unicode code point, the same on every machine (no locale). */

/**
 * Compares two strings by code point (JavaScript's `<` compares UTF-16 units, which puts U+10000 and above
 * before U+E000–U+FFFF). A comparator for `Array.prototype.sort`.
 */
export function byCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n;) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}
