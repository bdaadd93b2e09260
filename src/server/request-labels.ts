/**
 * The labels of the request metrics (`route`, `method`, `status`, `client_kind`), each from a set the route table
 * fixes, so that no client can add series: what a client chooses (its path, its method, what it asks for) only picks
 * among them. {@link requestSeriesBound} counts the label sets that can exist, from the same table.
 */
import { CLIENT_KINDS as BUDGET_KINDS } from '../contract/rate-limits.js';
import { PREFLIGHT_METHOD, ROUTES, type RouteSpec } from '../contract/routes.js';
import type { RequestRecord } from '../http/observe.js';

/** One request's labels. */
export type RequestLabels = Readonly<Record<'route' | 'method' | 'status' | 'client_kind', string>>;

/** The `client_kind` values: the budgets' kinds, and `unclassified` (a request that failed before it was classified). */
const CLIENT_KINDS: readonly string[] = [...BUDGET_KINDS, 'unclassified'];

/** The route label of a path no route of the table matches. */
const UNMATCHED = 'unmatched';

/** The method label of a method its route does not answer (a 405), and of any method unknown to the table. */
const OTHER = 'other';

/** A status's class label, `1xx` … `5xx`: the status of an unmatched request. */
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

function statusClass(status: number): string {
  return STATUS_CLASSES[Math.min(4, Math.max(0, Math.trunc(status / 100) - 1))]!;
}

/**
 * The statuses a route can answer a method with, by the table: what the router and the steps before it make of the
 * route's source, parameters, aliases, budget and methods. Any status, for a route's own methods, may also be a 500.
 */
function routeStatuses(route: RouteSpec, method: string): ReadonlySet<number> {
  const budgeted = route.budget !== 'exempt';
  if (method === PREFLIGHT_METHOD) return new Set([204, 500]);
  if (method === OTHER) return new Set([405, 500, ...(budgeted ? [429] : [])]);
  const out = new Set([200, 500]);
  // A representation (not a computed answer): conditional requests, and a key that names nothing.
  if (route.source !== 'computed') [304, 404].forEach((s) => out.add(s));
  if (route.aliases !== undefined) out.add(308);
  if (route.params.length > 0) out.add(422);
  if (budgeted) out.add(429);
  if (route.unavailable !== undefined) out.add(503);
  return out;
}

/** A route's method labels: its methods, the preflight and `other`. */
function routeMethods(route: RouteSpec): readonly string[] {
  return [...new Set<string>([...route.methods, PREFLIGHT_METHOD, OTHER])];
}

/** Method labels on an unmatched path: every method of the table, the preflight and `other`. */
const UNMATCHED_METHODS: ReadonlySet<string> = new Set([...ROUTES.flatMap((r) => r.methods), PREFLIGHT_METHOD, OTHER]);

/** Per route template: each method label with the statuses it is labelled exactly. */
const LABELS_BY_ROUTE = new Map<string, ReadonlyMap<string, ReadonlySet<number>>>(
  (ROUTES as readonly RouteSpec[]).map((route) => [route.path, new Map(routeMethods(route).map((m) => [m, routeStatuses(route, m)]))]),
);

const KNOWN_KINDS: ReadonlySet<string> = new Set(CLIENT_KINDS);

/**
 * The labels of one answered request: `route` its template; `method` the request's when its route answers it or it
 * is the preflight's `OPTIONS`, else `other`; `status` the status; `client_kind` the kind, or `unclassified`. A path
 * no route matches, or an answer the table does not foresee for its route and method (see {@link routeStatuses}), is
 * counted as `route="unmatched"` with the status's class (`4xx`), and a method any route answers, `OPTIONS` or `other`.
 */
export function requestLabels(record: Pick<RequestRecord, 'route' | 'method' | 'status' | 'clientKind'>): RequestLabels {
  const client_kind = KNOWN_KINDS.has(record.clientKind) ? record.clientKind : 'unclassified';
  const methods = record.route === undefined ? undefined : LABELS_BY_ROUTE.get(record.route);
  if (methods !== undefined) {
    const method = methods.has(record.method) ? record.method : OTHER;
    if (methods.get(method)!.has(record.status)) return { route: record.route!, method, status: String(record.status), client_kind };
  }
  const method = UNMATCHED_METHODS.has(record.method) ? record.method : OTHER;
  return { route: UNMATCHED, method, status: statusClass(record.status), client_kind };
}

/** The most label sets the request metrics can hold (see {@link requestSeriesBound}). */
export interface RequestSeriesBound {
  /** Of `syllabus_http_requests_total` (`route`, `method`, `status`, `client_kind`): one line each. */
  readonly requests: number;
  /** Of `syllabus_http_request_duration_seconds` (`route`, `method`, `status`): a line per bucket, `_sum` and `_count`. */
  readonly durations: number;
}

/**
 * The most label sets {@link requestLabels} can give, from the table: each route's method labels times the statuses
 * each is foreseen with, plus the unmatched method labels times the five status classes; for the request counter,
 * that times the client kinds.
 */
export function requestSeriesBound(): RequestSeriesBound {
  let durations = UNMATCHED_METHODS.size * STATUS_CLASSES.length;
  for (const methods of LABELS_BY_ROUTE.values()) {
    for (const statuses of methods.values()) durations += statuses.size;
  }
  return { requests: durations * CLIENT_KINDS.length, durations };
}
