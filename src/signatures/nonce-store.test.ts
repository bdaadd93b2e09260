import { describe, expect, it } from 'vitest';
import { MemoryNonceStore } from './nonce-store.js';

describe('MemoryNonceStore', () => {
  it('knows no pair before the first is recorded, then refuses each pair a second time', async () => {
    const store = new MemoryNonceStore();
    expect(store.has('key-a', 'n1')).toBe(false);
    expect(store.size).toBe(0);
    expect(await store.record('key-a', 'n1', 60)).toBe(true);
    expect(store.has('key-a', 'n1')).toBe(true);
    expect(await store.record('key-a', 'n1', 60)).toBe(false); // a replay
    expect(store.recordNow('key-b', 'n1', 60)).toBe(true); // the same nonce under another key is another pair
    expect(store.size).toBe(2);
  });

  it('remembers at most maxEntries pairs, forgetting the least recently seen first', () => {
    const store = new MemoryNonceStore(2);
    for (const nonce of ['n1', 'n2', 'n3']) expect(store.recordNow('key', nonce, 60)).toBe(true);
    expect(store.size).toBe(2);
    expect(store.has('key', 'n1')).toBe(false);
    expect(store.has('key', 'n3')).toBe(true);
  });
});
