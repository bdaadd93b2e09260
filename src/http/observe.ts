/**
 * Observation: each request is measured once, from its first step to its answer, and one {@link RequestRecord}
 * is handed to every observer (the access log, the metrics). Runtime-neutral: observers are injected.
 */
import { routeFor } from '../contract/routes.js';
import type { StepContext } from './step.js';
import { MAX_USER_AGENT_LENGTH } from './user-agents.js';

/** Paths are recorded up to this many characters (a hostile path could be huge). */
const MAX_RECORDED_PATH = 1024;

/** One answered request. */
export interface RequestRecord {
  method: string;
  /** The URL path as requested (not decoded), cut at 1 024 characters. */
  path: string;
  /** The route template (`/v1/courses/{course_id}`), `undefined` when no route of the table matches. */
  route: string | undefined;
  status: number;
  /** Body bytes of the answer (0 for HEAD and 304), as `respond` counted them. */
  bytes: number | undefined;
  /** Time from the first step to the answer being ready, in milliseconds. */
  durationMs: number;
  clientKind: string;
  /** The client's address after `TRUST_PROXY` (the client-address step), `undefined` when that step did not run. */
  clientAddress: string | undefined;
  /** The `User-Agent` field, cut at the length the classifier reads; `undefined` when absent. */
  userAgent: string | undefined;
  requestId: string;
  /** The content revision the answer came from; `undefined` when it read no index (`/health`, a 429). */
  revision: string | undefined;
}

/** Receives every record; must not throw (a throw is logged, and the request is answered all the same). */
export type RequestObserver = (record: RequestRecord) => void;

/** Whether an observer has anything to do (e.g. the access log above `info` has not); default always. */
export interface ObserverGate {
  enabled?: () => boolean;
}

const isEnabled = (observer: ObserverGate): boolean => observer.enabled?.() ?? true;

/** The record of an answered request, from what the steps left on `ctx` (`start`: `performance.now()` at its start). */
export function requestRecord(ctx: StepContext, status: number, start: number): RequestRecord {
  const path = ctx.url.pathname;
  const userAgent = ctx.request.headers.get('user-agent');
  const locals = ctx.locals;
  return {
    method: ctx.method,
    path: path.length > MAX_RECORDED_PATH ? `${path.slice(0, MAX_RECORDED_PATH)}…` : path,
    route: (locals.route ?? routeFor(path))?.path,
    status,
    bytes: locals.bodyBytes,
    durationMs: performance.now() - start,
    clientKind: locals.clientKind ?? 'unclassified',
    clientAddress: locals.clientAddress,
    userAgent: userAgent === null ? undefined : userAgent.slice(0, MAX_USER_AGENT_LENGTH),
    requestId: locals.requestId,
    revision: locals.revision,
  };
}

/** The observers to tell, or `undefined` when none is enabled (then nothing is measured). */
export function enabledObservers(
  observers: ReadonlyArray<RequestObserver & ObserverGate>,
): ReadonlyArray<RequestObserver & ObserverGate> | undefined {
  return observers.some(isEnabled) ? observers : undefined;
}

/**
 * Hands `record` to every enabled observer.
 * @param onError told of an observer's exception; the other observers are still told.
 */
export function notifyObservers(
  observers: ReadonlyArray<RequestObserver & ObserverGate>,
  record: RequestRecord,
  onError: (error: unknown) => void,
): void {
  for (const observe of observers) {
    if (!isEnabled(observe)) continue;
    try {
      observe(record);
    } catch (error) {
      onError(error);
    }
  }
}
