/**
 * The key-directory client: finds the key a signature names at the agent's key source (a JWK Set, or a Signature
 * Agent Card with its keys inline or behind one `jwks_uri` hop; draft-ietf-webbotauth-httpsig-protocol-01 §5.5,
 * draft-meunier-webbotauth-registry-04), with the caching and fetch limits that make an attacker-chosen URL safe
 * to follow. Caching follows HTTP (RFC 9111, via `directory-freshness.ts`): freshness from `Cache-Control`/`Expires`,
 * `no-store` never stored, stale copies revalidated with `If-None-Match`/`If-Modified-Since`, failures remembered
 * for their `Retry-After`. The network fetch itself is injected ({@link DirectoryFetcher}); on Node it is the
 * guarded fetcher of `node-fetcher.ts`. Portable: no Node-only modules.
 *
 * Cache entries are keyed by the URL fetched. A card's `jwks_uri` is its own entry, under its own URL and its own
 * response's caching rules; the card's entry only remembers where it points.
 */
import { LRUCache } from 'lru-cache';
import type CachePolicy from 'http-cache-semantics';
import { clientBucket } from './address-policy.js';
import { importKeyVerifier, type KeyVerifier, type SignatureAlgorithm } from './algorithms.js';
import { readDirectoryDocument } from './directory-document.js';
import {
  conditionalHeaders,
  directoryPolicy,
  freshnessSeconds,
  retryAfterSeconds,
  revalidated,
  type FreshnessClamps,
  type ResponseHeaders,
} from './directory-freshness.js';
import { chooseAlgorithm, readDirectoryKey, type DirectoryKey } from './keys.js';
import type { RefusalReason } from './refusals.js';
import { WindowBudget } from './window-budget.js';

/**
 * What a fetch of a directory URL produced: a `200` with its body, a `304 (Not Modified)` answering a conditional
 * request, or why there is neither. Header names are lowercase. A failure marked `transient` says nothing about
 * the directory (the fetcher was busy) and is not remembered; one with a `status` came from the server, and its
 * `headers` may hold a `Retry-After`.
 */
export type FetchedDirectory =
  | { ok: true; status: 200; headers: ResponseHeaders; body: string }
  | { ok: true; status: 304; headers: ResponseHeaders }
  | { ok: false; reason: string; transient?: boolean; status?: number; headers?: ResponseHeaders };

/**
 * Fetches one directory URL. Must enforce the transport rules (scheme, address, redirects, time and size
 * limits) and never throw: every failure is `{ ok: false, reason }`.
 * @param requestHeaders conditional request fields (`if-none-match`, `if-modified-since`) to send; a fetcher may
 *   ignore any other.
 */
export type DirectoryFetcher = (url: string, requestHeaders?: Readonly<Record<string, string>>) => Promise<FetchedDirectory>;

/** Limits of the client. Times in seconds. */
export interface KeyDirectoryClientOptions {
  /** Performs the network fetch. */
  fetchDirectory: DirectoryFetcher;
  /** Makes the verifier of a directory key, once per key and algorithm. Default WebCrypto's ({@link importKeyVerifier}). */
  importKey?: (jwk: JsonWebKey, algorithm: SignatureAlgorithm) => Promise<KeyVerifier>;
  /** Most keys a directory may hold; a larger one is a failed directory. Default 64. */
  maxKeys?: number;
  /** Lower clamp of the HTTP freshness lifetime (`max-age`, `Expires`; `no-cache` gives this), seconds. Default 60. */
  minTtlSeconds?: number;
  /** Upper clamp of the lifetime, seconds. Default 86 400 (24 h). */
  maxTtlSeconds?: number;
  /** Lifetime when the response states none (no `max-age`, `Expires` or `Last-Modified`), seconds. Default 3 600. */
  defaultTtlSeconds?: number;
  /**
   * How long a failed fetch is remembered before the directory is tried again, seconds; also the longest a
   * `Retry-After` is honoured (protocol Appendix C.5: negative entries expire within five minutes). Default 300.
   */
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
   * Called when a network fetch of a directory ends: `ok` (a usable key set or card, or a 304 confirming one),
   * `refused` (not started: too many in flight or the fetcher was busy), `error` (failed, or no usable keys). For metrics.
   */
  onFetch?: (result: 'ok' | 'refused' | 'error') => void;
}

