/**
 * Answer assembly in one place: every answer the app gives gets the headers every response carries (request id,
 * CORS exposure, the RateLimit fields of `ctx.locals.rateLimit`) here, as one plain header object that each adapter
 * writes as it is.
 */
import { rateLimitPolicy, retryAfterSeconds } from '../contract/rate-limits.js';
import { JSON_TYPE } from '../contract/routes.js';
import type { Answer, HeaderRecord, StepContext } from './step.js';

/** Every response: any origin may read it (the API needs no credentials). */
export const ALLOW_ORIGIN = '*';

/** The response headers a cross-origin script may read (Fetch standard, CORS-safelisted ones aside). */
export const EXPOSED_HEADERS = [
  'ETag',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
  'Retry-After',
  'Deprecation',
  'Sunset',
  'Link',
  'X-Request-Id',
].join(', ');

/**
 * Adds the headers every response carries to `headers` (mutates and returns it): CORS, the request id, the
 * RateLimit fields (draft-ietf-httpapi-ratelimit-headers-06) of `ctx.locals.rateLimit` and, on a 429, `Retry-After`
 * (RFC 9110 §10.2.3): the whole seconds until that budget's window resets, at least 1.
 */
function addCommonHeaders(ctx: StepContext, status: number, headers: HeaderRecord): HeaderRecord {
  headers['Access-Control-Allow-Origin'] = ALLOW_ORIGIN;
  headers['Access-Control-Expose-Headers'] = EXPOSED_HEADERS;
  headers['X-Request-Id'] = ctx.locals.requestId;
  const rl = ctx.locals.rateLimit;
  if (rl !== undefined) {
    headers['RateLimit-Limit'] = String(rl.limit);
    headers['RateLimit-Remaining'] = String(rl.remaining);
    headers['RateLimit-Reset'] = String(rl.resetSeconds);
    headers['RateLimit-Policy'] = rateLimitPolicy(rl.limit, rl.windowSeconds);
    if (status === 429) headers['Retry-After'] = String(retryAfterSeconds(rl.resetSeconds));
  }
  return headers;
}

/**
 * An answer with the common headers added to `headers` (which it takes ownership of).
 * @param body bytes to send, or `null` (HEAD, 204, 304).
 */
export function respond(ctx: StepContext, status: number, body: Uint8Array | null, headers: HeaderRecord): Answer {
  ctx.locals.bodyBytes = body === null ? 0 : body.byteLength;
  return { status, headers: addCommonHeaders(ctx, status, headers), body };
}

/**
 * A `200` whose body is streamed (e.g. a release archive read from disk), with the common headers.
 * @param bytes the body's length, for the access log (also its `Content-Length`, which `headers` must carry).
 */
export function respondStream(ctx: StepContext, body: ReadableStream<Uint8Array>, headers: HeaderRecord, bytes: number): Answer {
  ctx.locals.bodyBytes = bytes;
  return { status: 200, headers: addCommonHeaders(ctx, 200, headers), body };
}

/** A JSON answer (`Content-Type: application/json`), e.g. an error `{"detail": …}`. */
export function respondJson(ctx: StepContext, status: number, body: Uint8Array, headers: HeaderRecord = {}): Answer {
  headers['Content-Type'] = JSON_TYPE;
  return respond(ctx, status, ctx.method === 'HEAD' ? null : body, headers);
}
