/**
 * Where fixed-window counters live. Implementations: {@link MemoryStore} (in-process, the default) and the
 * Redis store (`src/server/redis-store.ts`, shared by several instances).
 */

/** A counter after one request. */
export interface HitResult {
  /** Requests counted in the current window, this one included when it was spent (0 for a window not yet begun). */
  count: number;
  /** Milliseconds until the window ends (the full window length for a window not yet begun). Never negative. */
  resetMs: number;
}

/** Whether the store is answering, for `/health`. */
export interface StoreHealth {
  /** `memory` or `redis`. */
  store: 'memory' | 'redis';
  /** `ok`, or `unavailable` while the shared store cannot be reached (counting falls back to this process). */
  status: 'ok' | 'unavailable';
  /** When the current outage began (ISO 8601), while unavailable. */
  since?: string;
}

/** A fixed-window counter store. */
export interface RateLimitStore {
  /**
   * Counts one request against `key` (when `spend`) and reports the window. A window starts at the first spent
   * request and lasts `windowMs`; a request at or after its end starts a new one.
   * @param key the bucket, e.g. `read:browser:203.0.113.7`.
   * @param windowMs window length in milliseconds.
   * @param options `spend: false` reports the bucket without counting (for `/health`, `/openapi.json`, `/docs`);
   *   a shared store may answer it from its latest local view, without a round trip.
   * Must not reject: a store that cannot reach its backend answers from a local fallback.
   */
  hit(key: string, windowMs: number, options: { spend: boolean }): HitResult | Promise<HitResult>;
  /**
   * Counts one request in several buckets at once, atomically (both budgets of a referral lookup). Optional: a
   * store without it gets one {@link RateLimitStore.hit} per bucket. Must not reject.
   * @returns one result per bucket, in order.
   */
  hitMany?(buckets: ReadonlyArray<{ key: string; windowMs: number }>): Promise<HitResult[]>;
  /** Current availability, for `/health`. */
  health(): StoreHealth;
  /** Releases connections and timers. */
  close(): Promise<void>;
}
