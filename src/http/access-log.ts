/**
 * The access log: one structured line per request, from the observation step's {@link RequestRecord}: method,
 * path, route template, status, bytes sent, `duration_ms`, client address (after `TRUST_PROXY`), user agent, client
 * kind, request id and the content revision served. The logger is injected (pino on Node, which adds the time the
 * line is made, as the answer is ready), so this module stays runtime-neutral.
 */
import type { ObserverGate, RequestObserver, RequestRecord } from './observe.js';

/** The subset of pino's logger the app uses. */
export interface AppLogger {
  /** Whether lines of `level` are written (pino has it); when absent, every level is assumed enabled. */
  isLevelEnabled?(level: string): boolean;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** The message of every access-log line. */
export const ACCESS_LOG_MESSAGE = 'request';

/** The fields of one access-log line, in the order they are written; a field that is `undefined` is left out. */
export interface AccessLogFields {
  method: string;
  path: string;
  route: string | undefined;
  status: number;
  bytes: number | undefined;
  /** Milliseconds, to the microsecond. */
  duration_ms: number;
  client_address: string | undefined;
  user_agent: string | undefined;
  client_kind: string;
  request_id: string;
  revision: string | undefined;
}

/** The fields of the access-log line of `r`. */
export function accessLogFields(r: RequestRecord): AccessLogFields {
  return {
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
  };
}

/**
 * The access-log observer, enabled while `info` lines are written (above `info`, e.g. `LOG_LEVEL=warn` for a
 * benchmark, it costs nothing).
 */
export function accessLog(logger: AppLogger): RequestObserver & ObserverGate {
  const observe: RequestObserver = (r) => logger.info(accessLogFields(r), ACCESS_LOG_MESSAGE);
  return Object.assign(observe, { enabled: () => logger.isLevelEnabled?.('info') ?? true });
}
