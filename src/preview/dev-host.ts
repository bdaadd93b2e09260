/**
 * The preview's listener: answers its own paths (the event stream, the reload script) and forwards every other
 * request to the production server it runs on a loopback port (the same app, headers and bodies), then:
 *
 * - an HTML answer (`Content-Type: text/html`) gets the reload script before `</body>`, the policy that allows it,
 *   `Cache-Control: no-store`, a new `Content-Length`, and no `ETag` (the body is not the app's any more);
 * - while the latest load is invalid, an HTML answer is replaced by the error page (status 500); other answers
 *   (the JSON API, the feed, assets) are the last good index's, as production serves them;
 * - an HTML answer also gets the preview's additions (`page-marks.ts`: links to the lesson pages, scheduled marks);
 * - requests ask the app for the identity coding, so bodies can be read and changed.
 *
 * Its own paths besides: the lesson pages (`lesson-page.ts`) and their stylesheet.
 *
 * Only its writer can read it (`writer-only.ts`): no answer carries an `Access-Control-*` field, a request another
 * site's page may have made is refused, and, bound to loopback (the default), it answers only requests whose `Host`
 * names this machine, so a web page elsewhere cannot read it through a DNS name rebound to 127.0.0.1.
 */
import { Agent, createServer, request as forward, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopbackHost } from '../server/config.js';
import { errorPage, startingPage, type PreviewResponse } from './error-page.js';
import { markPage, PREVIEW_STYLESHEET, withBanner, type PageMarks } from './page-marks.js';
import { allowReloadScript, injectReloadScript, PREVIEW_PATHS, RELOAD_SCRIPT } from './reload-script.js';
import type { PreviewEvent, PreviewSnapshot, PreviewState } from './state.js';
import { crossOriginRefusal, forwardedRequestHeaders, withoutCors } from './writer-only.js';

/** Largest HTML body the preview reads to change, in bytes (pages are far smaller); a bigger one is a 502. */
const MAX_HTML_BYTES = 32 * 1024 * 1024;

const SCRIPT_HEADERS = { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };
const STYLESHEET_HEADERS = { ...SCRIPT_HEADERS, 'Content-Type': 'text/css; charset=utf-8' };

/** Connection-level header fields (RFC 9110 §7.6.1), never forwarded in either direction. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade'];

/** Options of {@link startDevHost}. */
export interface DevHostOptions {
  host: string;
  /** 0: any free port. */
  port: number;
  state: PreviewState;
  /** The production server's base URL, or undefined until it serves (the first load is running or invalid). */
  upstream: () => string | undefined;
  /** The page of a lesson (by its id, as the path names it), or undefined before the first valid load. */
  lessonPage: (lessonId: string) => PreviewResponse | undefined;
  /** What to add to the pages now (`page-marks.ts`). */
  marks: () => PageMarks;
}

/** A listening preview. */
export interface DevHost {
  /** `http://<address>:<port>` it listens on (`localhost` when bound to every address). */
  url: string;
  /** Ends the event streams and closes every connection. */
  close(): Promise<void>;
}

/**
 * Starts listening.
 * @throws Error when the address cannot be bound (`EADDRINUSE`, `EADDRNOTAVAIL`, `EACCES`).
 */
