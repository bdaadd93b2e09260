/**
 * Replay detection for signatures that carry a `nonce` (RFC 9421 §7.2.2): a (keyid, nonce) pair is recorded
 * until the signature expires, so a replay within its lifetime is not verified. The verifier is given a
 * {@link NonceStore}; the default, {@link MemoryNonceStore}, remembers pairs in this process only, so with several
 * instances a replay to another instance is detected only by a shared store (on Node with Redis:
 * `src/server/redis-nonce-store.ts`). Portable: no Node-only modules.
 */
import { LRUCache } from 'lru-cache';

/** Default bound on remembered (keyid, nonce) pairs. */
export const DEFAULT_NONCE_CACHE_SIZE = 100_000;

/** Longest nonce accepted, in characters: the verifier refuses longer ones, and no store keeps one. */
export const MAX_NONCE_LENGTH = 256;

/** Where used (keyid, nonce) pairs are recorded until their signature expires. */
export interface NonceStore {
  /**
   * Records the pair unless it is already recorded, for `ttlSeconds`; check and record are one atomic step, so
   * of several requests carrying the same pair (concurrent, or sent to several instances sharing the store)
   * exactly one gets `true`. The verifier calls it only once the signature has verified, so a forged
   * signature cannot use up the nonce of a real one.
   * @param ttlSeconds how long to keep it: seconds until the signature expires, clock skew included (at least 1
   *   second is kept).
   * @returns `true` when the pair is new (recorded now), `false` when it was already recorded (a replay).
   *   Never rejects: a store that cannot reach its backend answers from a local fallback.
   */
  record(keyid: string, nonce: string, ttlSeconds: number): Promise<boolean>;
  /**
   * Optional cheap pre-check, run before the key-directory fetch and the public-key operation: `true` when the
   * pair is known to be recorded already. Answered from memory, without a round trip, so it may miss a pair
   * recorded elsewhere (then {@link NonceStore.record} still refuses it); it must never say `true` for a pair
   * that was not recorded.
   */
  has?(keyid: string, nonce: string): boolean;
}

/**
 * {@link NonceStore} in this process's memory. Bounded: at most `maxEntries` pairs; past that the least recently
 * seen pair is forgotten first (an attacker would need that many fresh, validly signed requests to push a pair
 * out).
 */
export class MemoryNonceStore implements NonceStore {
  readonly #maxEntries: number;
  /**
   * Made on the first pair recorded: lru-cache allocates room for every entry up front, a visible part of the
   * server's start, which a service that never sees a signed request need not spend.
   */
  #seen: LRUCache<string, true> | undefined;

  /** @param maxEntries bound on remembered pairs. */
  constructor(maxEntries: number = DEFAULT_NONCE_CACHE_SIZE) {
    this.#maxEntries = maxEntries;
  }

  /** Whether this pair was already recorded and has not expired yet. */
  has(keyid: string, nonce: string): boolean {
    return this.#seen?.has(pairKey(keyid, nonce)) ?? false;
  }

  /** Synchronous inside: check and record happen in one turn of the event loop. */
  record(keyid: string, nonce: string, ttlSeconds: number): Promise<boolean> {
    return Promise.resolve(this.recordNow(keyid, nonce, ttlSeconds));
  }

  /** {@link record} without the promise, for a store that uses this one as its local part. */
  recordNow(keyid: string, nonce: string, ttlSeconds: number): boolean {
    const key = pairKey(keyid, nonce);
    this.#seen ??= new LRUCache<string, true>({ max: this.#maxEntries, ttlAutopurge: false });
    if (this.#seen.has(key)) return false;
    this.#seen.set(key, true, { ttl: Math.max(1, Math.ceil(ttlSeconds)) * 1000 });
    return true;
  }

  /** Number of remembered pairs (expired ones may still be counted until touched). */
  get size(): number {
    return this.#seen?.size ?? 0;
  }
}

function pairKey(keyid: string, nonce: string): string {
  // A keyid is base64url (the verifier checks it): no space, so a space cannot make two pairs collide.
  return `${keyid} ${nonce}`;
}
