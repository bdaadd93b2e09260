import { describe, expect, it } from 'vitest';
import { MemoryStore } from './memory-store.js';

function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t };
  return c;
}

describe('MemoryStore', () => {
  it('starts a window at the first spent request and ends it exactly windowMs later', () => {
    const c = clock();
    const store = new MemoryStore({ now: c.now });
    expect(store.hit('k', 60_000, { spend: true })).toEqual({ count: 1, resetMs: 60_000 });
    c.t += 59_999;
    expect(store.hit('k', 60_000, { spend: true })).toEqual({ count: 2, resetMs: 1 });
    c.t += 1; // the window's end belongs to the next window
    expect(store.hit('k', 60_000, { spend: true })).toEqual({ count: 1, resetMs: 60_000 });
  });

  it('reads without spending and creates no bucket for a read', () => {
    const c = clock();
    const store = new MemoryStore({ now: c.now });
    expect(store.hit('k', 60_000, { spend: false })).toEqual({ count: 0, resetMs: 60_000 });
    expect(store.size).toBe(0);
    store.hit('k', 60_000, { spend: true });
    c.t += 10_000;
    expect(store.hit('k', 60_000, { spend: false })).toEqual({ count: 1, resetMs: 50_000 });
    expect(store.hit('k', 60_000, { spend: false })).toEqual({ count: 1, resetMs: 50_000 });
  });

  it('keeps keys apart', () => {
    const store = new MemoryStore({ now: clock().now });
    store.hit('a', 1000, { spend: true });
    store.hit('a', 1000, { spend: true });
    expect(store.hit('b', 1000, { spend: true }).count).toBe(1);
  });

  it('holds at most maxBuckets buckets however many keys arrive', () => {
    const store = new MemoryStore({ maxBuckets: 1000, now: clock().now });
    for (let i = 0; i < 50_000; i++) store.hit(`read:anonymous:10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, 60_000, { spend: true });
    expect(store.size).toBe(1000);
    // The most recent client is still counted.
    expect(store.hit('read:anonymous:10.0.195.79', 60_000, { spend: true }).count).toBe(2);
  });

  it('refuses a nonsensical bound', () => {
    expect(() => new MemoryStore({ maxBuckets: 0 })).toThrow(RangeError);
  });
});
