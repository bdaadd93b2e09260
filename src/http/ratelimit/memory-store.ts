/**
 * The in-process counter store: fixed windows in an LRU cache bounded in entries, so a flood from any number of
 * distinct addresses costs at most `maxBuckets` entries of memory. When the bound is reached the least recently
 * used buckets are dropped (those clients start a fresh window): memory stays bounded at the price of forgetting
 * the quietest clients first.
 */
import { LRUCache } from 'lru-cache';
import type { HitResult, RateLimitStore, StoreHealth } from './store.js';

/** One fixed window. */
interface Bucket {
  count: number;
  /** Clock time (ms) at which the window ends. */
  endsAt: number;
}

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /** Most buckets kept at once (default 100,000; the flood benchmark measures their memory). */
  maxBuckets?: number;
  /** Clock in milliseconds (default `Date.now`); injectable for tests. */
  now?: () => number;
}

/** Default bound on the number of buckets. */
export const DEFAULT_MAX_BUCKETS = 100_000;

/** {@link RateLimitStore} in this process's memory. */
export class MemoryStore implements RateLimitStore {
  readonly #buckets: LRUCache<string, Bucket>;
  readonly #now: () => number;

  constructor(options: MemoryStoreOptions = {}) {
    const max = options.maxBuckets ?? DEFAULT_MAX_BUCKETS;
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`maxBuckets must be a positive integer, got ${max}`);
    this.#buckets = new LRUCache<string, Bucket>({ max });
    this.#now = options.now ?? Date.now;
  }

  /** Number of buckets held (for tests and diagnostics). */
  get size(): number {
    return this.#buckets.size;
  }

  hit(key: string, windowMs: number, options: { spend: boolean }): HitResult {
    const now = this.#now();
    let bucket = this.#buckets.get(key);
    if (bucket === undefined || now >= bucket.endsAt) {
      if (!options.spend) return { count: 0, resetMs: windowMs };
      bucket = { count: 0, endsAt: now + windowMs };
      this.#buckets.set(key, bucket);
    }
    if (options.spend) bucket.count += 1;
    return { count: bucket.count, resetMs: bucket.endsAt - now };
  }

  health(): StoreHealth {
    return { store: 'memory', status: 'ok' };
  }

  close(): Promise<void> {
    this.#buckets.clear();
    return Promise.resolve();
  }
}
