/**
 * Hosts a `node:http` request listener (the app's, `node-adapter.ts`; the admin table's) with limits against slow
 * or oversized clients and a graceful drain. The host knows nothing of the app: it answers only what Node reports
 * before there is a request (a malformed or oversized head, a timeout), and keeps a connection's end from cutting
 * an answer still being made.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

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
  /** Overrides of {@link HOST_LIMITS} (tests use short timeouts). */
  limits?: Partial<HostLimits>;
  /**
   * Peers exempt from the per-address connection limit: the trusted proxies, whose one address carries many
   * clients. Default none.
   */
  isTrustedPeer?: (address: string) => boolean;
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

/** A `node:http` request listener. */
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

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

/** The responses of one connection: how many are begun and not yet closed, and whether reading waits for them. */
interface Answering {
  count: number;
  /** Reading is paused until every begun response is closed (see {@link holdEndOfRequests}). */
  held: boolean;
  /** Whether {@link stayPaused} listens to the socket. */
  watched: boolean;
}

/**
 * Responses in progress, by connection (pipelined requests may have several): Node reports a client error on such
 * a connection too, and no answer may then be written on the socket between two of its bytes.
 * One record per connection, made at its first request and dropped with it: a `Map` entry added and deleted per
 * request reallocates the map's table each time, garbage that outlives young-generation collections.
 */
const answering = new WeakMap<Socket, Answering>();

/** The `close` listener of every response, which Node emits once (one function: a request allocates no closure). */
function responseClosed(this: ServerResponse): void {
  const socket = this.req.socket;
  const open = answering.get(socket);
  if (open === undefined) return;
  open.count--;
  if (open.count === 0 && open.held) {
    open.held = false;
    socket.resume();
  }
}

/** Counts a response begun on `socket`, and returns its connection's record. */
function responseBegun(socket: Socket): Answering {
  let open = answering.get(socket);
  if (open === undefined) answering.set(socket, (open = { count: 1, held: false, watched: false }));
  else open.count++;
  return open;
}

/** The `resume` listener of a held connection: Node resumes a socket as it reads a request; it stays paused. */
function stayPaused(this: Socket): void {
  if (answering.get(this)?.held) this.pause();
}

/**
 * Stops reading the connection of `req` until its responses are closed, once the whole request is received and
 * while its answer is not yet written. A client may half-close its connection right after its request (RFC 9112
 * §9.6), and Node aborts every request whose connection ends before its answer is written: an answer not written at
 * once (a shared budget store, a file read, a stream) would be lost. A paused socket reports no end, so the client's
 * FIN is read once the answers are out, and Node then closes the connection. Called on the tick after the request's
 * listener, when Node has parsed what it read and before it reads again; a request whose body is still arriving is
 * not held (its body must be read), and Node's rule applies to it.
 */
function holdEndOfRequests(req: IncomingMessage, res: ServerResponse, open: Answering): void {
  if (!req.complete || res.writableEnded || req.socket.destroyed) return;
  open.held = true;
  if (!open.watched) {
    open.watched = true;
    req.socket.on('resume', stayPaused);
  }
  req.socket.pause();
}

/**
 * Starts listening.
 * @param listener answers each request (it must answer every one; the host adds `Connection: close` while draining).
 * @throws Error when the address cannot be bound (e.g. EADDRINUSE).
 */
export async function startHost(listener: RequestListener, opts: HostOptions): Promise<Host> {
  const limits: HostLimits = { ...HOST_LIMITS, ...opts.limits };
  let draining = false;
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      maxHeaderSize: limits.maxHeaderSizeBytes,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    (req, res) => {
      const open = responseBegun(req.socket);
      res.on('close', responseClosed);
      // While draining, tell keep-alive clients not to send another request on this connection.
      if (draining) res.setHeader('Connection', 'close');
      listener(req, res);
      if (!res.writableEnded) process.nextTick(holdEndOfRequests, req, res, open);
    },
  );
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  // Beyond this Node closes new connections at once: descriptors stay available for files, watchers, Redis.
  server.maxConnections = limits.maxConnections;
  limitConnectionsPerAddress(server, limits.maxConnectionsPerAddress, opts.isTrustedPeer ?? (() => false));
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // Malformed requests, oversized heads, timeouts: answer plainly if the socket is still writable, then destroy
    // it. Ending alone would half-close it, and a client that keeps its half open would hold the descriptor.
    if (socket.writable && !((answering.get(socket as Socket)?.count ?? 0) > 0)) {
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
