import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { addressBucket } from '../src/net/address-bucket.js';
import { decide, DEFAULT_LIMITS } from '../src/http/ratelimit/budgets.js';
import { DEFAULT_MAX_BUCKETS, MemoryStore } from '../src/http/ratelimit/memory-store.js';

const MB = 1024 * 1024;

/** A full garbage collection, so heap figures count live objects only. */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The n-th of a million distinct client addresses: IPv4 for even n, IPv6 (distinct /64s) for odd n. */
function address(n: number): string {
  return n % 2 === 0 ? `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` : `2001:db8:${(n >> 16).toString(16)}:${(n & 0xffff).toString(16)}::1`;
}

describe('a flood from a million distinct addresses', () => {
  it('keeps the in-process store bounded in entries and memory', async () => {
    const store = new MemoryStore();
    gc();
    const before = process.memoryUsage();
    let refused = 0;
    for (let n = 0; n < 1_000_000; n++) {
      const decision = await decide(store, DEFAULT_LIMITS, { bucket: addressBucket(address(n)), kind: 'anonymous', pathClass: 'read' });
      if (!decision.allowed) refused++;
    }
    gc();
    const after = process.memoryUsage();
    const heapGrowthMb = (after.heapUsed - before.heapUsed) / MB;
    console.log(
      `flood: 1,000,000 addresses, ${store.size} buckets kept (bound ${DEFAULT_MAX_BUCKETS}); ` +
        `RSS ${(before.rss / MB).toFixed(0)} → ${(after.rss / MB).toFixed(0)} MB, heap used +${heapGrowthMb.toFixed(0)} MB`,
    );
    expect(refused).toBe(0); // each address asked once
    expect(store.size).toBe(DEFAULT_MAX_BUCKETS);
    // A million live buckets take well over 100 MB of heap; the bound keeps it to a few tens.
    expect(heapGrowthMb).toBeLessThan(60);
    // The latest clients are still counted.
    const again = await decide(store, DEFAULT_LIMITS, { bucket: addressBucket(address(999_999)), kind: 'anonymous', pathClass: 'read' });
    expect(again.state.remaining).toBe(DEFAULT_LIMITS.anonymous - 2);
  });
});
