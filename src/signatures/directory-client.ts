/**
 * The key-directory client: finds the key a signature names in the agent's directory
 * (`<origin>/.well-known/http-message-signatures-directory`, a JWKS; draft-ietf-webbotauth-httpsig-protocol
 * §"Key Distribution and Discovery"), with the caching and fetch limits that make an attacker-chosen URL safe
 * to follow. The network fetch itself is injected ({@link DirectoryFetcher}); on Node it is the guarded
 * fetcher of `node-fetcher.ts`. Portable: no Node-only modules.
 */
import { LRUCache } from 'lru-cache';
import type { Verifier } from 'http-message-sig';
import { clientBucket } from './address-policy.js';
import { importVerifier, readDirectoryKey, type DirectoryKey } from './keys.js';
import type { RefusalReason } from './refusals.js';

/**
 * What a fetch of a directory URL produced: the body of a 200 response, or why there is none. A failure marked
 * `transient` says nothing about the directory (the fetcher was busy) and is not remembered.
 */
export type FetchedDirectory = { ok: true; body: string; cacheControl: string | null } | { ok: false; reason: string; transient?: boolean };

/**
 * Fetches one directory URL. Must enforce the transport rules (scheme, address, redirects, time and size
 * limits) and never throw: every failure is `{ ok: false, reason }`.
 */
export type DirectoryFetcher = (url: string) => Promise<FetchedDirectory>;

/** Limits of the client. Times in seconds. */
export interface KeyDirectoryClientOptions {
  /** Performs the network fetch. */
  fetchDirectory: DirectoryFetcher;
  /** Most keys a directory may hold; a larger one is a failed directory. Default 64. */
  maxKeys?: number;
  /** Lower clamp of the `Cache-Control: max-age` lifetime, seconds. Default 60. */
  minTtlSeconds?: number;
  /** Upper clamp of the lifetime, seconds. Default 86 400 (24 h). */
  maxTtlSeconds?: number;
  /** Lifetime when the response has no usable `max-age`, seconds. Default 3 600. */
  defaultTtlSeconds?: number;
  /** How long a failed fetch is remembered before the directory is tried again, seconds. Default 300. */
  failureTtlSeconds?: number;
  /**
   * How long past its freshness a directory may still be used while refetching it fails, seconds. A failed
   * fetch is not evidence that keys were removed (protocol §"Discovery Failure"). Default 86 400.
   */
  maxStaleSeconds?: number;
  /** Most directories (and failures) cached. Default 1 000. */
  maxDirectories?: number;
  /** Most directory fetches running at once. Default 32. */
  maxInFlight?: number;
  /** New directory fetches one client address (an IPv6 /64) may cause per 60 s. Default 5. */
  fetchesPerClientPerMinute?: number;
  /** Most client addresses tracked for that budget. Default 10 000. */
  maxTrackedClients?: number;
  /** Current time in seconds since the epoch. Default `Date.now() / 1000`. */
  now?: () => number;
  /**
   * A `keyid` missing from a cached, still-fresh directory refetches it (the agent may have rotated its key), at
   * most once per directory per this many seconds, so unknown keyids cannot make the service fetch in a loop.
   * Default 60.
   */
  unknownKeyRefetchSeconds?: number;
  /**
   * Called when a network fetch of a directory ends: `ok` (a usable key set), `refused` (not started: too many in
   * flight or the fetcher was busy), `error` (failed, or not a usable key set). For metrics.
   */
  onFetch?: (result: 'ok' | 'refused' | 'error') => void;
}

/** A key found for a signature, or why there is none (`code` is one of the directory's refusal reasons). */
export type KeyLookup =
  | { ok: true; key: DirectoryKey; verifier: Verifier }
  | { ok: false; code: Extract<RefusalReason, 'no_directory' | 'fetch_failed' | 'unknown_key' | 'expired' | 'unsupported'>; reason: string };

interface CachedKey {
  key: DirectoryKey;
  /** Imported once, on first use, then shared by every verification with this key. */
  verifier?: Promise<Verifier>;
}

interface CachedDirectory {
  keys: Map<string, CachedKey>;
  freshUntil: number;
  usableUntil: number;
  /** When it was fetched, seconds since the epoch: an unknown `keyid` refetches it only once this is old enough. */
  fetchedAt: number;
}

