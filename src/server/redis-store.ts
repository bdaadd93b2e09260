/**
 * The shared counter store (`RATE_LIMIT_STORE=redis://…`): fixed windows in Redis, so several instances behind a
 * load balancer enforce one budget per client. Node-only (the official `redis` client opens TCP sockets).
 *
 * One Lua script per request, atomic on the server: count in each of its buckets (a referral lookup has two) and
 * read each window's remaining time.
 * When Redis cannot be reached the service keeps answering (fail open): each instance counts in its own memory
 * meanwhile (budgets become per instance), commands time out quickly, nothing queues up while disconnected, the
 * outage is logged once and reported on `/health`, and Redis is used again as soon as it is back.
 *
 * Reads without spending (`/health`, `/openapi.json`, `/docs`) never touch Redis: they report this instance's
 * latest view of the bucket (what Redis answered to its last spending request), so `/health` stays a memory read.
 */
import { LRUCache } from 'lru-cache';
import { createClient, type RedisClientType } from 'redis';
import { MemoryStore } from '../http/ratelimit/memory-store.js';
import { backoffDelay } from '../source/backoff.js';
import type { HitResult, RateLimitStore, StoreHealth } from '../http/ratelimit/store.js';

/**
 * KEYS = buckets, ARGV = their window lengths in ms. Counts one request in each, atomically; returns
 * {count1, ms left1, count2, ms left2, …}. A key in its last millisecond (PTTL 0: Redis expires a key only after
 * its expiry time) or without expiry is treated as ended, so a client that waited `Retry-After` seconds always
 * finds a new window.
 */
