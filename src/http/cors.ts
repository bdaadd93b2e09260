/**
 * CORS preflight (Fetch standard §3.2): `OPTIONS` answers `204` with what a cross-origin script may send.
 * The API is public and read-only, needs no credentials, so any origin is allowed; actual responses carry
 * `Access-Control-Allow-Origin: *` and the exposed headers (see `respond.ts`). Preflights run after the
 * rate-limit step, which never spends a budget on them (a browser sends them on its own, they are not reads) but
 * reports it, so they carry the `RateLimit-*` fields like every response.
 */
import type { Step } from './step.js';
import { respond } from './respond.js';

/** Methods a cross-origin script may use. */
export const CORS_ALLOW_METHODS = 'GET, HEAD, OPTIONS';

/** How long a browser may cache a preflight answer, in seconds. */
export const CORS_MAX_AGE_SECONDS = 86_400;

/** Answers every `OPTIONS` request with `204 No Content`. */
export function corsPreflightStep(): Step {
  return (ctx) => {
    if (ctx.method !== 'OPTIONS') return;
    return respond(ctx, 204, null, {
      Allow: CORS_ALLOW_METHODS,
      'Access-Control-Allow-Methods': CORS_ALLOW_METHODS,
      // `*` allows any request header (no credentials are ever used), e.g. If-None-Match or Signature-Input.
      'Access-Control-Allow-Headers': '*',
      'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
    });
  };
}
