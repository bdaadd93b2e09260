/**
 * Response assembly in one place: every response the app builds gets the headers every response carries
 * (request id, CORS exposure, the RateLimit fields of `ctx.locals.rateLimit`) here, as one plain header
 * object. A plain object lets the Node host write it without building a `Headers` instance, and no later
 * step needs to mutate the response. Responses built elsewhere are completed by {@link completeResponse}.
 */
import type { RequestContext } from '@hattip/compose';
import { JSON_TYPE } from '../contract/routes.js';

/** Response header values, already formatted. */
export type HeaderRecord = Record<string, string>;

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

/** Responses assembled by {@link respond}: they need no completion. */
const assembled = new WeakSet<Response>();

/** An answer as plain data: what a host's direct path writes without building a `Response` (see `direct.ts`). */
export interface PlainAnswer {
  status: number;
  /** Every header field, the common ones included, in the order they are written. */
  headers: HeaderRecord;
  /** Bytes to send, or `null` (HEAD, 204, 304). */
  body: Uint8Array | null;
}

/**
 * What {@link respond} returns to a request answered on the direct path (`ctx.locals.plainAnswer` set): a
 * placeholder, never sent and never read (the direct path knows it by identity); the answer itself is left in
 * `ctx.locals.plainAnswer`. Not a `Response`: making one when this module loads would load Node's fetch
 * implementation (undici, about 20 ms of a start), which the direct path never needs.
 */
export const PLAIN_ANSWER_PLACEHOLDER = Object.freeze({ status: 204 }) as unknown as Response;

/**
 * Adds the headers every response carries to `headers` (mutates and returns it): CORS, the request id, the
 * RateLimit fields (draft-ietf-httpapi-ratelimit-headers-06) of `ctx.locals.rateLimit` and, on a 429, `Retry-After`
 * (RFC 9110 §10.2.3): the whole seconds until that budget's window resets, at least 1.
 */
function addCommonHeaders(ctx: RequestContext, status: number, headers: HeaderRecord): HeaderRecord {
  headers['Access-Control-Allow-Origin'] = ALLOW_ORIGIN;
  headers['Access-Control-Expose-Headers'] = EXPOSED_HEADERS;
  const id = ctx.locals.requestId;
  if (id !== undefined) headers['X-Request-Id'] = id;
  const rl = ctx.locals.rateLimit;
  if (rl !== undefined) {
    headers['RateLimit-Limit'] = String(rl.limit);
    headers['RateLimit-Remaining'] = String(rl.remaining);
    headers['RateLimit-Reset'] = String(rl.resetSeconds);
    headers['RateLimit-Policy'] = `${rl.limit};w=${rl.windowSeconds}`;
    if (status === 429) headers['Retry-After'] = String(Math.max(1, rl.resetSeconds));
  }
  return headers;
}

/**
 * Builds a response with the common headers added to `headers` (which it takes ownership of).
 * @param body bytes to send, or `null` (HEAD, 204, 304).
 */
export function respond(ctx: RequestContext, status: number, body: Uint8Array | null, headers: HeaderRecord): Response {
  const locals = ctx.locals;
  locals.bodyBytes = body === null ? 0 : body.byteLength;
  if (locals.plainAnswer !== undefined) {
    locals.plainAnswer = { status, headers: addCommonHeaders(ctx, status, headers), body };
    return PLAIN_ANSWER_PLACEHOLDER;
  }
  const res = new Response(body as BodyInit | null, { status, headers: addCommonHeaders(ctx, status, headers) });
  assembled.add(res);
  return res;
}

/**
 * A `200` whose body is streamed (e.g. a release archive read from disk), with the common headers.
 * @param bytes the body's length, for the access log (also its `Content-Length`, which `headers` should carry).
 */
export function respondStream(ctx: RequestContext, body: ReadableStream<Uint8Array>, headers: HeaderRecord, bytes: number): Response {
  ctx.locals.bodyBytes = bytes;
  const res = new Response(body, { status: 200, headers: addCommonHeaders(ctx, 200, headers) });
  assembled.add(res);
  return res;
}

/** A JSON response (`Content-Type: application/json`), e.g. an error `{"detail": …}`. */
export function respondJson(ctx: RequestContext, status: number, body: Uint8Array, headers: HeaderRecord = {}): Response {
  headers['Content-Type'] = JSON_TYPE;
  return respond(ctx, status, ctx.method === 'HEAD' ? null : body, headers);
}

/**
 * Gives a response built outside {@link respond} (by a step of another module) the common headers it lacks.
 * Such a response pays for a `Headers` instance; ours do not.
 */
export function completeResponse(ctx: RequestContext, res: Response): Response {
  if (assembled.has(res)) return res;
  const common = addCommonHeaders(ctx, res.status, {});
  try {
    for (const name in common) if (!res.headers.has(name)) res.headers.set(name, common[name]!);
    return res;
  } catch {
    // Immutable headers (a response from fetch()): copy it.
    const copy = new Response(res.body, res);
    for (const name in common) if (!copy.headers.has(name)) copy.headers.set(name, common[name]!);
    return copy;
  }
}