export const HIT_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local window = tonumber(ARGV[i])
  local ttl = redis.call('PTTL', key)
  if ttl <= 0 then
    redis.call('SET', key, 1, 'PX', window)
    out[#out + 1] = 1
    out[#out + 1] = window
  else
    out[#out + 1] = redis.call('INCR', key)
    out[#out + 1] = ttl
  end
end
return out
`;

/** One bucket to count in. */
interface Bucket {
  key: string;
  windowMs: number;
}

/** Where outages and recoveries are reported (pino's methods fit). */
export interface StoreLogger {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/** Options of {@link RedisStore}. Times in milliseconds. */
export interface RedisStoreOptions {
  /** `redis://` or `rediss://` URL (credentials allowed; never logged). */
  url: string;
  /** Prefix of every key (default `syllabus:rl:`). */
  keyPrefix?: string;
  /** Longest wait for one reply before counting locally instead (default 200). */
  commandTimeoutMs?: number;
  /** Longest wait for a connection attempt (default 1000). */
  connectTimeoutMs?: number;
  /** Longest pause between reconnection attempts (default 2000). */
  maxReconnectDelayMs?: number;
  /** While connected but failing, how often one request tries Redis again (default 1000). */
  probeIntervalMs?: number;
  /** Outage and recovery log lines. */
  logger?: StoreLogger;
  /** Called when availability changes (e.g. to update `/health`). */
  onHealthChange?: (health: StoreHealth) => void;
  /** Counting while Redis is unavailable (default a new in-process {@link MemoryStore}). */
  fallback?: RateLimitStore;
  /** Called each time a count is made in the local fallback instead of Redis (for metrics). */
  onFallback?: () => void;
}

/** The host and port of a Redis URL, for logs (no credentials). */
function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return 'redis';
  }
}

/** {@link RateLimitStore} in Redis, failing open to a local store. Create with {@link RedisStore.open}. */
export class RedisStore implements RateLimitStore {
  readonly #client: RedisClientType;
  readonly #prefix: string;
  readonly #fallback: RateLimitStore;
  readonly #logger: StoreLogger | undefined;
  readonly #onHealthChange: ((health: StoreHealth) => void) | undefined;
  readonly #onFallback: (() => void) | undefined;
  readonly #where: string;
  #scriptSha: string | undefined;
  /** Latest count seen per bucket and when its window ends (clock ms), for reads that do not spend. */
  readonly #seen = new LRUCache<string, { count: number; endsAt: number }>({ max: 10_000 });
  #downSince: Date | undefined;
  readonly #probeIntervalMs: number;
  readonly #commandTimeoutMs: number;
  #probing = false;
  #lastProbe = 0;
  #closed = false;

  private constructor(options: RedisStoreOptions) {
    this.#prefix = options.keyPrefix ?? 'syllabus:rl:';
    this.#fallback = options.fallback ?? new MemoryStore();
    this.#logger = options.logger;
    this.#onHealthChange = options.onHealthChange;
    this.#onFallback = options.onFallback;
    this.#where = describeUrl(options.url);
    this.#probeIntervalMs = options.probeIntervalMs ?? 1000;
    this.#commandTimeoutMs = options.commandTimeoutMs ?? 200;
    const maxDelay = options.maxReconnectDelayMs ?? 2000;
    this.#client = createClient({
      url: options.url,
      // Fail fast instead of queueing: a request must never wait for Redis to come back.
      disableOfflineQueue: true,
      commandOptions: { timeout: this.#commandTimeoutMs },
      socket: {
        connectTimeout: options.connectTimeoutMs ?? 1000,
        // Jitter spreads the reconnections of many instances after a Redis restart.
        reconnectStrategy: (retries) => backoffDelay(retries, 50, maxDelay) + Math.floor(Math.random() * 50),
      },
    });
    // Without an 'error' listener a failed connection would crash the process.
    this.#client.on('error', (error: Error) => this.#markDown(error));
    this.#client.on('ready', () => this.#markUp());
  }

  /**
   * Creates the store and starts connecting. Waits at most `waitMs` for the first connection; if Redis is not
   * reachable by then, the store starts in its outage mode (counting locally) and keeps trying in the background.
   * @throws TypeError only for a malformed URL.
   */
  static async open(options: RedisStoreOptions, waitMs = 2000): Promise<RedisStore> {
    const store = new RedisStore(options);
    const connected = store.#client.connect().then(
      () => true,
      (error: Error) => {
        store.#markDown(error);
        return false;
      },
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), waitMs);
    });
    const ok = await Promise.race([connected, timedOut]);
    clearTimeout(timer);
    if (!ok) store.#markDown(new Error(`no connection within ${waitMs} ms`));
    return store;
  }

  async hit(key: string, windowMs: number, options: { spend: boolean }): Promise<HitResult> {
    if (!options.spend) return this.#lastSeen(key, windowMs);
    const [result] = await this.#count([{ key, windowMs }]);
    return result!;
  }

  /** Counts in several buckets with one script run (a referral lookup's read and referral budgets). */
  hitMany(buckets: ReadonlyArray<{ key: string; windowMs: number }>): Promise<HitResult[]> {
    return this.#count(buckets);
  }

  async #count(buckets: readonly Bucket[]): Promise<HitResult[]> {
    const replies = await this.#attempt(() => this.#run(buckets));
    if (replies === undefined) {
      this.#onFallback?.();
      return Promise.all(buckets.map((b) => Promise.resolve(this.#fallback.hit(b.key, b.windowMs, { spend: true }))));
    }
    const now = Date.now();
    buckets.forEach(({ key }, i) => {
      const reply = replies[i]!;
      const known = this.#seen.get(key);
      // Replies to concurrent requests may arrive out of order: keep the highest count of the newest window.
      if (known === undefined || now >= known.endsAt || reply.count > known.count) {
        this.#seen.set(key, { count: reply.count, endsAt: now + reply.resetMs });
      }
    });
    return replies;
  }

  /**
   * Sets `key` (used as given: no prefix) to 1 for `seconds` unless it exists: `SET key 1 NX EX seconds`, one
   * atomic step on the server (the shared record of used signature nonces, `redis-nonce-store.ts`).
   * @returns `true` when it was absent and is now set, `false` when it existed, `undefined` when Redis is
   *   unavailable (after at most the command timeout, as a count would be). Never rejects.
   */
  setIfAbsent(key: string, seconds: number): Promise<boolean | undefined> {
    const ex = Math.max(1, Math.ceil(seconds));
    return this.#attempt(async () => (await this.#client.set(key, '1', { condition: 'NX', expiration: { type: 'EX', value: ex } })) === 'OK');
  }

  /**
   * Runs `command` on Redis, its reply awaited at most the command timeout; `undefined` (the caller then works
   * locally) when Redis is unavailable. Connected but failing (e.g. a hung server): one call at a time probes it,
   * the others get `undefined` at once instead of each waiting for a timeout. Never rejects.
   */
  async #attempt<T>(command: () => Promise<T>): Promise<T | undefined> {
    if (!this.#client.isReady) return undefined;
    let probe = false;
    if (this.#downSince) {
      const now = Date.now();
      if (this.#probing || now - this.#lastProbe < this.#probeIntervalMs) return undefined;
      this.#probing = probe = true;
      this.#lastProbe = now;
    }
    try {
      const result = await this.#withTimeout(command());
      if (this.#downSince) this.#markUp();
      return result;
    } catch (error) {
      this.#markDown(error as Error);
      return undefined;
    } finally {
      if (probe) this.#probing = false;
    }
  }

  /** This instance's latest view of a bucket, without asking Redis (or, during an outage, the local count). */
  #lastSeen(key: string, windowMs: number): HitResult | Promise<HitResult> {
    if (this.#downSince) return this.#fallback.hit(key, windowMs, { spend: false });
    const known = this.#seen.get(key);
    const now = Date.now();
    if (known === undefined || now >= known.endsAt) return { count: 0, resetMs: windowMs };
    return { count: known.count, resetMs: known.endsAt - now };
  }

  /**
   * Bounds the wait for a reply. node-redis's own command timeout only covers commands still waiting to be
   * written; a command already sent to a hung server would wait for ever. A late reply is simply dropped.
   */
  #withTimeout<T>(pending: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no reply within ${this.#commandTimeoutMs} ms`)), this.#commandTimeoutMs);
    });
    pending.catch(() => {}); // a rejection after the timeout must not go unhandled
    return Promise.race([pending, timeout]).finally(() => clearTimeout(timer));
  }

  /** Runs the script by its digest, loading it on the first call and after a Redis restart (NOSCRIPT). */
  async #run(buckets: readonly Bucket[]): Promise<HitResult[]> {
    const args = { keys: buckets.map((b) => this.#prefix + b.key), arguments: buckets.map((b) => String(b.windowMs)) };
    let reply: unknown;
    try {
      this.#scriptSha ??= await this.#client.scriptLoad(HIT_SCRIPT);
      reply = await this.#client.evalSha(this.#scriptSha, args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      reply = await this.#client.eval(HIT_SCRIPT, args);
    }
    if (!Array.isArray(reply) || reply.length !== buckets.length * 2 || !reply.every((v) => typeof v === 'number')) {
      throw new Error(`unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`);
    }
    return buckets.map((_, i) => ({ count: reply[2 * i] as number, resetMs: Math.max(0, reply[2 * i + 1] as number) }));
  }

  health(): StoreHealth {
    return this.#downSince ? { store: 'redis', status: 'unavailable', since: this.#downSince.toISOString() } : { store: 'redis', status: 'ok' };
  }

  /** Closes the connection (pending commands are answered first). */
  async close(): Promise<void> {
    this.#closed = true;
    try {
      if (this.#client.isOpen) await this.#client.close();
      else this.#client.destroy();
    } catch {
      this.#client.destroy();
    }
    await this.#fallback.close();
  }

  #markDown(error: Error): void {
    if (this.#closed || this.#downSince) return;
    this.#downSince = new Date();
    this.#logger?.warn(
      { store: this.#where, err: error.message },
      'rate-limit store unreachable: counting in this process until it is back (budgets are per instance meanwhile)',
    );
    this.#onHealthChange?.(this.health());
  }

  #markUp(): void {
    if (this.#closed || !this.#downSince) return;
    const downMs = Date.now() - this.#downSince.getTime();
    this.#downSince = undefined;
    this.#logger?.info({ store: this.#where, downMs }, 'rate-limit store reachable again');
    this.#onHealthChange?.(this.health());
  }
}
