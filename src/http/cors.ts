/**
 * CORS preflight (Fetch standard §3.2): `OPTIONS` answers `204` with what a cross-origin script may send.
 * The API is public and read-only, needs no credentials, so any origin is allowed; actual responses carry
 * `Access-Control-Allow-Origin: *` and the exposed headers (see `respond.ts`). Preflights run after the
 * rate-limit step, which never spends a budget on them (a browser sends them on its own, they are not reads) but
 * reports it, so they carry the `RateLimit-*` fields like every response.
 */
import { allowOf, ANY_PATH_ALLOW, matchRoute, PREFLIGHT_METHOD } from '../contract/routes.js';
import type { Step } from './step.js';
import { respond } from './respond.js';

/** How long a browser may cache a preflight answer, in seconds. */
const CORS_MAX_AGE_SECONDS = 86_400;

/**
 * Answers every `OPTIONS` request with `204 No Content`. `Allow` and `Access-Control-Allow-Methods` are what the
 * route answers (the route table's, as on its 405); a path no route matches gets every method of the table.
 */
export function corsPreflightStep(): Step {
  return (ctx) => {
    if (ctx.method !== PREFLIGHT_METHOD) return;
    const match = matchRoute(ctx.url.pathname);
    const methods = match === undefined ? ANY_PATH_ALLOW : allowOf(match.route);
    return respond(ctx, 204, null, {
      Allow: methods,
      'Access-Control-Allow-Methods': methods,
      // `*` allows any request header (no credentials are ever used), e.g. If-None-Match or Signature-Input.
      'Access-Control-Allow-Headers': '*',
      'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
    });
  };
}