type LoadResult =
  { ok: true; directory: CachedDirectory } | { ok: false; code: 'no_directory' | 'fetch_failed'; reason: string; transient?: boolean };

/** Counters of what the client did, for tests and diagnostics. */
export interface KeyDirectoryStats {
  /** Network fetches started. */
  fetches: number;
}

/** Finds keys in agents' key directories, caching directories, failures and imported keys. */
export class KeyDirectoryClient {
  readonly #fetch: DirectoryFetcher;
  readonly #maxKeys: number;
  readonly #minTtl: number;
  readonly #maxTtl: number;
  readonly #defaultTtl: number;
  readonly #failureTtl: number;
  readonly #maxStale: number;
  readonly #maxInFlight: number;
  readonly #perClient: number;
  readonly #now: () => number;
  readonly #onFetch: ((result: 'ok' | 'refused' | 'error') => void) | undefined;
  readonly #unknownKeyRefetch: number;
  readonly #directories: LRUCache<string, CachedDirectory>;
  readonly #failures: LRUCache<string, { code: 'no_directory' | 'fetch_failed'; reason: string; until: number }>;
  readonly #inFlight = new Map<string, Promise<LoadResult>>();
  readonly #clientBudgets: LRUCache<string, { windowStart: number; count: number }>;
  readonly stats: KeyDirectoryStats = { fetches: 0 };

  constructor(options: KeyDirectoryClientOptions) {
    this.#fetch = options.fetchDirectory;
    this.#maxKeys = options.maxKeys ?? 64;
    this.#minTtl = options.minTtlSeconds ?? 60;
    this.#maxTtl = options.maxTtlSeconds ?? 86_400;
    this.#defaultTtl = options.defaultTtlSeconds ?? 3_600;
    this.#failureTtl = options.failureTtlSeconds ?? 300;
    this.#maxStale = options.maxStaleSeconds ?? 86_400;
    this.#maxInFlight = options.maxInFlight ?? 32;
    this.#perClient = options.fetchesPerClientPerMinute ?? 5;
    this.#now = options.now ?? (() => Date.now() / 1000);
    this.#onFetch = options.onFetch;
    this.#unknownKeyRefetch = options.unknownKeyRefetchSeconds ?? 60;
    const maxDirectories = options.maxDirectories ?? 1_000;
    this.#directories = new LRUCache({ max: maxDirectories });
    this.#failures = new LRUCache({ max: maxDirectories });
    this.#clientBudgets = new LRUCache({ max: options.maxTrackedClients ?? 10_000 });
  }

  /**
   * Finds the key `keyid` (a JWK thumbprint) in the directory at `directoryUrl`, fetching the directory when
   * it is not cached and fresh. Never throws.
   * @param clientAddress the requesting client, charged for a new fetch.
   */
  async lookup(directoryUrl: string, keyid: string, clientAddress: string): Promise<KeyLookup> {
    let directory = await this.#directory(directoryUrl, clientAddress);
    if (!directory.ok) return directory;
    let cached = directory.directory.keys.get(keyid);
    if (cached === undefined && this.#now() - directory.directory.fetchedAt >= this.#unknownKeyRefetch) {
      // Key rotation: the agent may sign with a key published after this copy was fetched.
      directory = await this.#directory(directoryUrl, clientAddress, true);
      if (!directory.ok) return directory;
      cached = directory.directory.keys.get(keyid);
    }
    if (cached === undefined) return { ok: false, code: 'unknown_key', reason: 'keyid is not in the key directory' };
    const now = this.#now();
    if (cached.key.notBefore !== undefined && now < cached.key.notBefore) return { ok: false, code: 'expired', reason: 'key is not valid yet (nbf)' };
    if (cached.key.expiresAt !== undefined && now > cached.key.expiresAt) return { ok: false, code: 'expired', reason: 'key has expired (exp)' };
    cached.verifier ??= importVerifier(cached.key);
    try {
      return { ok: true, key: cached.key, verifier: await cached.verifier };
    } catch {
      return { ok: false, code: 'unsupported', reason: 'the directory key could not be imported' };
    }
  }

  /** The directory at `url`: cached while fresh (unless `refetch`), else fetched (within the client's budget). */
  async #directory(url: string, clientAddress: string, refetch = false): Promise<LoadResult> {
    const now = this.#now();
    const cached = this.#directories.get(url);
    if (cached !== undefined && now < cached.freshUntil && !refetch) return { ok: true, directory: cached };
    const stale = cached !== undefined && now < cached.usableUntil ? cached : undefined;

