/**
 * The guarded key-directory fetch for Node (`node:dns`, `node:http(s)`): the transport half of the SSRF
 * precautions of draft-ietf-webbotauth-httpsig-protocol §"Server-Side Request Forgery".
 *
 * - `https:` only (`http:` too when insecure directories are allowed: tests and local development).
 * - The host is resolved first and every address it resolves to must be globally routable unicast
 *   ({@link judgeAddress}); the connection then goes to the address that was checked (a custom `lookup`),
 *   so a second, different DNS answer cannot redirect it. TLS still verifies the certificate for the host name.
 * - No redirects (a 3xx other than a `304` answering a conditional request is a failure), one total deadline (DNS,
 *   connect, TLS, headers and body; default 2 s), a body limit (default 64 KiB, aborting as soon as it is passed),
 *   no content coding, and a directory media type (`application/http-message-signatures-directory+json` or
 *   `application/json`).
 * - Host-name lookups are bounded per host, never only globally: one lookup in flight per host name, shared by every
 *   fetch for that host, each wait bounded by a lookup timeout, and a global cap on distinct lookups that leaves
 *   libuv threads free (see {@link GuardedFetcherOptions.maxConcurrentLookups}). A host whose resolver hangs costs
 *   one slot, whatever the number of requests naming it, and does not hold up other hosts.
 * - Only the conditional request fields `If-None-Match` and `If-Modified-Since` are sent on request; the answer
 *   carries its status and the caching fields (`Cache-Control`, `Expires`, `Date`, `Age`, `ETag`,
 *   `Last-Modified`, `Retry-After`, `Vary`, `Pragma`).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { judgeAddress } from './address-policy.js';
import type { DirectoryFetcher, FetchedDirectory } from './directory-client.js';
import type { ResponseHeaders } from './directory-freshness.js';
import { unfetchable } from './key-source.js';

/** An address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  /** 4 or 6. */
  family: number;
}

/** Options of {@link createGuardedFetcher}. */
export interface GuardedFetcherOptions {
  /**
   * Allow `http:` URLs and loopback addresses (`KEY_DIRECTORY_ALLOW_INSECURE=1`): for tests and local
   * development only. Private, link-local and other internal ranges stay refused. Default `false`.
   */
  allowInsecure?: boolean;
  /** Total deadline of one fetch, milliseconds. Default 2 000. */
  timeoutMs?: number;
  /** Largest body accepted, bytes. Default 65 536. */
  maxBytes?: number;
  /** Resolves a host name to all its addresses. Default `dns.lookup(host, { all: true })`. */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
  /** `User-Agent` sent with directory requests. */
  userAgent?: string;
  /**
   * Most lookups of distinct host names running at once (concurrent fetches for one host share its lookup).
   * `dns.lookup` runs on libuv's thread pool (4 threads by default, shared with file access and WebCrypto) and
   * cannot be cancelled, so a slot is held until the lookup really ends and the cap stays below the pool size.
   * Past the bound a fetch fails as transient (not remembered). Default 3.
   */
  maxConcurrentLookups?: number;
  /**
   * Longest wait for a host-name lookup, milliseconds (within the total deadline). A lookup still running then
   * fails the fetches waiting on it (`host name lookup timed out`, remembered as a failure by the client) while
   * it goes on holding its slot. Default 1 500.
   */
  lookupTimeoutMs?: number;
}

/** Response fields the directory client's caching reads; nothing else is kept. */
const KEPT_HEADERS = ['cache-control', 'expires', 'date', 'age', 'etag', 'last-modified', 'retry-after', 'vary', 'pragma'] as const;
/** Request fields a caller may add: the conditional ones (RFC 9110 §13.1.2, §13.1.3). */
const CONDITIONAL_HEADERS = ['if-none-match', 'if-modified-since'] as const;

const MEDIA_TYPES = new Set(['application/http-message-signatures-directory+json', 'application/json']);

