import { describe, expect, it } from 'vitest';
import { ReadAhead } from './read-ahead.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

describe('ReadAhead', () => {
  it('copies each file: the buffer it was read into may be reused at once', () => {
    const ahead = new ReadAhead();
    const reused = bytes('first');
    expect(ahead.add('a.md', reused, 's1')).toBe(true);
    reused.set(bytes('XXXXX'));
    expect(ahead.add('b.md', bytes('second'), 's2')).toBe(true);
    expect(ahead.take().map((f) => [f.rel, text(f.bytes), f.stamp])).toEqual([
      ['a.md', 'first', 's1'],
      ['b.md', 'second', 's2'],
    ]);
    expect(ahead.take()).toEqual([]);
  });

  it('is full at 64 files, and empty again once taken', () => {
    const ahead = new ReadAhead();
    for (let i = 0; i < 63; i++) ahead.add(`${i}.md`, bytes(`file ${i}`), '');
    expect(ahead.full).toBe(false);
    ahead.add('63.md', bytes('file 63'), '');
    expect(ahead.full).toBe(true);
    const run = ahead.take();
    expect(run.map((f) => text(f.bytes))).toEqual(Array.from({ length: 64 }, (_, i) => `file ${i}`));
    expect(ahead.full).toBe(false);
  });

  it('refuses, adding nothing, a file that does not fit in what is left of its 1 MiB, and one larger than that', () => {
    const ahead = new ReadAhead();
    expect(ahead.add('big.md', new Uint8Array(1024 * 1024 - 10).fill(97), '')).toBe(true);
    expect(ahead.add('next.md', new Uint8Array(11), '')).toBe(false);
    expect(ahead.take().map((f) => [f.rel, f.bytes.length])).toEqual([['big.md', 1024 * 1024 - 10]]);
    expect(ahead.add('next.md', new Uint8Array(11).fill(98), '')).toBe(true);
    expect(ahead.add('huge.md', new Uint8Array(1024 * 1024 + 1), '')).toBe(false);
    expect(ahead.take().map((f) => [f.rel, text(f.bytes)])).toEqual([['next.md', 'b'.repeat(11)]]);
  });
});
