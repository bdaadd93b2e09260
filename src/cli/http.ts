/**
 * The client's HTTP layer: identifies itself, throttles from the RateLimit headers
 * (draft-ietf-httpapi-ratelimit-headers-06) and remembers a spent budget between runs (budget-store.ts), waits out
 * one 429 as `Retry-After` asks (RFC 9110 §10.2.3) or fails at once when told not to wait, revalidates cached
 * bodies with `If-None-Match`, and turns network failures into one readable sentence.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { BudgetStore, SpentBudget } from './budget-store.js';
import { CliError, EXIT } from './errors.js';
import type { EtagCache } from './etag-cache.js';

/** A request that failed because its time ran out: the per-attempt timeout, or the caller's signal. */
export class RequestTimeout extends CliError {
  constructor(message: string) {
    super(message);
    this.name = 'RequestTimeout';
  }
}

/** A request refused because the read budget is spent and the client did not wait (exit status 75). */
export class RateLimited extends CliError {
  /** @param retryAt when the budget resets, epoch milliseconds, when the service said so. */
  constructor(
    message: string,
    readonly retryAt: number | undefined,
  ) {
    super(message, EXIT.rateLimited);
    this.name = 'RateLimited';
  }
}

/** A response read to the end. */
export interface HttpResult {
  url: string;
  status: number;
  headers: Headers;
  /** The body as text (from the cache when the server answered 304). */
  body: string;
  /** Milliseconds from sending the request to having the whole body (the last attempt only). */
  ms: number;
  /** True when the server answered 304 and the body came from the ETag cache. */
  fromCache: boolean;
}

/** A response read as bytes (downloads). */
export interface HttpBytes {
  url: string;
  status: number;
  headers: Headers;
  body: Buffer;
  ms: number;
}

/** What a request is for, used to word errors: "Could not reach <what> at <url>: … <advice>". */
export interface RequestPurpose {
  /** e.g. "the Syllabus service", "the release server". */
  what: string;
  /** What the user can do when it cannot be reached, one sentence. */
  advice: string;
}

