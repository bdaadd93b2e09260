/**
 * What a step of the app is: a function of the request context that answers (an {@link Answer}) or passes the
 * request on (`undefined`), at once or later. Runtime-neutral: every adapter (HatTip on any Fetch runtime, the
 * Node host) gives the steps the same few fields, and a Fetch `Request` has them all.
 */
import type { Locals } from './locals.js';

/** Response header values, already formatted. */
export type HeaderRecord = Record<string, string>;

/**
 * A body held whole: bytes, or text that the adapter sends UTF-8 encoded (a body made for one request: the runtime
 * encodes it as it writes it).
 */
export type WholeBody = Uint8Array | string;

/**
 * One answer as plain data: what the steps produce, once per request, and what every adapter writes as its
 * runtime's response (a Fetch `Response` for HatTip, `writeHead` and `end` on Node).
 */
export interface Answer {
  status: number;
  /** Every header field, the common ones included, in the order they are written. */
  headers: HeaderRecord;
  /** A body held whole, a stream of bytes (its length in `Content-Length`), or `null` (HEAD, 204, 304). */
  body: WholeBody | ReadableStream<Uint8Array> | null;
}

/** The request's header fields, as Fetch's `Headers` answers `get` and `has` (names case-insensitive). */
export interface RequestHeaders {
  get(name: string): string | null;
  has(name: string): boolean;
}

/** The request as the steps read it. */
export interface StepRequest {
  readonly method: string;
  /** The absolute request URL (`href`). */
  readonly url: string;
  readonly headers: RequestHeaders;
}

/** What an adapter hands the app for one request. */
export interface IncomingRequest {
  /** The request method, upper case (`GET`). */
  readonly method: string;
  /** The request URL, parsed (`request.url`). */
  readonly url: URL;
  readonly request: StepRequest;
  /** The socket peer address, `''` when unknown; no forwarding header is trusted here. */
  readonly ip: string;
}

/** The context every step of one request shares. */
export interface StepContext extends IncomingRequest {
  readonly locals: Locals;
}

/** What a step gives back: the answer, or nothing to let the next step answer. */
export type StepResult = Answer | undefined | void;

/** One step of the app. */
export type Step = (ctx: StepContext) => StepResult | Promise<StepResult>;
