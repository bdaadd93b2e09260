import { describe, expect, it } from 'vitest';
import { byCodePoint, sortByCodePoint } from './order.js';

/** The order by definition: the strings' code points, compared one by one. */
function reference(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

// ASCII, Latin-1, the units around the surrogates, astral characters, and lone surrogates.
const POOL = [
  'a',
  'b',
  'é',
  '\u07ff',
  '\ud7ff',
  '\ue000',
  '\ufffd',
  '\uffff',
  '\u{10000}',
  '\u{1f600}',
  '\u{1f601}',
  '\u{10ffff}',
  '\ud800',
  '\udfff',
  '',
];

/** A seeded random string of up to 5 pieces of the pool. */
function randomStrings(count: number): string[] {
  let seed = 42;
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  return Array.from({ length: count }, () => Array.from({ length: next(6) }, () => POOL[next(POOL.length)]).join(''));
}

describe('byCodePoint', () => {
  it('orders as the code points do, where UTF-16 order parts from them too', () => {
    expect(byCodePoint('\u{1f600}', '\ufffd')).toBeGreaterThan(0);
    expect('\u{1f600}' < '\ufffd').toBe(true);
    expect(byCodePoint('x\u{10000}', 'x\ue000')).toBeGreaterThan(0);
    expect(byCodePoint('ab', 'ab')).toBe(0);
    expect(byCodePoint('a', 'ab')).toBeLessThan(0);
    const strings = randomStrings(3000);
    for (let i = 1; i < strings.length; i++) {
      expect(Math.sign(byCodePoint(strings[i - 1]!, strings[i]!)), `${JSON.stringify(strings[i - 1])} vs ${JSON.stringify(strings[i])}`).toBe(
        Math.sign(reference(strings[i - 1]!, strings[i]!)),
      );
    }
  });
});

describe('sortByCodePoint', () => {
  it('sorts by code point whatever the order given, and leaves items already in order as they are', () => {
    const strings = randomStrings(500).map((text, i) => ({ text, i }));
    const expected = [...strings].sort((a, b) => reference(a.text, b.text) || a.i - b.i).map((s) => s.text);
    const shuffled = [...strings].reverse();
    expect(sortByCodePoint(shuffled, (s) => s.text).map((s) => s.text)).toEqual(expected);
    // In UTF-16 order (JavaScript's default sort) but not in code-point order: sorted again.
    const utf16 = ['\ue000', '\u{10000}', 'a'].sort();
    expect(sortByCodePoint(utf16, (s) => s)).toEqual(['a', '\ue000', '\u{10000}']);
    const inOrder = ['a', 'b', 'c'];
    expect(sortByCodePoint(inOrder, (s) => s)).toBe(inOrder);
  });
});
