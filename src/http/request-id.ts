/**
 * The request id, the first thing known of every request: a well-formed incoming `X-Request-Id` is kept (so a
 * caller or proxy can correlate logs), otherwise a random UUID is made; `respond` echoes it on the answer and every
 * log line about the request carries it.
 */
import type { RequestHeaders } from './step.js';

/** What an incoming id may look like: short, printable, no spaces or quotes (it is logged and echoed). */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of a request with these header fields. */
export function requestIdOf(headers: RequestHeaders): string {
  const incoming = headers.get('x-request-id');
  return incoming !== null && WELL_FORMED.test(incoming) ? incoming : crypto.randomUUID();
}
