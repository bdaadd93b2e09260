/**
 * Replay detection for signatures that carry a `nonce` (RFC 9421 §7.2.2): a (keyid, nonce) pair is
 * remembered until the signature expires, so a replay within its lifetime is not verified.
 * Bounded: at most `maxEntries` pairs; past that the least recently seen pair is forgotten first (an attacker
 * would need that many fresh, validly signed requests to push a pair out). In-process only: with several
 * instances a replay to another instance is not detected. Portable: no Node-only modules.
 */
import { LRUCache } from 'lru-cache';

/** Default bound on remembered (keyid, nonce) pairs. */
export const DEFAULT_NONCE_CACHE_SIZE = 100_000;

/** Remembers (keyid, nonce) pairs until their signature's expiry. */
export class NonceCache {
  readonly #seen: LRUCache<string, true>;

  /** @param maxEntries bound on remembered pairs. */
  constructor(maxEntries: number = DEFAULT_NONCE_CACHE_SIZE) {
    this.#seen = new LRUCache<string, true>({ max: maxEntries, ttlAutopurge: false });
  }

  /** Whether this pair was already recorded and has not expired yet. */
  has(keyid: string, nonce: string): boolean {
    return this.#seen.has(pairKey(keyid, nonce));
  }

  /**
   * Records the pair unless it is already remembered; check and record are one synchronous step, so two
   * concurrent requests carrying the same nonce cannot both pass.
   * @param rememberSeconds how long to remember it: seconds until the signature expires, skew included (at least 1).
   * @returns `true` when the pair was new (recorded now), `false` when it is a replay.
   */
  checkAndRecord(keyid: string, nonce: string, rememberSeconds: number): boolean {
    const key = pairKey(keyid, nonce);
    if (this.#seen.has(key)) return false;
    this.#seen.set(key, true, { ttl: Math.max(1, Math.ceil(rememberSeconds)) * 1000 });
    return true;
  }

  /** Number of remembered pairs (expired ones may still be counted until touched). */
  get size(): number {
    return this.#seen.size;
  }
}

function pairKey(keyid: string, nonce: string): string {
  // keyid is base64url (no spaces), so a space cannot make two pairs collide.
  return `${keyid} ${nonce}`;
}
