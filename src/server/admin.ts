/**
 * The admin listener: operators' endpoints (the Git push webhook; later `/metrics`, `/livez`, `/readyz`) on a
 * port of their own (`ADMIN_PORT` on `ADMIN_HOST`), so the public port stays GET/HEAD only. Endpoints are a
 * declarative table of {@link AdminRoute}s, one entry each; the table answers unknown paths, other methods and
 * failures the same way for every route. The table answers Fetch `Request`s (the webhook reads the body), adapted
 * by `@hono/node-server`, and is hosted by {@link startHost}, so it has the public port's slow-client limits and
 * graceful drain.
 *
 * Admin responses carry no CORS headers: no web page is meant to read them.
 */
import type { AppLogger } from '../http/access-log.js';
import type { HttpBindings } from '@hono/node-server';
import { startHost, type Host, type HostLimits } from './host.js';

/** What the host knows about a request besides the request itself. */
export interface AdminRequestInfo {
  /** The socket peer's address (`""` when unknown); no forwarding header is trusted. For logs only. */
  peer: string;
}

/** One admin endpoint. */
export interface AdminRoute {
  /** The exact path (`/hooks/git`): no prefix, pattern or trailing-slash matching; the query is ignored. */
  path: string;
  /** Methods it answers, upper case (`['POST']`); others get `405` with `Allow`. HEAD is not implied by GET. */
  methods: readonly string[];
  /**
   * `false`: the path answers `404` like an unknown one, whatever the method, so probing an endpoint that is not
   * configured reveals nothing. Default true.
   */
  enabled?: boolean;
  /** Answers a request whose path and method matched. May throw: the table answers `500`. */
  handle(request: Request, info: AdminRequestInfo): Response | Promise<Response>;
}

/** Options of {@link startAdminHost}. */
export interface AdminHostOptions {
  host: string;
  /** TCP port; `0` picks a free one (tests). */
  port: number;
  routes: readonly AdminRoute[];
  logger: AppLogger;
  /** Overrides of the host's limits (tests use short timeouts). */
  limits?: Partial<HostLimits>;
}

/**
 * A JSON response for the admin listener: `Content-Type: application/json`, `Cache-Control: no-store` (an
 * operator's answer is never cached by anything in between).
 * @param body the serialised JSON.
 * @param headers extra headers (e.g. `Allow`).
 */
export function adminJson(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers },
  });
}

/** `{"detail": <detail>}` as an {@link adminJson} response, the error shape of the public API. */
export function adminDetail(status: number, detail: string, headers?: Record<string, string>): Response {
  return adminJson(status, JSON.stringify({ detail }), headers);
}

/** The answer to a path no enabled route has (also what a disabled route answers). */
export const adminNotFound = (): Response => adminDetail(404, 'Not Found');

/**
 * Builds the handler of a route table.
 * Unknown path (or a disabled route) → `404 {"detail":"Not Found"}`; known path, other method →
 * `405 {"detail":"Method Not Allowed"}` with `Allow`; a route that throws or rejects → logged at error level and
 * `500 {"detail":"Internal Server Error"}` (never a stack trace on the wire).
 * @throws Error when two routes share a path (a table mistake, caught at start-up).
 */
export function createAdminHandler(
  routes: readonly AdminRoute[],
  logger: AppLogger,
): (request: Request, info?: AdminRequestInfo) => Promise<Response> {
  const byPath = new Map<string, AdminRoute>();
  for (const route of routes) {
    if (byPath.has(route.path)) throw new Error(`admin route ${route.path} is declared twice`);
    // A disabled route is left out of the table, so it answers exactly as an unknown path does.
    if (route.enabled !== false) byPath.set(route.path, route);
  }
  const noPeer: AdminRequestInfo = { peer: '' };

  return async (request, info = noPeer) => {
    let path = '';
    try {
      path = new URL(request.url).pathname;
      const route = byPath.get(path);
      if (route === undefined) return adminNotFound();
      if (!route.methods.includes(request.method)) {
        return adminDetail(405, 'Method Not Allowed', { Allow: route.methods.join(', ') });
      }
      return await route.handle(request, info);
    } catch (error) {
      logger.error(
        { err: error instanceof Error ? error : new Error(String(error)), method: request.method, path: path.slice(0, 1024), peer: info.peer },
        'unhandled error while answering an admin request',
      );
      return adminDetail(500, 'Internal Server Error');
    }
  };
}

/**
 * Starts the admin listener on `host:port` with the table `routes`, through {@link startHost} (same limits
 * against slow or oversized clients, same graceful drain).
 * @returns the listening host; `close(timeoutMs)` drains in-flight requests for up to `timeoutMs` milliseconds.
 * @throws Error when the address cannot be bound (e.g. EADDRINUSE), or when two routes share a path.
 */
export async function startAdminHost(opts: AdminHostOptions): Promise<Host> {
  const handle = createAdminHandler(opts.routes, opts.logger);
  // Imported here: it loads Node's fetch implementation, which a start without the admin listener never needs.
  const { getRequestListener, RequestError } = await import('@hono/node-server');
  const listener = getRequestListener(
    (request, bindings) => handle(request, { peer: (bindings as HttpBindings).incoming.socket.remoteAddress ?? '' }),
    {
      // Reached for a request whose URL cannot be built (a bad Host: 400), never by the table's own failures.
      errorHandler: (error: unknown) => {
        if (error instanceof RequestError) return adminDetail(400, 'Bad Request');
        opts.logger.error({ err: error }, 'unhandled error in the admin listener');
        return adminDetail(500, 'Internal Server Error');
      },
    },
  );
  return startHost((req, res) => void listener(req, res), {
    host: opts.host,
    port: opts.port,
    ...(opts.limits !== undefined && { limits: opts.limits }),
  });
}
