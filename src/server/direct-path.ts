/**
 * The Node host's direct path: a GET or HEAD of one of the route table's index or computed routes runs the app's
 * steps (`src/http/direct.ts`: request id, observation, error boundary, client address, client kind, rate limit,
 * CORS, router) on a light context read from the `IncomingMessage`, and writes the answer with `writeHead` and
 * `end`, without building a Fetch `Request` or `Response`. Everything else goes through `@hono/node-server` and
 * HatTip. The context gives the steps exactly what the general path would: the same URL string (only requests
 * whose target and `Host` `@hono/node-server` would use verbatim, or the URL parser give back unchanged, come
 * here), the same header values (only requests without a repeated field name, where Node's joined values could
 * differ from Fetch's) and the peer address.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { RequestContext } from '@hattip/compose';
import type { DirectApp } from '../http/direct.js';
import type { PlainAnswer } from '../http/respond.js';

// As @hono/node-server's src/url.ts: a target and a Host it turns into the request URL without parsing, and a dot
// segment, which sends a target through `new URL`.
const VERBATIM_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/;
// Its verbatim targets, and those with a `%` besides, which it hands to `new URL`: the URL parser leaves every `%`
// as it is, an encoded octet (RFC 3986 §2.1) or a stray one, and so gives back the very string, except where `%2e`
// spells a dot of a dot segment (WHATWG URL, "single-dot and double-dot segments"): those targets go the general way.
const DIRECT_TARGET = /^\/[!$%-;=?-[\]_a-z~]*$/;
const ENCODED_DOT = /%2e/i;

/** The request's fields, as Fetch's `Headers` answers `get` and `has` (names are lowercase in Node). */
class NodeRequestHeaders {
  readonly #raw: IncomingHttpHeaders;
  constructor(raw: IncomingHttpHeaders) {
    this.#raw = raw;
  }
  get(name: string): string | null {
    const value = this.#raw[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
  has(name: string): boolean {
    return this.#raw[name.toLowerCase()] !== undefined;
  }
}

/** The request URL: its path known at once, the rest parsed on first use (the signature checks read it). */
class LazyUrl {
  readonly pathname: string;
  readonly href: string;
  #url: URL | undefined;
  constructor(href: string, pathname: string) {
    this.href = href;
    this.pathname = pathname;
  }
  #parsed(): URL {
    return (this.#url ??= new URL(this.href));
  }
  get origin(): string {
    return this.#parsed().origin;
  }
  get protocol(): string {
    return this.#parsed().protocol;
  }
  get host(): string {
    return this.#parsed().host;
  }
  get hostname(): string {
    return this.#parsed().hostname;
  }
  get port(): string {
    return this.#parsed().port;
  }
  get search(): string {
    return this.#parsed().search;
  }
  get searchParams(): URLSearchParams {
    return this.#parsed().searchParams;
  }
  get hash(): string {
    return '';
  }
  toString(): string {
    return this.href;
  }
  toJSON(): string {
    return this.href;
  }
}

/** What the steps read of a request: method, URL, headers. */
interface LightRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: NodeRequestHeaders;
}

/** The request context of the direct path (the fields of HatTip's the steps read). */
class DirectContext {
  readonly method: string;
  readonly url: LazyUrl;
  readonly request: LightRequest;
  readonly ip: string;
  readonly locals = {};
  constructor(method: string, href: string, pathname: string, headers: IncomingHttpHeaders, ip: string) {
    this.method = method;
    this.url = new LazyUrl(href, pathname);
    this.request = { method, url: href, headers: new NodeRequestHeaders(headers) };
    this.ip = ip;
  }
}

/** Whether some field name occurs twice (Node joins or drops repeated values differently from Fetch). */
function repeatsAField(req: IncomingMessage): boolean {
  let names = 0;
  for (const name in req.headers) if (name !== '') names++;
  return names * 2 !== req.rawHeaders.length;
}

/** The internals of Node's `ServerResponse` that decide whether it adds `Content-Length` itself. */
interface ResponseInternals {
  _contentLength: number | null;
  _hasBody: boolean;
  _removedContLen: boolean;
  useChunkedEncodingByDefault: boolean;
}

/**
 * Writes an answer as `@hono/node-server` writes a `Response` with a plain header object and a byte body: the
 * same fields in the same order, `Content-Length` last (as Node adds it) unless the answer has one.
 */
function writeAnswer(res: ServerResponse, answer: PlainAnswer): void {
  const { status, body } = answer;
  let headers = answer.headers;
  if (body !== null && !('Content-Length' in headers || 'content-length' in headers)) {
    const internals = res as unknown as ResponseInternals;
    if (
      internals._contentLength === null &&
      internals._hasBody &&
      internals.useChunkedEncodingByDefault &&
      !internals._removedContLen &&
      status >= 200 &&
      status !== 204 &&
      status !== 304 &&
      !res.hasHeader('content-length')
    ) {
      internals._contentLength = body.byteLength;
    } else {
      headers = { ...headers, 'Content-Length': String(body.byteLength) };
    }
  }
  res.writeHead(status, headers);
  if (body === null) res.end();
  else res.end(body);
}

/**
 * Answers `req` on the direct path when it qualifies.
 * @returns false when it does not (the caller hands it to the general path); true when it is being answered.
 * @param answerFailed answers `res` when the steps' promise rejects or writing their answer throws (neither is
 *   expected: the error boundary answers the steps' own failures); the host's one fallback, so its 500 is the same
 *   on both paths.
 */
export function answerDirectly(
  app: DirectApp,
  req: IncomingMessage,
  res: ServerResponse,
  answerFailed: (res: ServerResponse, error: unknown) => void,
): boolean {
  const method = req.method;
  if (method !== 'GET' && method !== 'HEAD') return false;
  const target = req.url ?? '';
  const host = req.headers.host;
  if (host === undefined || !VERBATIM_HOST.test(host) || !DIRECT_TARGET.test(target) || DOT_SEGMENT.test(target) || ENCODED_DOT.test(target)) {
    return false;
  }
  const query = target.indexOf('?');
  const pathname = query < 0 ? target : target.slice(0, query);
  if (app.routeOf(pathname) === undefined || repeatsAField(req)) return false;
  const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const ctx = new DirectContext(
    method,
    `${scheme}://${host}${target}`,
    pathname,
    req.headers,
    req.socket.remoteAddress ?? '',
  ) as unknown as RequestContext;
  const observers = app.observers();
  const start = observers === undefined ? 0 : performance.now();
  const answered = app.answer(ctx);
  const write = (answer: PlainAnswer): void => {
    try {
      const record = observers === undefined ? undefined : app.record(ctx, answer.status, start);
      writeAnswer(res, answer);
      // The access log and the metrics after the bytes are on their way.
      if (record !== undefined) app.notify(observers!, record);
    } catch (error) {
      answerFailed(res, error);
    }
  };
  if (answered instanceof Promise) answered.then(write, (error: unknown) => answerFailed(res, error));
  else write(answered);
  return true;
}
