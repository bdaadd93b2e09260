/**
 * The app on `node:http`, with Node's public APIs only: the request's method, target, `Host` and header fields
 * become the app's request (the URL by the project's own rules, `src/http/request-target.ts`), and the app's answer
 * is written with `writeHead` and `end` (a body of bytes or of text, its `Content-Length` added) or piped (a
 * stream). It only translates: every step, every header rule and every error answer of the app is the app's.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Readable, pipeline } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { TLSSocket } from 'node:tls';
import type { AppLogger } from '../http/access-log.js';
import type { App } from '../http/app.js';
import { isPromise } from '../http/maybe-async.js';
import { requestUrl } from '../http/request-target.js';
import type { Answer, RequestHeaders } from '../http/step.js';

/** The header fields of the adapter's own answers (a refused request, a failure past the app), which no step makes. */
const OWN_HEADERS: Readonly<Record<string, string>> = { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' };
const BAD_REQUEST_BODY = '{"detail":"Bad Request"}';
const INTERNAL_ERROR_BODY = '{"detail":"Internal Server Error"}';

/**
 * The request's fields as Fetch's `Headers` answers `get` and `has`, read from Node's `IncomingMessage.headers`
 * (names lowercase; a repeated field joined or its duplicates dropped as Node documents it).
 */
class NodeRequestHeaders implements RequestHeaders {
  readonly #fields: IncomingHttpHeaders;
  constructor(fields: IncomingHttpHeaders) {
    this.#fields = fields;
  }
  get(name: string): string | null {
    const value = this.#fields[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
  has(name: string): boolean {
    return this.#fields[name.toLowerCase()] !== undefined;
  }
}

/** Writes `answer` on `res`; `failed` is told when a streamed body fails. */
function write(res: ServerResponse, answer: Answer, failed: (res: ServerResponse, error: unknown) => void): void {
  const { status, headers, body } = answer;
  if (body === null) {
    res.writeHead(status, headers).end();
  } else if (typeof body === 'string' || body instanceof Uint8Array) {
    // Given to `writeHead`, the length spares Node chunked framing (it cannot know the length of a later `end`).
    // `Buffer.byteLength` gives a text's length in UTF-8 and a byte body's own.
    if (!('Content-Length' in headers)) headers['Content-Length'] = String(Buffer.byteLength(body));
    res.writeHead(status, headers).end(body);
  } else {
    res.writeHead(status, headers);
    // A client that goes away destroys `res`, and the pipeline cancels the stream (e.g. stops reading a file).
    // The DOM typings' `ReadableStream` and Node's are one class at run time, two types to the compiler.
    pipeline(Readable.fromWeb(body as NodeReadableStream<Uint8Array>), res, (error) => {
      if (error && !res.destroyed) failed(res, error);
    });
  }
}

/**
 * The `node:http` request listener of `app`.
 * @param logger told of failures past the app (a rejected answer, a write that throws, a stream that fails).
 */
export function nodeListener(app: App, logger: AppLogger): (req: IncomingMessage, res: ServerResponse) => void {
  /** Logs `error` and answers 500, or cuts the connection when part of the answer is already written. */
  const answerFailed = (res: ServerResponse, error: unknown): void => {
    logger.error({ err: error }, 'unhandled error in the HTTP host');
    if (!res.headersSent) res.writeHead(500, OWN_HEADERS).end(INTERNAL_ERROR_BODY);
    else res.destroy();
  };
  const writeOrFail = (res: ServerResponse, answer: Answer): void => {
    try {
      write(res, answer, answerFailed);
    } catch (error) {
      answerFailed(res, error);
    }
  };
  return (req, res) => {
    const scheme = req.socket instanceof TLSSocket ? 'https' : 'http';
    const url = requestUrl(scheme, req.headers.host, req.url ?? '');
    if (url === undefined) {
      res.writeHead(400, OWN_HEADERS).end(BAD_REQUEST_BODY);
      return;
    }
    const method = req.method ?? 'GET';
    const headers = new NodeRequestHeaders(req.headers);
    let answer: Answer | Promise<Answer>;
    try {
      answer = app({ method, url, request: { method, url: url.href, headers }, ip: req.socket.remoteAddress ?? '' });
    } catch (error) {
      answerFailed(res, error);
      return;
    }
    if (isPromise<Answer>(answer)) {
      answer.then(
        (done) => writeOrFail(res, done),
        (error: unknown) => answerFailed(res, error),
      );
    } else writeOrFail(res, answer);
  };
}
