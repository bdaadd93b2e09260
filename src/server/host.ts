/**
 * Hosts the HatTip handler on `node:http` through `@hono/node-server`'s `getRequestListener` (a lightweight
 * Request, and a response written straight from our bytes and plain header object), with limits against slow
 * or oversized clients and a graceful drain. `@hono/node-server` is imported by the first request the direct path
 * does not answer: importing it extends the global `Request` and `Response`, which loads Node's fetch
 * implementation (undici), about 20 ms that a start would otherwise spend before serving.
 *
 * The requests read in one turn of the event loop are answered together after that turn (`turn-batch.ts`), in the
 * order read: under load on one core, `/v1/catalog`'s CPU per request fell from 37.8 to 29.2 µs (medians of five
 * alternating runs, bench/analysis.md), a good part of it system time: the answers leave together, and the load
 * generator on the same machine is woken once for many of them. The cost is latency at saturation: a turn's
 * requests wait for one another, and the benchmark's p99 rose by 0.1–1 ms. A server that is not saturated reads few
 * requests a turn, and neither gains nor loses (measured behind nginx).
 *
 * The client address given to the app (`ctx.ip`) is the socket peer: no forwarding header is trusted here
 * (the client-address step resolves trusted proxies).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { HttpBindings } from '@hono/node-server';
import type { AdapterRequestContext, HattipHandler } from '@hattip/core';
import type { AppLogger } from '../http/access-log.js';
import type { DirectApp } from '../http/direct.js';
import { inTurnBatches } from '../http/turn-batch.js';
import { answerDirectly } from './direct-path.js';

/** Limits on the Node server (milliseconds and bytes). */
export const HOST_LIMITS = {
  /** Time allowed to receive the complete request head. */
  headersTimeoutMs: 10_000,
  /** Time allowed to receive the complete request (head and body). */
  requestTimeoutMs: 30_000,
  /** Idle time before a keep-alive connection is closed. */
  keepAliveTimeoutMs: 5_000,
  /** Largest request head accepted (431 beyond). */
  maxHeaderSizeBytes: 16 * 1024,
  /** Requests served on one connection before it is closed (spreads load across workers). */
  maxRequestsPerSocket: 10_000,
  /** How often Node checks connections against the two timeouts above (its default, 30 s, would let a slow
   * client hold a connection for up to 40 s instead of 10). */
  checkIntervalMs: 1_000,
  /** Open connections at most; more are closed as they arrive (`MAX_CONNECTIONS`). */
  maxConnections: 900,
  /** Open connections from one peer address at most, trusted proxies aside (`MAX_CONNECTIONS_PER_ADDRESS`). */
  maxConnectionsPerAddress: 64,
  /** Longest wait for an error answer (400, 408, 431) to be flushed before its connection is destroyed. */
  errorFlushMs: 1_000,
} as const;

/** Limits of one host; see {@link HOST_LIMITS}. */
export type HostLimits = { -readonly [K in keyof typeof HOST_LIMITS]: number };

/** Options of {@link startHost}. */
export interface HostOptions {
  host: string;
  port: number;
  logger: AppLogger;
  /** Overrides of {@link HOST_LIMITS} (tests use short timeouts). */
  limits?: Partial<HostLimits>;
  /**
   * Peers exempt from the per-address connection limit: the trusted proxies, whose one address carries many
   * clients. Default none.
   */
  isTrustedPeer?: (address: string) => boolean;
  /**
   * Answer GET and HEAD of the route table's index and computed routes on the direct path (`direct-path.ts`)
   * when the handler offers one (`createApp`'s does). Default true; false sends every request through HatTip.
   */
  direct?: boolean;
}

/** A listening host. */
export interface Host {
  /** The Node server (for tests and metrics). */
  server: Server;
  /** `http://<address>:<port>` it listens on (IPv6 in brackets). */
  url: string;
  /**
   * Stops accepting connections, lets in-flight requests finish, closes idle keep-alive connections, and after
   * `timeoutMs` closes whatever is left. Resolves when the server is closed.
   */
  close(timeoutMs: number): Promise<void>;
}

