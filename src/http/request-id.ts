/**
 * The request-id step: the first step of every request. Keeps a well-formed incoming `X-Request-Id` (so a
 * caller or proxy can correlate logs) and otherwise makes a random UUID; the id is echoed on the response by
 * `respond` and written in every log line about the request.
 */
import type { RequestHandler } from '@hattip/compose';

/** What an incoming id may look like: short, printable, no spaces or quotes (it is logged and echoed). */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

/** Sets `ctx.locals.requestId`. */
export function requestIdStep(): RequestHandler {
  return (ctx) => {
    const incoming = ctx.request.headers.get('x-request-id');
    ctx.locals.requestId = incoming !== null && WELL_FORMED.test(incoming) ? incoming : crypto.randomUUID();
  };
}