/** Settings of {@link HttpClient}. */
export interface HttpClientOptions {
  userAgent: string;
  /** Where `If-None-Match` revalidation keeps bodies; omit to disable. */
  cache?: EtagCache;
  /** Per-attempt timeout, milliseconds. */
  timeoutMs: number;
  /** Longest wait (seconds) the client accepts from `Retry-After` or `RateLimit-Reset` before giving up. */
  maxWaitSeconds: number;
  /** False to fail at once (naming the reset time) whenever the budget is spent, instead of waiting. */
  wait: boolean;
  /** Where spent budgets are kept between runs; omit to keep them for this run only. */
  budgets?: BudgetStore;
  /** Writes one diagnostic line to stderr. */
  notice: (line: string) => void;
  /** Writes a debug line (only with `SYLLABUS_DEBUG`). */
  debug: (line: string) => void;
  /** Sleeps, ending early (rejecting) when `signal` aborts (injectable for tests of this module). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Options of one request. */
export interface RequestOptions {
  /** Revalidate with the ETag cache (text requests only; default true). */
  cache?: boolean;
  /**
   * Ends the request (and any wait for the read budget) when it aborts, besides the per-attempt timeout: a caller's
   * own, shorter deadline (`doctor`). The request then fails with a CliError.
   */
  signal?: AbortSignal;
  /**
   * A diagnostic request (`doctor`): sent even when the read budget is known to be spent (a service reports its
   * budget on `/health` without counting it), and a 429 fails at once instead of being waited out.
   */
  probe?: boolean;
}

/** Largest text body read (JSON answers, the release manifest), in bytes. */
const MAX_TEXT_BYTES = 16 * 1024 * 1024;

/**
 * Reads a body, refusing more than `maxBytes` (a larger `Content-Length` is refused before reading).
 * @param tooLarge completes the sentence "<url> sent …" in the error.
 * @throws CliError when the body is larger.
 */
async function readBounded(r: Response, url: URL, maxBytes: number, tooLarge: string): Promise<Buffer> {
  const declared = parseNonNegativeInt(r.headers.get('content-length'));
  if (declared !== undefined && declared > maxBytes) {
    await r.body?.cancel();
    throw new CliError(`${url.href} is ${declared} bytes, ${tooLarge}.`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = r.body?.getReader();
  for (;;) {
    if (!reader) break;
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new CliError(`${url.href} sent ${tooLarge}.`);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> => delay(ms, undefined, { signal });

/** Parses a non-negative integer header value (RateLimit-* fields); `undefined` for anything else. */
export function parseNonNegativeInt(value: string | null): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (!/^\d{1,10}$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

/**
 * Seconds to wait from a `Retry-After` value: delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
 * @param now epoch milliseconds, to resolve an HTTP-date.
 * @returns whole seconds (≥ 0), or `undefined` when the value is neither form.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const seconds = parseNonNegativeInt(value);
  if (seconds !== undefined) return seconds;
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value.trim())) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** The read budget a response reports (draft-ietf-httpapi-ratelimit-headers-06 fields). */
export interface RateBudget {
  limit: number | undefined;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
}

/** The budget from `RateLimit-Limit`/`-Remaining`/`-Reset`, or `undefined` when the response has none. */
export function readRateBudget(headers: Headers): RateBudget | undefined {
  const remaining = parseNonNegativeInt(headers.get('ratelimit-remaining'));
  const reset = parseNonNegativeInt(headers.get('ratelimit-reset'));
  if (remaining === undefined || reset === undefined) return undefined;
  return { limit: parseNonNegativeInt(headers.get('ratelimit-limit')), remaining, reset };
}

/** OpenSSL's errors when what came back to a TLS hello is not TLS (a plain-http server, typically). */
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST', 'EPROTO']);

/** An instant as the client names it: ISO 8601 in UTC, to the second (`2026-11-29T08:12:03Z`). */
export function clockTime(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Words for a failed `fetch`: "the connection was refused", "no answer within 10 s", …
 * @param url the URL asked for: an https URL answered by something that does not speak TLS gets the http:// one
 *   suggested.
 */
export function describeNetworkError(error: unknown, timeoutMs: number, url?: URL): string {
  const err = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const code = err?.cause?.code ?? (err as { code?: string })?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused (nothing is listening there)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name could not be resolved';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was closed before an answer came';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection timed out';
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return `no answer within ${timeoutMs / 1000} s`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the network cannot reach that host';
    default:
      if (err?.cause?.message === 'bad port') return 'that port is one fetch refuses to use (a "bad port" such as 1, 25 or 6000)';
      if (typeof code === 'string' && NOT_TLS.has(code) && url?.protocol === 'https:') {
        const port = url.port || '443';
        return `the server on port ${port} does not speak TLS (${code}), so the certificate is not the problem: it probably serves plain http, at http://${url.hostname}:${port}/`;
      }
      if (typeof code === 'string' && /CERT|SSL|TLS/.test(code)) return `its TLS certificate was not accepted (${code})`;
      return code ? `the request failed (${code})` : `the request failed (${err?.cause?.message ?? err?.message ?? 'unknown error'})`;
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** HTTP client of the CLI; one instance per command run, so the throttle spans all of that run's requests. */
export class HttpClient {
  /**
   * Spent budgets by origin, no request being sent there before `resetAt`; `null` once an origin's stored budget is
   * read (once per run) or forgotten and none is spent. An origin not in it has not been read yet.
   */
  private readonly spent = new Map<string, SpentBudget | null>();
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly options: HttpClientOptions) {
    this.sleep = options.sleep ?? defaultSleep;
  }

  /**
   * GETs a text resource, revalidating a cached copy with `If-None-Match` when `cache` is set.
   * Any status is returned (callers decide what a 404 means); only 429s are retried, once.
   * @throws RateLimited (exit status 75) when the read budget is spent and the client does not, or can no longer,
   *   wait; CliError when the server cannot be reached.
   */
  async getText(url: URL, purpose: RequestPurpose, { cache = true, signal, probe = false }: RequestOptions = {}): Promise<HttpResult> {
    const cached = cache && this.options.cache ? await this.options.cache.get(url.href) : undefined;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (cached) headers['if-none-match'] = cached.etag;
    const { response, ms, body } = await this.send(
      url,
      headers,
      purpose,
      (r) => readBounded(r, url, MAX_TEXT_BYTES, `more than ${MAX_TEXT_BYTES} bytes, far more than any answer of the service`),
      'follow',
      { signal, probe },
    );
    const text = body.toString('utf8');
    if (response.status === 304 && cached) {
      this.options.debug(`GET ${url.href} → 304 Not Modified (${ms} ms), body from the ETag cache`);
      return { url: url.href, status: 200, headers: response.headers, body: cached.body, ms, fromCache: true };
    }
    this.options.debug(`GET ${url.href} → ${response.status} (${ms} ms)`);
    const etag = response.headers.get('etag');
    if (cache && this.options.cache && response.status === 200 && etag) await this.options.cache.set(url.href, etag, text);
    return { url: url.href, status: response.status, headers: response.headers, body: text, ms, fromCache: false };
  }

  /**
   * GETs a file (the release files), refusing to read more than `maxBytes` (a larger `Content-Length` is refused
   * before reading). Redirects are never followed: a release file comes from the URL asked for, on the manifest's
   * origin, or not at all.
   * @throws RateLimited as {@link getText}; CliError when unreachable, redirected, or the body is larger than
   *   `maxBytes`.
   */
  async getBytes(url: URL, purpose: RequestPurpose, maxBytes: number, { signal }: Pick<RequestOptions, 'signal'> = {}): Promise<HttpBytes> {
    const { response, ms, body } = await this.send(
      url,
      { accept: '*/*' },
      purpose,
      (r) => readBounded(r, url, maxBytes, `more than the ${maxBytes} bytes expected; nothing was installed`),
      'manual',
      { signal },
    );
    this.options.debug(`GET ${url.href} → ${response.status} (${ms} ms, ${body.length} bytes)`);
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location');
      throw new CliError(
        `${capitalize(purpose.what)} redirected ${url.href} (${response.status})${location ? ` to ${location}` : ''}; release files are only fetched from the manifest's own origin, without redirects. Nothing was installed.`,
      );
    }
    return { url: url.href, status: response.status, headers: response.headers, body, ms };
  }

  private async send<T>(
    url: URL,
    headers: Record<string, string>,
    purpose: RequestPurpose,
    read: (response: Response) => Promise<T>,
    redirect: RequestRedirect,
    { signal, probe = false }: Pick<RequestOptions, 'signal' | 'probe'>,
  ): Promise<{ response: Response; ms: number; body: T }> {
    const mayWait = this.options.wait && !probe;
    const gaveUp = (): CliError => new RequestTimeout(`Gave up on ${purpose.what} at ${url.href}: its time ran out.`);
    for (let attempt = 1; ; attempt++) {
      if (!probe) {
        await this.waitForBudget(url, signal).catch((error: unknown) => {
          throw signal?.aborted ? gaveUp() : error;
        });
      }
      const started = performance.now();
      let response: Response;
      let body: T;
      const timeout = AbortSignal.timeout(this.options.timeoutMs);
      try {
        response = await fetch(url, {
          headers: { ...headers, 'user-agent': this.options.userAgent },
          redirect,
          signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
        });
        body = await read(response);
      } catch (error) {
        if (error instanceof CliError) throw error;
        if (signal?.aborted && !timeout.aborted) throw gaveUp();
        throw new (timeout.aborted ? RequestTimeout : CliError)(
          `Could not reach ${purpose.what} at ${url.href}: ${describeNetworkError(error, this.options.timeoutMs, url)}. ${purpose.advice}`,
        );
      }
      const ms = Math.round(performance.now() - started);
      const budget = readRateBudget(response.headers);
      if (response.status !== 429) {
        if (budget?.remaining === 0) await this.noteSpent(url, Date.now() + budget.reset * 1000, budget.limit);
        else if (budget !== undefined) await this.forgetSpent(url.origin);
        return { response, ms, body };
      }
      const waitSeconds = parseRetryAfter(response.headers.get('retry-after'), Date.now()) ?? budget?.reset;
      const refused = `${capitalize(purpose.what)} at ${url.host} refused the request as too many (429)`;
      if (waitSeconds === undefined) throw new RateLimited(`${refused} without saying how long to wait; try again later.`, undefined);
      const resetAt = Date.now() + waitSeconds * 1000;
      await this.noteSpent(url, resetAt, budget?.limit);
      const until = `until ${clockTime(resetAt)} (in ${waitSeconds} s)`;
      if (attempt > 1) throw new RateLimited(`${refused} again after waiting; its read budget is spent ${until}: try again then.`, resetAt);
      if (!mayWait) throw new RateLimited(`${refused}; its read budget is spent ${until}.${probe ? '' : ` ${NOT_WAITING}`}`, resetAt);
      if (waitSeconds > this.options.maxWaitSeconds) {
        throw new RateLimited(
          `${refused}; its read budget is spent ${until}, longer than the ${this.options.maxWaitSeconds} s this client waits: try again then.`,
          resetAt,
        );
      }
      this.options.notice(
        `Rate limited by ${url.host} (429): waiting ${waitSeconds} s as Retry-After asks, then retrying once (until ${clockTime(resetAt)}; --no-wait fails at once instead).`,
      );
      await this.sleep(waitSeconds * 1000, signal).catch(() => {
        throw gaveUp();
      });
      this.spent.set(url.origin, null);
    }
  }

  /** Remembers a spent budget (for this run and the next ones) so no request earns a 429 before it resets. */
  private async noteSpent(url: URL, resetAt: number, limit: number | undefined): Promise<void> {
    const budget = { resetAt, limit };
    this.spent.set(url.origin, budget);
    await this.options.budgets?.recordSpent(url.origin, budget);
  }

  /** Forgets a spent budget of `origin` the service now reports reads left in (a restart, a probe), here and on disk. */
  private async forgetSpent(origin: string): Promise<void> {
    // Unread, or spent: there may be one on disk.
    const stored = this.spent.get(origin) !== null;
    this.spent.set(origin, null);
    if (stored) await this.options.budgets?.forget(origin);
  }

  /** The spent budget of `url`'s origin that has not reset yet: this run's, or the one a previous run stored. */
  private async spentBudget(url: URL): Promise<SpentBudget | undefined> {
    if (!this.spent.has(url.origin)) {
      this.spent.set(url.origin, null);
      const stored = await this.options.budgets?.spent(url.origin);
      if (stored) this.spent.set(url.origin, stored);
    }
    const budget = this.spent.get(url.origin);
    return budget && budget.resetAt > Date.now() ? budget : undefined;
  }

  /** Waits for a spent budget to reset before sending, or fails at once (no waiting, or too long a wait). */
  private async waitForBudget(url: URL, signal: AbortSignal | undefined): Promise<void> {
    const budget = await this.spentBudget(url);
    if (!budget) return;
    const waitMs = budget.resetAt - Date.now();
    const seconds = Math.ceil(waitMs / 1000);
    const spent = `The read budget at ${url.host}${budget.limit !== undefined ? ` (${budget.limit} a window)` : ''} is spent until ${clockTime(budget.resetAt)} (in ${seconds} s)`;
    if (!this.options.wait) throw new RateLimited(`${spent}. ${NOT_WAITING}`, budget.resetAt);
    if (seconds > this.options.maxWaitSeconds) {
      throw new RateLimited(`${spent}, longer than the ${this.options.maxWaitSeconds} s this client waits: try again then.`, budget.resetAt);
    }
    this.options.notice(
      `Read budget at ${url.host} used up: waiting ${seconds} s for it to reset before the next request (until ${clockTime(budget.resetAt)}; --no-wait fails at once instead).`,
    );
    await this.sleep(waitMs, signal);
  }
}

/** The end of a fail-fast refusal. */
const NOT_WAITING = 'Not waiting (--no-wait or SYLLABUS_NO_WAIT): try again then.';