/** A key found for a signature, with the algorithm the signature uses, or why there is none. */
export type KeyLookup =
  | { ok: true; key: DirectoryKey; algorithm: SignatureAlgorithm; verifier: KeyVerifier }
  | { ok: false; code: Extract<RefusalReason, 'no_directory' | 'fetch_failed' | 'unknown_key' | 'expired' | 'unsupported'>; reason: string };

interface CachedKey {
  key: DirectoryKey;
  /** Imported once per algorithm, on first use, then shared by every verification with this key. */
  verifiers: Map<SignatureAlgorithm, Promise<KeyVerifier>>;
}

interface CachedDirectory {
  /** The keys, when the URL answered a JWK Set (or a card with inline `jwks`). */
  keys?: Map<string, CachedKey>;
  /** Where the keys are, when the URL answered a card with a `jwks_uri`. */
  jwksUri?: string;
  /** The response's caching rules: its validators revalidate a stale copy. */
  policy: CachePolicy;
  freshUntil: number;
  usableUntil: number;
  /** When it was fetched or last confirmed (304), seconds since the epoch: an unknown `keyid` refetches it only once this is old enough. */
  fetchedAt: number;
  /** `no-store`: used for the lookup that fetched it, never kept. */
  noStore: boolean;
}

type LoadResult =
  { ok: true; directory: CachedDirectory } | { ok: false; code: 'no_directory' | 'fetch_failed'; reason: string; transient?: boolean };

/** Smallest `Retry-After` honoured, seconds: a `Retry-After: 0` must not make every lookup a fetch. */
const MIN_RETRY_AFTER = 10;

/** Counters of what the client did, for tests and diagnostics. */
export interface KeyDirectoryStats {
  /** Network fetches started. */
  fetches: number;
  /** Of those, conditional fetches answered `304 (Not Modified)`: the stored keys were kept without re-reading. */
  notModified: number;
}

/** Finds keys in agents' key directories, caching directories, failures and imported keys. */
export class KeyDirectoryClient {
  readonly #fetch: DirectoryFetcher;
  readonly #maxKeys: number;
  readonly #clamps: FreshnessClamps;
  readonly #failureTtl: number;
  readonly #maxStale: number;
  readonly #maxInFlight: number;
  readonly #now: () => number;
  readonly #importKey: NonNullable<KeyDirectoryClientOptions['importKey']>;
  readonly #onFetch: ((result: 'ok' | 'refused' | 'error') => void) | undefined;
  readonly #unknownKeyRefetch: number;
  readonly #directories: LRUCache<string, CachedDirectory>;
  readonly #failures: LRUCache<string, { code: 'no_directory' | 'fetch_failed'; reason: string; until: number }>;
  readonly #inFlight = new Map<string, Promise<LoadResult>>();
  /** New fetches per client address bucket, per 60 s. */
  readonly #clientFetches: WindowBudget;
  readonly stats: KeyDirectoryStats = { fetches: 0, notModified: 0 };

