/**
 * The admin listener's probes and metrics: `GET /livez`, `GET /readyz` (Kubernetes' names; also what the image's
 * `HEALTHCHECK` and a load balancer ask) and `GET /metrics` (Prometheus text format). Never on the public port.
 */
import { adminJson, type AdminRoute } from './admin.js';
import type { ServiceMetrics } from './metrics.js';

/** Whether this instance should be sent traffic, and if not, why. */
export type Readiness = { ready: true } | { ready: false; reason: string };

/** Path of the liveness probe. */
export const LIVENESS_PATH = '/livez';
/** Path of the readiness probe. */
export const READINESS_PATH = '/readyz';
/** Path of the Prometheus scrape. */
export const METRICS_PATH = '/metrics';

const GET_HEAD = ['GET', 'HEAD'] as const;

/**
 * `GET /livez`: `200 {"status":"live"}` whenever the event loop turns to answer it (a wedged process answers
 * nothing, and the orchestrator restarts it). Checks nothing else: a failing Git remote must not restart every pod.
 */
export function livenessRoute(): AdminRoute {
  return { path: LIVENESS_PATH, methods: GET_HEAD, handle: () => adminJson(200, '{"status":"live"}') };
}

/**
 * `GET /readyz`: `200 {"status":"ready"}` or `503 {"status":"not ready","reason":…}`; both carry `warnings`
 * (configuration an operator should look at, e.g. `PUBLIC_BASE_URL` unset on a public address) when there are any.
 * @param readiness read on each request.
 */
export function readinessRoute(readiness: () => Readiness, warnings: readonly string[]): AdminRoute {
  return {
    path: READINESS_PATH,
    methods: GET_HEAD,
    handle: () => {
      const state = readiness();
      const extra = warnings.length > 0 ? { warnings } : {};
      return state.ready
        ? adminJson(200, JSON.stringify({ status: 'ready', ...extra }))
        : adminJson(503, JSON.stringify({ status: 'not ready', reason: state.reason, ...extra }));
    },
  };
}

/** `GET /metrics`: the exposition of `metrics` (`text/plain; version=0.0.4`), never cached. */
export function metricsRoute(metrics: ServiceMetrics): AdminRoute {
  return {
    path: METRICS_PATH,
    methods: GET_HEAD,
    handle: async () => {
      const { body, contentType } = await metrics.render();
      return new Response(body, { status: 200, headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' } });
    },
  };
}
