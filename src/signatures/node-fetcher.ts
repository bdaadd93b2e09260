/**
 * The guarded key-directory fetch for Node (`node:dns`, `node:http(s)`): the transport half of the SSRF
 * precautions of draft-ietf-webbotauth-httpsig-protocol §"Server-Side Request Forgery".
 *
 * - `https:` only (`http:` too when insecure directories are allowed: tests and local development).
 * - The host is resolved first and every address it resolves to must be globally routable unicast
 *   ({@link judgeAddress}); the connection then goes to the address that was checked (a custom `lookup`),
 *   so a second, different DNS answer cannot redirect it. TLS still verifies the certificate for the host name.
 * - No redirects (a 3xx is a failure), one total deadline (DNS, connect, TLS, headers and body; default 2 s),
 *   a body limit (default 64 KiB, aborting as soon as it is passed), no content coding, and a directory
 *   media type (`application/http-message-signatures-directory+json` or `application/json`).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { judgeAddress } from './address-policy.js';
import type { DirectoryFetcher, FetchedDirectory } from './directory-client.js';

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
   * Most host-name lookups running at once. `dns.lookup` runs on libuv's small thread pool (4 threads by
   * default, shared with file access) and cannot be cancelled, so a slow name must not occupy all of it.
   * Past the bound a fetch fails as transient (not remembered). Default 2.
   */
  maxConcurrentLookups?: number;
}

const MEDIA_TYPES = new Set(['application/http-message-signatures-directory+json', 'application/json']);

/** Creates the guarded Node fetcher used by the key-directory client. */
export function createGuardedFetcher(options: GuardedFetcherOptions = {}): DirectoryFetcher {
  const allowInsecure = options.allowInsecure ?? false;
  const timeoutMs = options.timeoutMs ?? 2_000;
  const maxBytes = options.maxBytes ?? 65_536;
  const resolve = options.resolve ?? ((host: string) => dnsLookup(host, { all: true, verbatim: true }));
  const userAgent = options.userAgent ?? 'syllabus-catalog key-directory-client';
  const maxLookups = options.maxConcurrentLookups ?? 2;
  let pendingLookups = 0;

  return async (rawUrl: string): Promise<FetchedDirectory> => {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return { ok: false, reason: 'not a URL' };
    }
    if (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:')) {
      return { ok: false, reason: `${url.protocol} directories are refused (https only)` };
    }
    if (url.username !== '' || url.password !== '') return { ok: false, reason: 'credentials in the directory URL' };

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
      let addresses: ResolvedAddress[];
      if (isIP(host) !== 0) {
        addresses = [{ address: host, family: isIP(host) }];
      } else {
        if (pendingLookups >= maxLookups) return { ok: false, reason: 'too many host name lookups in progress', transient: true };
        pendingLookups++;
        // The slot is held until the lookup really ends, even when the deadline gives up on it earlier.
        const lookup = resolve(host).finally(() => pendingLookups--);
        try {
          addresses = await abortable(lookup, controller.signal);
        } catch {
          return { ok: false, reason: controller.signal.aborted ? 'timed out' : `${host} does not resolve` };
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
      return await request(url, host, chosen, { signal: controller.signal, maxBytes, userAgent });
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
  limits: { signal: AbortSignal; maxBytes: number; userAgent: string },
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
    const req = client.request(
      {
        protocol: url.protocol,
        hostname: host,
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: {
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
        const fail = (reason: string) => {
          finish({ ok: false, reason });
          req.destroy();
        };
        if (status >= 300 && status < 400) return fail(`redirect refused (HTTP ${status})`);
        if (status !== 200) return fail(`HTTP ${status}`);
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
          const cacheControl = res.headers['cache-control'];
          finish({ ok: true, body, cacheControl: cacheControl ?? null });
        });
        res.on('error', () => finish({ ok: false, reason: limits.signal.aborted ? 'timed out' : 'connection failed' }));
        res.on('aborted', () => finish({ ok: false, reason: limits.signal.aborted ? 'timed out' : 'connection closed' }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      finish({ ok: false, reason: limits.signal.aborted ? 'timed out' : `connection failed${error.code ? ` (${error.code})` : ''}` });
    });
    req.end();
  });
}
