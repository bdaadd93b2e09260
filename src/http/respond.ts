/**
 * Answer assembly in one place: every answer the app gives gets the headers every response carries (request id,
 * CORS exposure, the RateLimit fields of `ctx.locals.rateLimit`) here, as one plain header object that each adapter
 * writes as it is.
 */
import { rateLimitPolicy, retryAfterSeconds } from '../contract/rate-limits.js';
import { JSON_TYPE } from '../contract/routes.js';
import type { Answer, HeaderRecord, StepContext, WholeBody } from './step.js';

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

/** A UTF-16 code unit beyond ASCII. */
const BEYOND_ASCII = /[\u0080-\uffff]/;

/**
 * The length of `text` in UTF-8, in bytes, as the WHATWG Encoding standard's UTF-8 encoder writes it: a lone
 * surrogate becomes U+FFFD (three bytes).
 */
export function utf8Length(text: string): number {
  // The usual body is ASCII: one byte per unit, found by one native scan instead of a loop over units.
  if (!BEYOND_ASCII.test(text)) return text.length;
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) {
      bytes += 1;
      continue;
    }
    // Three bytes, or four for a surrogate pair: two units.
    bytes += 2;
    if ((unit & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return bytes;
}

/**
 * An answer with the common headers added to `headers` (which it takes ownership of).
 * @param body the body held whole (text for a body made for this request: the adapter encodes it as it writes it,
 *   which spares a buffer of its own), or `null` (HEAD, 204, 304).
 */
export function respond(ctx: StepContext, status: number, body: WholeBody | null, headers: HeaderRecord): Answer {
  ctx.locals.bodyBytes = body === null ? 0 : typeof body === 'string' ? utf8Length(body) : body.byteLength;
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
export function respondJson(ctx: StepContext, status: number, body: WholeBody, headers: HeaderRecord = {}): Answer {
  headers['Content-Type'] = JSON_TYPE;
  return respond(ctx, status, ctx.method === 'HEAD' ? null : body, headers);
}