  constructor(options: KeyDirectoryClientOptions) {
    this.#fetch = options.fetchDirectory;
    this.#maxKeys = options.maxKeys ?? 64;
    this.#clamps = { minTtl: options.minTtlSeconds ?? 60, maxTtl: options.maxTtlSeconds ?? 86_400, defaultTtl: options.defaultTtlSeconds ?? 3_600 };
    this.#failureTtl = options.failureTtlSeconds ?? 300;
    this.#maxStale = options.maxStaleSeconds ?? 86_400;
    this.#maxInFlight = options.maxInFlight ?? 32;
    this.#now = options.now ?? (() => Date.now() / 1000);
    this.#importKey = options.importKey ?? importKeyVerifier;
    this.#onFetch = options.onFetch;
    this.#unknownKeyRefetch = options.unknownKeyRefetchSeconds ?? 60;
    const maxDirectories = options.maxDirectories ?? 1_000;
    this.#directories = new LRUCache({ max: maxDirectories });
    this.#failures = new LRUCache({ max: maxDirectories });
    this.#clientFetches = new WindowBudget({
      limit: options.fetchesPerClientPerMinute ?? 5,
      windowSeconds: 60,
      maxKeys: options.maxTrackedClients ?? 10_000,
      now: this.#now,
    });
  }

  /**
   * Finds the key `keyid` (a JWK thumbprint) at `directoryUrl` — a JWK Set, or a card holding one or naming one by
   * `jwks_uri` — fetching what is not cached and fresh, and the algorithm a signature with it uses
   * ({@link chooseAlgorithm}). Never throws.
   * @param clientAddress the requesting client, charged for each new fetch (a card's `jwks_uri` hop is a second one).
   * @param alg the signature's `alg` parameter, when it has one.
   */
  async lookup(directoryUrl: string, keyid: string, clientAddress: string, alg?: string): Promise<KeyLookup> {
    let directory = await this.#keySet(directoryUrl, clientAddress, false);
    if (!directory.ok) return directory;
    let cached = directory.directory.keys?.get(keyid);
    if (cached === undefined && this.#now() - directory.directory.fetchedAt >= this.#unknownKeyRefetch) {
      // Key rotation: the agent may sign with a key published after this copy was fetched.
      directory = await this.#keySet(directoryUrl, clientAddress, true);
      if (!directory.ok) return directory;
      cached = directory.directory.keys?.get(keyid);
    }
    if (cached === undefined) return { ok: false, code: 'unknown_key', reason: 'keyid is not in the key directory' };
    const now = this.#now();
    if (cached.key.notBefore !== undefined && now < cached.key.notBefore) return { ok: false, code: 'expired', reason: 'key is not valid yet (nbf)' };
    if (cached.key.expiresAt !== undefined && now > cached.key.expiresAt) return { ok: false, code: 'expired', reason: 'key has expired (exp)' };
    const chosen = chooseAlgorithm(cached.key, alg);
    if (!chosen.ok) return { ok: false, code: 'unsupported', reason: chosen.reason };
    let verifier = cached.verifiers.get(chosen.algorithm);
    if (verifier === undefined) {
      verifier = this.#importKey(cached.key.jwk, chosen.algorithm);
      cached.verifiers.set(chosen.algorithm, verifier);
    }
    try {
      return { ok: true, key: cached.key, algorithm: chosen.algorithm, verifier: await verifier };
    } catch {
      return { ok: false, code: 'unsupported', reason: 'the directory key could not be imported' };
    }
  }

  /**
   * The entry holding the keys for `url`: the URL's own, or for a card with `jwks_uri` that URI's (one hop: a
   * `jwks_uri` answering another card is no key set). `refetch` applies to the entry holding the keys.
   */
  async #keySet(url: string, clientAddress: string, refetch: boolean): Promise<LoadResult> {
    let first = await this.#directory(url, clientAddress, false);
    if (refetch && first.ok && first.directory.jwksUri === undefined) first = await this.#directory(url, clientAddress, true);
    if (!first.ok || first.directory.jwksUri === undefined) return first;
    const hop = await this.#directory(first.directory.jwksUri, clientAddress, refetch);
    if (!hop.ok) return hop;
    if (hop.directory.keys === undefined) {
      return { ok: false, code: 'no_directory', reason: "key directory unavailable: the card's jwks_uri names another card, not a JWK Set" };
    }
    return hop;
  }

  /** The document at `url`: cached while fresh (unless `refetch`), else fetched (within the client's budget). */
  async #directory(url: string, clientAddress: string, refetch: boolean): Promise<LoadResult> {
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
      const refusal = this.#admit(clientAddress);
      if (refusal !== undefined) return stale !== undefined ? { ok: true, directory: stale } : { ok: false, code: 'fetch_failed', reason: refusal };
      pending = this.#load(url, cached).finally(() => this.#inFlight.delete(url));
      this.#inFlight.set(url, pending);
    }
    const result = await pending;
    if (!result.ok && stale !== undefined) return { ok: true, directory: stale };
    return result.ok ? result : { ok: false, code: result.code, reason: `key directory unavailable: ${result.reason}` };
  }

  /** Whether a new fetch may start for this client now; charges its budget when it may. */
  #admit(clientAddress: string): string | undefined {
    if (this.#inFlight.size >= this.#maxInFlight) return 'too many key directory fetches in progress';
    const bucket = clientBucket(clientAddress);
    if (this.#clientFetches.spent(bucket)) return 'too many new key directory fetches from this client address';
    this.#clientFetches.take(bucket);
    return undefined;
  }

  /** Fetches `url` (conditionally when a stored copy has validators) and records the outcome. */
  async #load(url: string, stored: CachedDirectory | undefined): Promise<LoadResult> {
    this.stats.fetches++;
    let result: LoadResult;
    let retryAfter: number | undefined;
    try {
      const fetched = await this.#fetch(url, stored === undefined ? undefined : conditionalHeaders(stored.policy, url));
      if (!fetched.ok) {
        result = { ...fetched, code: 'fetch_failed' };
        retryAfter = retryAfterSeconds(fetched.headers, this.#now() * 1000);
      } else if (fetched.status === 304) {
        result = this.#confirm(url, stored, fetched.headers);
      } else {
        result = await this.#parse(url, fetched.body, directoryPolicy(url, 200, fetched.headers), fetched.headers);
      }
    } catch {
      result = { ok: false, code: 'fetch_failed', reason: 'fetch failed' };
    }
    this.#onFetch?.(result.ok ? 'ok' : result.transient === true ? 'refused' : 'error');
    if (result.ok) {
      // A no-store answer is newer evidence than a stored copy and says not to keep one: drop it.
      if (result.directory.noStore) this.#directories.delete(url);
      else this.#directories.set(url, result.directory);
      this.#failures.delete(url);
    } else if (result.transient !== true) {
      const ttl = retryAfter === undefined ? this.#failureTtl : Math.min(this.#failureTtl, Math.max(MIN_RETRY_AFTER, retryAfter));
      this.#failures.set(url, { code: result.code, reason: result.reason, until: this.#now() + ttl });
    }
    return result;
  }

  /** A `304` to a conditional fetch: the stored document, its lifetime renewed by the 304's headers, not re-read. */
  #confirm(url: string, stored: CachedDirectory | undefined, headers: ResponseHeaders): LoadResult {
    const policy = stored === undefined ? undefined : revalidated(stored.policy, url, headers);
    if (stored === undefined || policy === undefined) return { ok: false, code: 'fetch_failed', reason: 'HTTP 304 for a directory not held' };
    this.stats.notModified++;
    return { ok: true, directory: { ...stored, policy, ...this.#lifetime(policy, headers) } };
  }

  async #parse(url: string, body: string, policy: CachePolicy, headers: ResponseHeaders): Promise<LoadResult> {
    const document = readDirectoryDocument(body, url);
    if (!document.ok) return { ok: false, code: 'no_directory', reason: document.reason };
    const lifetime = this.#lifetime(policy, headers);
    if (document.kind === 'card') return { ok: true, directory: { jwksUri: document.jwksUri, policy, ...lifetime } };
    if (document.entries.length > this.#maxKeys)
      return { ok: false, code: 'no_directory', reason: `the directory holds more than ${this.#maxKeys} keys` };
    const keys = new Map<string, CachedKey>();
    for (const entry of document.entries) {
      const read = await readDirectoryKey(entry);
      if (read.ok && !keys.has(read.key.thumbprint)) keys.set(read.key.thumbprint, { key: read.key, verifiers: new Map() });
    }
    return { ok: true, directory: { keys, policy, ...lifetime } };
  }

  /** Freshness by HTTP rules and the clamps, from now; a `no-store` answer is fresh for no one. */
  #lifetime(policy: CachePolicy, headers: ResponseHeaders): Pick<CachedDirectory, 'freshUntil' | 'usableUntil' | 'fetchedAt' | 'noStore'> {
    const now = this.#now();
    const ttl = freshnessSeconds(policy, headers, this.#clamps);
    if (ttl === undefined) return { freshUntil: now, usableUntil: now, fetchedAt: now, noStore: true };
    return { freshUntil: now + ttl, usableUntil: now + ttl + this.#maxStale, fetchedAt: now, noStore: false };
  }
}
