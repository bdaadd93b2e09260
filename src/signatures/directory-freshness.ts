/**
 * How long a fetched key directory (or card) may be reused, by HTTP caching rules (RFC 9111) as
 * `http-cache-semantics` reads them: `Cache-Control` (`max-age`, `no-cache`, `no-store`), `Expires` against
 * `Date`, `Age`, and `ETag`/`Last-Modified` for conditional revalidation (§4.3). On top of that: this service's
 * clamps, and `Retry-After` (RFC 9110 §10.2.3) for failures (protocol Appendix C.4, C.5).
 * Portable: `http-cache-semantics` is plain JavaScript.
 */
import CachePolicy from 'http-cache-semantics';

/** Response header fields, names in lowercase. */
export type ResponseHeaders = Readonly<Record<string, string>>;

/** Bounds on a freshness lifetime, seconds. */
export interface FreshnessClamps {
  /** Lower clamp: a `max-age=0`, `no-cache` or past `Expires` directory is still reused this long. */
  minTtl: number;
  /** Upper clamp. */
  maxTtl: number;
  /** When the response says nothing about its freshness (no `max-age`, `Expires` or `Last-Modified`). */
  defaultTtl: number;
}

/** The request every directory fetch makes, as the cache rules see it (its headers select no variant). */
function directoryRequest(url: string): CachePolicy.Request {
  return { url, method: 'GET', headers: {} };
}

/** The cache policy of a response to a directory fetch (a private cache: `private` responses are reusable). */
export function directoryPolicy(url: string, status: number, headers: ResponseHeaders): CachePolicy {
  return new CachePolicy(directoryRequest(url), { status, headers: { ...headers } }, { shared: false });
}

/**
 * Freshness lifetime in seconds, clamped to `clamps`; `undefined` when the response must not be stored at all
 * (`no-store`, RFC 9111 §5.2.2.5). `no-cache` and `max-age=0` give the minimum: reused that long, then revalidated.
 */
export function freshnessSeconds(policy: CachePolicy, headers: ResponseHeaders, clamps: FreshnessClamps): number | undefined {
  if (!policy.storable()) return undefined;
  // Whole seconds: the library measures from the response time, a few milliseconds ago.
  const ttl = Math.round(policy.timeToLive() / 1000);
  // Zero either because the response said so (max-age=0, no-cache, an Expires not after Date) or because it said
  // nothing: only the latter takes the default.
  const said = headers.expires !== undefined || /(?:^|,)\s*(?:max-age|no-cache)\b/i.test(headers['cache-control'] ?? '');
  const lifetime = ttl > 0 || said ? ttl : clamps.defaultTtl;
  return Math.min(clamps.maxTtl, Math.max(clamps.minTtl, lifetime));
}

/**
 * The conditional request fields that revalidate a stored response (RFC 9111 §4.3.1): `If-None-Match` from its
 * `ETag`, `If-Modified-Since` from its `Last-Modified`. Empty when it has neither.
 */
export function conditionalHeaders(policy: CachePolicy, url: string): Record<string, string> {
  const all = policy.revalidationHeaders(directoryRequest(url));
  const conditional: Record<string, string> = {};
  for (const name of ['if-none-match', 'if-modified-since'] as const) {
    const value = all[name];
    if (typeof value === 'string') conditional[name] = value;
  }
  return conditional;
}

/**
 * Applies a `304 (Not Modified)` to a stored response (RFC 9111 §4.3.4): the refreshed policy, or `undefined` when
 * the 304 does not match what is stored (its validators differ), so the stored keys cannot be reused.
 */
export function revalidated(policy: CachePolicy, url: string, headers: ResponseHeaders): CachePolicy | undefined {
  const { policy: refreshed, modified } = policy.revalidatedPolicy(directoryRequest(url), { status: 304, headers: { ...headers } });
  return modified ? undefined : refreshed;
}

/**
 * `Retry-After` in seconds from now (delay-seconds or an HTTP-date, RFC 9110 §10.2.3), or `undefined` when absent
 * or unreadable. A date is measured against the response's `Date` when it has one (the server's clock).
 * @param nowMs the local time, milliseconds since the epoch.
 */
export function retryAfterSeconds(headers: ResponseHeaders | undefined, nowMs: number): number | undefined {
  const value = headers?.['retry-after']?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d{1,10}$/.test(value)) return Number(value);
  // HTTP-dates start with a day name; Date.parse alone would read '-5' as a year.
  const at = /^[A-Za-z]/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  const serverNow = headers?.date === undefined ? Number.NaN : Date.parse(headers.date);
  return Math.max(0, (at - (Number.isNaN(serverNow) ? nowMs : serverNow)) / 1000);
}
