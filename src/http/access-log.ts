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

/**
 * The fields of an access-log line, in the order they are written, as JSON Schema (draft 7, as fast-json-stringify
 * reads it): on Node the serializer of the line is compiled from it (src/server/access-log-serializer.ts). A field
 * that is `undefined` is left out of the line.
 */
export const ACCESS_LOG_SCHEMA = {
  type: 'object',
  properties: {
    method: { type: 'string' },
    path: { type: 'string' },
    route: { type: 'string' },
    status: { type: 'number' },
    bytes: { type: 'number' },
    /** Milliseconds, to the microsecond. */
    duration_ms: { type: 'number' },
    client_address: { type: 'string' },
    user_agent: { type: 'string' },
    client_kind: { type: 'string' },
    request_id: { type: 'string' },
    revision: { type: 'string' },
  },
} as const;

type FieldSchemas = (typeof ACCESS_LOG_SCHEMA)['properties'];

/** The fields of one access-log line ({@link ACCESS_LOG_SCHEMA}): each a string or a number, or `undefined`. */
export type AccessLogFields = {
  [K in keyof FieldSchemas]: (FieldSchemas[K]['type'] extends 'number' ? number : string) | undefined;
};

/** The fields of the access-log line of `r`, in schema order. */
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
