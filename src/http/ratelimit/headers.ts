/**
 * RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-06: `RateLimit-Limit`, `RateLimit-Remaining`,
 * `RateLimit-Reset`, `RateLimit-Policy`) and the 429 response (RFC 6585 §4, `Retry-After` per RFC 9110 §10.2.3).
 */
import type { RateLimitState } from '../locals.js';

/**
 * The RateLimit fields for a budget, e.g. `RateLimit-Policy: 120;w=60`.
 * @returns name/value pairs in a fixed order.
 */
export function rateLimitHeaders(state: RateLimitState): Array<[string, string]> {
  return [
    ['RateLimit-Limit', String(state.limit)],
    ['RateLimit-Remaining', String(state.remaining)],
    ['RateLimit-Reset', String(state.resetSeconds)],
    ['RateLimit-Policy', `${state.limit};w=${state.windowSeconds}`],
  ];
}

/**
 * Adds the RateLimit fields to a response, and `Retry-After` to a refusal. A response with immutable headers
 * (e.g. one passed through from `fetch`) is copied first.
 * @param refused also set `Retry-After` (seconds, equal to `RateLimit-Reset`).
 */
export function withRateLimitHeaders(response: Response, state: RateLimitState, refused = false): Response {
  const fields = rateLimitHeaders(state);
  if (refused) fields.push(['Retry-After', String(state.resetSeconds)]);
  let target = response;
  try {
    for (const [name, value] of fields) target.headers.set(name, value);
  } catch {
    target = new Response(response.body, response);
    for (const [name, value] of fields) target.headers.set(name, value);
  }
  return target;
}

/**
 * The JSON 429 answer: `{"detail":"Too Many Requests"}` with `Retry-After` equal to `RateLimit-Reset` and the
 * RateLimit fields of the budget that ran out. A refused request is always inside a live window, so the value is
 * at least 1 (the remaining milliseconds rounded up).
 */
export function tooManyRequests(state: RateLimitState): Response {
  const headers = new Headers(rateLimitHeaders(state));
  headers.set('Content-Type', 'application/json');
  headers.set('Retry-After', String(state.resetSeconds));
  headers.set('Cache-Control', 'no-store');
  return new Response('{"detail":"Too Many Requests"}', { status: 429, headers });
}