export async function startDevHost(options: DevHostOptions): Promise<DevHost> {
  const { state } = options;
  const agent = new Agent({ keepAlive: true });
  const streams = new Set<ServerResponse>();
  const loopbackOnly = isLoopbackHost(options.host);

  const server = createServer((req, res) => {
    if (loopbackOnly && !isLoopbackHost(hostname(req.headers.host)))
      return send(res, plain(403, 'The preview answers requests for this machine only.'));
    const refusal = crossOriginRefusal(req);
    if (refusal !== undefined) return send(res, refusal);
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === PREVIEW_PATHS.events) return openStream(req, res);
    if (path === PREVIEW_PATHS.script) return send(res, { status: 200, headers: SCRIPT_HEADERS, body: RELOAD_SCRIPT });
    if (path === PREVIEW_PATHS.stylesheet) return send(res, { status: 200, headers: STYLESHEET_HEADERS, body: PREVIEW_STYLESHEET });
    if (path.startsWith(PREVIEW_PATHS.lessons)) return servePage(req, res, path.slice(PREVIEW_PATHS.lessons.length));
    proxy(req, res);
  });

  /** A lesson page: while the content is invalid the error page, as for the app's pages. */
  const servePage = (req: IncomingMessage, res: ServerResponse, lessonId: string): void => {
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) return send(res, plain(405, 'Method Not Allowed', { Allow: 'GET, HEAD' }));
    const snapshot = state.snapshot();
    const page = snapshot.problems === undefined ? options.lessonPage(lessonId) : undefined;
    if (page === undefined) return send(res, withoutServer(snapshot, true));
    const { banner } = options.marks();
    const body = injectReloadScript(banner === undefined ? page.body : withBanner(page.body, banner), snapshot.version);
    send(res, { status: page.status, headers: page.headers, body, head });
  };

  const openStream = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'GET') return send(res, plain(405, 'Method Not Allowed', { Allow: 'GET' }));
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    // A lost connection is retried after a second (the preview restarting: `npm run dev` under `tsx watch`).
    res.write(`retry: 1000\n\n${event('hello', state.snapshot().version)}`);
    const unsubscribe = state.subscribe((change: PreviewEvent) => res.write(event(change.kind, change.version)));
    streams.add(res);
    res.on('close', () => {
      unsubscribe();
      streams.delete(res);
    });
  };

  const proxy = (req: IncomingMessage, res: ServerResponse): void => {
    // Read once: the answer shows the state the request arrived in, and a change after it is an event.
    const snapshot = state.snapshot();
    const upstream = options.upstream();
    if (upstream === undefined) return send(res, withoutServer(snapshot, acceptsHtml(req.headers.accept)));
    const target = new URL(upstream);
    const headers: IncomingHttpHeaders = { ...forwardedRequestHeaders(withoutHopByHop(req.headers), target.host), 'accept-encoding': 'identity' };
    const outgoing = forward({ agent, host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      if (!/^text\/html\b/i.test(answer.headers['content-type'] ?? '') || answer.statusCode === 304) {
        res.writeHead(answer.statusCode ?? 502, withoutCors(withoutHopByHop(answer.headers)));
        answer.pipe(res);
      } else if (snapshot.problems !== undefined) {
        answer.resume();
        send(res, errorPage(snapshot.problems, snapshot.version));
      } else {
        readBody(answer).then(
          (body) =>
            send(
              res,
              body === undefined
                ? plain(502, 'Page too large for the preview')
                : withReloadScript(answer, markPage(body.toString('utf8'), options.marks()), req.method === 'HEAD', snapshot.version),
            ),
          () => res.destroy(),
        );
      }
    });
    outgoing.on('error', () => {
      if (res.headersSent) res.destroy();
      else send(res, plain(502, 'The preview could not reach its server'));
    });
    req.pipe(outgoing);
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const unspecified = address.address === '0.0.0.0' || address.address === '::';
  const hostPart = unspecified ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostPart}:${address.port}`,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      })),
  };
}

/** What the preview answers before its server serves: the error page or the starting page to a browser, 503 otherwise. */
function withoutServer(snapshot: PreviewSnapshot, html: boolean): PreviewResponse {
  const { problems, version } = snapshot;
  if (html) return problems !== undefined ? errorPage(problems, version) : startingPage(version);
  const detail = problems !== undefined ? 'The content is invalid: open the preview in a browser to see the problems' : 'The preview is starting';
  return { status: 503, headers: { 'Content-Type': 'application/json', 'Retry-After': '1' }, body: JSON.stringify({ detail }) };
}

/**
 * The app's HTML answer as the preview sends it (`page`: its body with the preview's additions): the reload script
 * added, the policy that allows it, never stored, and without the validators and length of the app's body (`HEAD`:
 * without length) and without CORS fields.
 */
function withReloadScript(answer: IncomingMessage, page: string, head: boolean, version: string): Answer {
  const headers = withoutCors(withoutHopByHop(answer.headers));
  for (const name of ['content-length', 'etag', 'last-modified', 'content-encoding']) delete headers[name];
  const policy = answer.headers['content-security-policy'];
  if (typeof policy === 'string') headers['content-security-policy'] = allowReloadScript(policy);
  headers['cache-control'] = 'no-store';
  return { status: answer.statusCode ?? 502, headers, body: head ? '' : injectReloadScript(page, version), head };
}

function plain(status: number, text: string, extra: Record<string, string> = {}): PreviewResponse {
  return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...extra }, body: `${text}\n` };
}

/** One server-sent event (HTML Living Standard §9.2.6); `data` is a version, a single line. */
function event(name: string, data: string): string {
  return `event: ${name}\ndata: ${data}\n\n`;
}

/** Whether an `Accept` field asks for HTML (a browser's navigation does). */
function acceptsHtml(accept: string | undefined): boolean {
  return accept !== undefined && /\btext\/html\b/i.test(accept);
}

/** The host name of a `Host` field value (without port; IPv6 without brackets), or `''` when there is none. */
function hostname(host: string | undefined): string {
  if (host === undefined) return '';
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return '';
  }
}

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out = { ...headers };
  for (const name of HOP_BY_HOP) delete out[name];
  return out;
}

/** An answer to write: the preview's own, or the app's changed; `head`: without body or length (a `GET`'s is not known). */
interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  head?: boolean;
}

function send(res: ServerResponse, { status, headers, body, head }: Answer): void {
  res.writeHead(status, head ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(head ? undefined : body);
}

/** The whole body, or undefined when it is longer than {@link MAX_HTML_BYTES}. */
async function readBody(stream: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    length += (chunk as Buffer).length;
    if (length > MAX_HTML_BYTES) {
      stream.destroy();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
