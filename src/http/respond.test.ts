import { describe, expect, it } from 'vitest';
import { utf8Length } from './respond.js';

const encoded = (text: string): number => new TextEncoder().encode(text).byteLength;

describe('utf8Length', () => {
  it.each([
    ['', 'empty'],
    ['{"detail":"Lesson not found"}', 'ASCII'],
    ['café', 'two bytes'],
    ['€ and ✓', 'three bytes'],
    ['😀😀', 'a surrogate pair: four bytes'],
    ['\uD83D', 'a lone high surrogate at the end: U+FFFD'],
    ['\uD83Dx', 'a high surrogate before a non-surrogate'],
    ['\uDE00x', 'a lone low surrogate'],
    ['\uD83D\uD83D\uDE00', 'a high surrogate, then a pair'],
    ['\u007F\u0080\u07FF\u0800\uFFFF', 'each boundary'],
  ])('counts %j (%s) as TextEncoder encodes it', (text) => {
    expect(utf8Length(text)).toBe(encoded(text));
  });

  it('agrees with TextEncoder on random text of every kind of code unit', () => {
    const units = [0x41, 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfffd, 0xffff];
    let seed = 42;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 2_000; i++) {
      const text = String.fromCharCode(...Array.from({ length: random(12) }, () => units[random(units.length)]!));
      expect(utf8Length(text)).toBe(encoded(text));
    }
  });
});