    const failure = this.#failures.get(url);
    if (failure !== undefined && now < failure.until) {
      return stale !== undefined
        ? { ok: true, directory: stale }
        : { ok: false, code: failure.code, reason: `key directory unavailable: ${failure.reason}` };
    }

    let pending = this.#inFlight.get(url);
    if (pending === undefined) {
      const refusal = this.#admit(clientAddress, now);
      if (refusal !== undefined) return stale !== undefined ? { ok: true, directory: stale } : { ok: false, code: 'fetch_failed', reason: refusal };
      pending = this.#load(url).finally(() => this.#inFlight.delete(url));
      this.#inFlight.set(url, pending);
    }
    const result = await pending;
    if (!result.ok && stale !== undefined) return { ok: true, directory: stale };
    return result.ok ? result : { ok: false, code: result.code, reason: `key directory unavailable: ${result.reason}` };
  }

  /** Whether a new fetch may start for this client now; charges its budget when it may. */
  #admit(clientAddress: string, now: number): string | undefined {
    if (this.#inFlight.size >= this.#maxInFlight) return 'too many key directory fetches in progress';
    const bucket = clientBucket(clientAddress);
    let budget = this.#clientBudgets.get(bucket);
    if (budget === undefined || now - budget.windowStart >= 60) {
      budget = { windowStart: now, count: 0 };
      this.#clientBudgets.set(bucket, budget);
    }
    if (budget.count >= this.#perClient) return 'too many new key directory fetches from this client address';
    budget.count++;
    return undefined;
  }

  async #load(url: string): Promise<LoadResult> {
    this.stats.fetches++;
    let result: LoadResult;
    try {
      const fetched = await this.#fetch(url);
      result = fetched.ok ? await this.#parse(fetched.body, fetched.cacheControl) : { ...fetched, code: 'fetch_failed' };
    } catch {
      result = { ok: false, code: 'fetch_failed', reason: 'fetch failed' };
    }
    this.#onFetch?.(result.ok ? 'ok' : result.transient === true ? 'refused' : 'error');
    if (result.ok) {
      this.#directories.set(url, result.directory);
      this.#failures.delete(url);
    } else if (result.transient !== true) {
      this.#failures.set(url, { code: result.code, reason: result.reason, until: this.#now() + this.#failureTtl });
    }
    return result;
  }

  async #parse(body: string, cacheControl: string | null): Promise<LoadResult> {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return { ok: false, code: 'no_directory', reason: 'the directory is not JSON' };
    }
    if (typeof json !== 'object' || json === null || !Array.isArray((json as { keys?: unknown }).keys)) {
      return { ok: false, code: 'no_directory', reason: 'the directory is not a JWK Set (no "keys" array)' };
    }
    const entries = (json as { keys: unknown[] }).keys;
    if (entries.length > this.#maxKeys) return { ok: false, code: 'no_directory', reason: `the directory holds more than ${this.#maxKeys} keys` };
    const keys = new Map<string, CachedKey>();
    for (const entry of entries) {
      const read = await readDirectoryKey(entry);
      if (read.ok && !keys.has(read.key.thumbprint)) keys.set(read.key.thumbprint, { key: read.key });
    }
    const now = this.#now();
    const ttl = this.#ttl(cacheControl);
    return { ok: true, directory: { keys, freshUntil: now + ttl, usableUntil: now + ttl + this.#maxStale, fetchedAt: now } };
  }

  /** Lifetime from `Cache-Control` (RFC 9111 §5.2.2): `max-age` clamped; `no-store`/`no-cache` give the minimum. */
  #ttl(cacheControl: string | null): number {
    if (cacheControl === null) return this.#defaultTtl;
    const directives = cacheControl
      .toLowerCase()
      .split(',')
      .map((d) => d.trim());
    if (directives.includes('no-store') || directives.includes('no-cache')) return this.#minTtl;
    const maxAge = directives.map((d) => /^max-age\s*=\s*"?(\d{1,10})"?$/.exec(d)).find((m) => m !== null);
    if (maxAge === undefined) return this.#defaultTtl;
    return Math.min(this.#maxTtl, Math.max(this.#minTtl, Number(maxAge[1])));
  }
}
