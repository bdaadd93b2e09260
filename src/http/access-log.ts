/**
 * The access-log step: one structured line per request (method, path, status, duration in milliseconds,
 * client kind, request id), written after the response is ready. The logger is injected (pino on Node), so
 * this module stays runtime-neutral.
 */
import type { RequestHandler } from '@hattip/compose';

/** The subset of pino's logger the app uses. */
export interface AppLogger {
  /** Whether lines of `level` are written (pino has it); when absent, every level is assumed enabled. */
  isLevelEnabled?(level: string): boolean;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Paths are logged up to this many characters (a hostile path could be huge). */
const MAX_LOGGED_PATH = 1024;

/** Logs each request; must run right after the request-id step so it measures (almost) everything. */
export function accessLogStep(logger: AppLogger): RequestHandler {
  return async (ctx) => {
    // Above `info` (e.g. LOG_LEVEL=warn for a benchmark) the step costs nothing.
    if (logger.isLevelEnabled?.('info') === false) return;
    const start = performance.now();
    const res = await ctx.next();
    const path = ctx.url.pathname;
    logger.info(
      {
        method: ctx.method,
        path: path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path,
        status: res.status,
        duration_ms: Math.round((performance.now() - start) * 1000) / 1000,
        client_kind: ctx.locals.clientKind ?? 'unclassified',
        request_id: ctx.locals.requestId,
      },
      'request',
    );
    return res;
  };
}
