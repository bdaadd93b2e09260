/**
 * The access log: one structured line per request, from the observation step's {@link RequestRecord}: method,
 * path, route template, status, bytes sent, `duration_ms`, client address (after `TRUST_PROXY`), user agent, client
 * kind, request id and the content revision served. The logger is injected (pino on Node, which adds the time the
 * line is made: on Node after the turn that answered, observation-batch.ts), so this module stays runtime-neutral.
 */
import type { ObserverGate, RequestObserver } from './observe.js';

/** The subset of pino's logger the app uses. */
export interface AppLogger {
  /** Whether lines of `level` are written (pino has it); when absent, every level is assumed enabled. */
  isLevelEnabled?(level: string): boolean;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * The access-log observer, enabled while `info` lines are written (above `info`, e.g. `LOG_LEVEL=warn` for a
 * benchmark, it costs nothing).
 */
export function accessLog(logger: AppLogger): RequestObserver & ObserverGate {
  const observe: RequestObserver = (r) =>
    logger.info(
      {
        method: r.method,
        path: r.path,
        route: r.route,
        status: r.status,
        bytes: r.bytes,
        duration_ms: Math.round(r.durationMs * 1000) / 1000,
        client_address: r.clientAddress,
        user_agent: r.userAgent,
        client_kind: r.clientKind,
        request_id: r.requestId,
        revision: r.revision,
      },
      'request',
    );
  return Object.assign(observe, { enabled: () => logger.isLevelEnabled?.('info') ?? true });
}
