/**
 * Signature nonces single use across instances (`RATE_LIMIT_STORE=redis://…`): a verified (keyid, nonce) pair is
 * recorded with `SET syllabus:nonce:<keyid>:<nonce> 1 NX EX <seconds until the signature expires, skew included>`
 * on the rate-limit store's Redis connection (no second connection), so of all the instances that receive one
 * signed request or its replays, exactly one verifies it.
 *
 * Failure policy (as for budgets): when Redis is unavailable — down, hung, or slower than
 * `RATE_LIMIT_STORE_TIMEOUT_MS`, the same bound and outage handling as a count — the pair is checked and recorded in
 * this process only, and the request is verified or refused from that alone. Verification keeps working (an outage
 * does not downgrade every signing agent), but until Redis answers again a replay sent to *another* instance
 * verifies there. Each such local check is reported (`onFallback`: `syllabus_nonce_store_fallbacks_total`). Pairs
 * recorded during the outage are not copied to Redis afterwards.
 *
 * Every pair is recorded locally too, before Redis is asked: concurrent requests with one pair on one instance are
 * settled without a round trip, and the verifier's pre-check (`has`, memory only) refuses a replay to this instance
 * before any key fetch or public-key operation.
 */
import { MAX_NONCE_LENGTH, MemoryNonceStore, type NonceStore } from '../signatures/nonce-store.js';
import type { RedisStore } from './redis-store.js';

/** Options of {@link RedisNonceStore}. */
export interface RedisNonceStoreOptions {
  /** The shared connection: the rate-limit store. */
  redis: Pick<RedisStore, 'setIfAbsent'>;
  /** Prefix of every key (default `syllabus:nonce:`). */
  keyPrefix?: string;
  /** The local record (default a new {@link MemoryNonceStore} of 100 000 pairs). */
  local?: MemoryNonceStore;
  /** Called each time a pair is checked in this process only because Redis was unavailable (for metrics). */
  onFallback?: () => void;
}

/** {@link NonceStore} in Redis, failing to this process's memory. */
export class RedisNonceStore implements NonceStore {
  readonly #redis: Pick<RedisStore, 'setIfAbsent'>;
  readonly #prefix: string;
  readonly #local: MemoryNonceStore;
  readonly #onFallback: (() => void) | undefined;

  constructor(options: RedisNonceStoreOptions) {
    this.#redis = options.redis;
    this.#prefix = options.keyPrefix ?? 'syllabus:nonce:';
    this.#local = options.local ?? new MemoryNonceStore();
    this.#onFallback = options.onFallback;
  }

  /** Known to this instance (recorded or refused here): no round trip. */
  has(keyid: string, nonce: string): boolean {
    return this.#local.has(keyid, nonce);
  }

  async record(keyid: string, nonce: string, ttlSeconds: number): Promise<boolean> {
    // The verifier refuses longer nonces before; unbounded attacker input is never written to Redis.
    if (nonce.length > MAX_NONCE_LENGTH) return false;
    if (!this.#local.recordNow(keyid, nonce, ttlSeconds)) return false;
    const isNew = await this.#redis.setIfAbsent(nonceKey(this.#prefix, keyid, nonce), ttlSeconds);
    if (isNew === undefined) this.#onFallback?.();
    // Already in Redis: another instance verified it. It stays recorded here, so the pre-check refuses it next time.
    return isNew ?? true;
  }
}

/**
 * The Redis key of a pair: `<prefix><keyid>:<nonce>`. One key per pair: the keyid is escaped so that it holds no
 * `:` (a verified keyid is base64url, which is left as it is), so the first `:` after the prefix ends it. The key
 * is a separate, length-prefixed argument of the command, so no nonce can add to or change the command.
 */
export function nonceKey(prefix: string, keyid: string, nonce: string): string {
  return `${prefix}${encodeURIComponent(keyid)}:${nonce}`;
}