/** Creates the guarded Node fetcher used by the key-directory client. */
export function createGuardedFetcher(options: GuardedFetcherOptions = {}): DirectoryFetcher {
  const allowInsecure = options.allowInsecure ?? false;
  const timeoutMs = options.timeoutMs ?? 2_000;
  const maxBytes = options.maxBytes ?? 65_536;
  const resolve = options.resolve ?? ((host: string) => dnsLookup(host, { all: true, verbatim: true }));
  const userAgent = options.userAgent ?? 'syllabus-catalog key-directory-client';
  const maxLookups = options.maxConcurrentLookups ?? 3;
  const lookupTimeoutMs = options.lookupTimeoutMs ?? 1_500;
  /** Lookups in flight, by host name: shared, and each counted once against `maxLookups`. */
  const lookups = new Map<string, Promise<ResolvedAddress[]>>();

  /** The host's lookup in flight, or a new one; `undefined` when the global cap is reached. */
  const lookupOf = (host: string): Promise<ResolvedAddress[]> | undefined => {
    let lookup = lookups.get(host);
    if (lookup !== undefined) return lookup;
    if (lookups.size >= maxLookups) return undefined;
    // The slot is held until the lookup really ends, even when every waiter gave up on it earlier.
    lookup = Promise.resolve()
      .then(() => resolve(host))
      .finally(() => lookups.delete(host));
    lookups.set(host, lookup);
    return lookup;
  };

  return async (rawUrl: string, requestHeaders?: Readonly<Record<string, string>>): Promise<FetchedDirectory> => {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return { ok: false, reason: 'not a URL' };
    }
    // Checked again here, whoever named the URL: the transport never goes anywhere else.
    const problem = unfetchable(url, allowInsecure);
    if (problem === 'scheme') return { ok: false, reason: `${url.protocol} directories are refused (https only)` };
    if (problem === 'credentials') return { ok: false, reason: 'credentials in the directory URL' };

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
      let addresses: ResolvedAddress[];
      if (isIP(host) !== 0) {
        addresses = [{ address: host, family: isIP(host) }];
      } else {
        const lookup = lookupOf(host);
        if (lookup === undefined) return { ok: false, reason: 'too many host name lookups in progress', transient: true };
        // A timer that holds its controller, not AbortSignal.timeout(): inside AbortSignal.any() a timeout signal
        // nothing else references can be collected before it fires (nodejs/node#57736; seen here under load, the
        // lookup then waited for the whole fetch's deadline).
        const lookupTimeout = new AbortController();
        const lookupTimer = setTimeout(() => lookupTimeout.abort(), lookupTimeoutMs);
        try {
          addresses = await abortable(lookup, AbortSignal.any([controller.signal, lookupTimeout.signal]));
        } catch {
          if (controller.signal.aborted) return { ok: false, reason: 'timed out' };
          return { ok: false, reason: lookupTimeout.signal.aborted ? 'host name lookup timed out' : `${host} does not resolve` };
        } finally {
          clearTimeout(lookupTimer);
        }
      }
      if (addresses.length === 0) return { ok: false, reason: `${host} does not resolve` };
      for (const { address } of addresses) {
        const verdict = judgeAddress(address, allowInsecure);
        if (verdict.allowed) continue;
        const reason = address === host ? verdict.reason : `${host} resolves to ${address}, a ${verdict.range} address`;
        return { ok: false, reason: `refused: ${reason}` };
      }
      const chosen = addresses[0]!;
      const conditional: Record<string, string> = {};
      for (const name of CONDITIONAL_HEADERS) {
        const value = requestHeaders?.[name];
        if (value !== undefined) conditional[name] = value;
      }
      return await request(url, host, chosen, { signal: controller.signal, maxBytes, userAgent, conditional });
    } finally {
      clearTimeout(timer);
    }
  };
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

function request(
  url: URL,
  host: string,
  target: ResolvedAddress,
  limits: { signal: AbortSignal; maxBytes: number; userAgent: string; conditional: Record<string, string> },
): Promise<FetchedDirectory> {
  // Connect to the vetted address whatever the resolver would answer now.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<FetchedDirectory>((resolve) => {
    let settled = false;
    const finish = (result: FetchedDirectory) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    let req: http.ClientRequest;
    try {
      req = client.request(
        {
          protocol: url.protocol,
          hostname: host,
          port: url.port === '' ? undefined : Number(url.port),
          path: `${url.pathname}${url.search}`,
          method: 'GET',
          headers: {
            ...limits.conditional,
            accept: 'application/http-message-signatures-directory+json, application/json;q=0.9',
            'accept-encoding': 'identity',
            'user-agent': limits.userAgent,
          },
          lookup: pinned,
          ...(isIP(host) === 0 && url.protocol === 'https:' ? { servername: host } : {}),
          agent: false,
          signal: limits.signal,
          maxHeaderSize: 16_384,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const headers = keptHeaders(res.headers);
          const fail = (reason: string, withStatus = false) => {
            finish(withStatus ? { ok: false, reason, status, headers } : { ok: false, reason });
            req.destroy();
          };
          if (status === 304 && Object.keys(limits.conditional).length > 0) {
            finish({ ok: true, status: 304, headers });
            return req.destroy();
          }
          if (status >= 300 && status < 400) return fail(`redirect refused (HTTP ${status})`);
          if (status !== 200) return fail(`HTTP ${status}`, true);
          const mediaType = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
          if (!MEDIA_TYPES.has(mediaType)) return fail(`unexpected content type ${JSON.stringify(mediaType)}`);
          const coding = (res.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
          if (coding !== 'identity') return fail(`content coding ${JSON.stringify(coding)} refused`);
          const declared = Number(res.headers['content-length']);
          if (Number.isFinite(declared) && declared > limits.maxBytes) return fail(`body larger than ${limits.maxBytes} bytes`);
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > limits.maxBytes) return fail(`body larger than ${limits.maxBytes} bytes`);
            chunks.push(chunk);
          });
          res.on('end', () => {
            let body: string;
            try {
              body = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
            } catch {
              return finish({ ok: false, reason: 'body is not UTF-8' });
            }
            finish({ ok: true, status: 200, headers, body });
          });
          res.on('error', () => finish({ ok: false, reason: limits.signal.aborted ? 'timed out' : 'connection failed' }));
          res.on('aborted', () => finish({ ok: false, reason: limits.signal.aborted ? 'timed out' : 'connection closed' }));
        },
      );
    } catch {
      // A header value Node refuses to send (an ETag with control characters, say).
      return finish({ ok: false, reason: 'unusable conditional request field' });
    }
    req.on('error', (error: NodeJS.ErrnoException) => {
      finish({ ok: false, reason: limits.signal.aborted ? 'timed out' : `connection failed${error.code ? ` (${error.code})` : ''}` });
    });
    req.end();
  });
}

/** The caching fields of a response, one string each (repeated fields joined as a list, RFC 9110 §5.3). */
function keptHeaders(raw: http.IncomingHttpHeaders): ResponseHeaders {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = raw[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