const BAD_REQUEST_BODY = '{"detail":"Bad Request"}';
/** The header fields of the host's own error answers (400, 500), which no step of the app completes. */
const ERROR_HEADERS: Readonly<Record<string, string>> = { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' };
const INTERNAL_ERROR_BODY = '{"detail":"Internal Server Error"}';

// Shared by every request context, so building one allocates no closures.
const readEnv = (name: string): string | undefined => process.env[name];
const noop = (): void => {};

/**
 * Closes a new connection at once when its peer already has `max` open ones (unless `exempt`): one address
 * cannot take every connection slot. Counts live in a map that holds only addresses with open connections.
 */
function limitConnectionsPerAddress(server: Server, max: number, exempt: (address: string) => boolean): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || exempt(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/** Starts listening. @throws Error when the address cannot be bound (e.g. EADDRINUSE). */
export async function startHost(handler: HattipHandler<HttpBindings> & { direct?: DirectApp }, opts: HostOptions): Promise<Host> {
  const { logger } = opts;
  const limits: HostLimits = { ...HOST_LIMITS, ...opts.limits };
  const waitUntil = (promise: Promise<unknown>): void => {
    promise.catch((error: unknown) => logger.error({ err: error }, 'background task failed'));
  };
  /** Logs an error no step of the app answered for. */
  const logHostError = (error: unknown): void => logger.error({ err: error }, 'unhandled error in the HTTP host');
  const makeListener = async () =>
    (await import('@hono/node-server')).getRequestListener(
      (request, bindings) => {
        const ctx: AdapterRequestContext<HttpBindings> = {
          request,
          ip: (bindings as HttpBindings).incoming.socket.remoteAddress ?? '',
          platform: bindings as HttpBindings,
          env: readEnv,
          passThrough: noop,
          waitUntil,
        };
        return handler(ctx);
      },
      {
        // Reached only for a request Node accepted but the URL could not be built from (e.g. a bad Host), or if
        // the handler itself threw past its error boundary.
        errorHandler: (error: unknown) => {
          const isRequestError = error instanceof Error && error.name === 'RequestError';
          if (!isRequestError) logHostError(error);
          return new Response(isRequestError ? BAD_REQUEST_BODY : INTERNAL_ERROR_BODY, {
            status: isRequestError ? 400 : 500,
            headers: ERROR_HEADERS,
          });
        },
      },
    );
  /** Logs `error` and answers 500, or cuts the connection when part of the answer is already written. */
  const answerFailed = (res: ServerResponse, error: unknown): void => {
    logHostError(error);
    if (!res.headersSent) res.writeHead(500, ERROR_HEADERS).end(INTERNAL_ERROR_BODY);
    else res.destroy();
  };

  type Listener = Awaited<ReturnType<typeof makeListener>>;
  let listener: Listener | undefined;
  let importing: Promise<Listener> | undefined;
  /** Answers through HatTip, once `@hono/node-server` is imported (a request body waits in its stream meanwhile). */
  const general = (req: IncomingMessage, res: ServerResponse): void => {
    if (listener !== undefined) {
      void listener(req, res);
      return;
    }
    importing ??= makeListener().then((made) => (listener = made));
    importing.then(
      (made) => void made(req, res),
      (error: unknown) => answerFailed(res, error),
    );
  };

  const direct = opts.direct === false ? undefined : handler.direct;
  let draining = false;
  const answer = (res: ServerResponse): void => {
    const req = res.req;
    // While draining, tell keep-alive clients not to send another request on this connection.
    if (draining) res.setHeader('Connection', 'close');
    if (direct !== undefined && answerDirectly(direct, req, res, answerFailed)) return;
    general(req, res);
  };
  // After the turn that read it, with the turn's other requests (the module comment says why).
  const answerInTurn = inTurnBatches(answer, setImmediate, (error, res) => answerFailed(res, error));
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      maxHeaderSize: limits.maxHeaderSizeBytes,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    (_req: IncomingMessage, res: ServerResponse) => answerInTurn(res),
  );
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  // A client may half-close after sending its request (RFC 9112 §9.6): answer it, then close. Without this Node
  // aborts the request when the client's FIN arrives, and any answer not yet written (all but synchronous ones)
  // is lost. Not in Node's typings; Node's own http server reads it in socketOnEnd.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  // Beyond this Node closes new connections at once: descriptors stay available for files, watchers, Redis.
  server.maxConnections = limits.maxConnections;
  limitConnectionsPerAddress(server, limits.maxConnectionsPerAddress, opts.isTrustedPeer ?? (() => false));
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // Malformed requests, oversized heads, timeouts: answer plainly if the socket is still writable, then destroy
    // it. Ending alone would half-close it, and a client that keeps its half open would hold the descriptor.
    if (socket.writable && !(socket as { _httpMessage?: unknown })._httpMessage) {
      const status =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? '431 Request Header Fields Too Large'
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? '408 Request Timeout'
            : '400 Bad Request';
      const body = status.startsWith('431')
        ? '{"detail":"Request Header Fields Too Large"}'
        : status.startsWith('408')
          ? '{"detail":"Request Timeout"}'
          : BAD_REQUEST_BODY;
      const destroy = (): void => void socket.destroy();
      // A client that does not read its answer cannot keep the connection either.
      const flushed = setTimeout(destroy, limits.errorFlushMs);
      flushed.unref();
      socket.end(
        `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        () => {
          clearTimeout(flushed);
          destroy();
        },
      );
    } else {
      socket.destroy();
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostPart}:${address.port}`;

  let closing: Promise<void> | undefined;
  const close = (timeoutMs: number): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      draining = true;
      server.close(() => resolve());
      // In-flight requests finish; idle keep-alive sockets are closed now and as they become idle.
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
      server.once('close', () => {
        clearInterval(sweep);
        clearTimeout(force);
      });
    });
    return closing;
  };
  return { server, url, close };
}
