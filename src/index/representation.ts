/**
 * One representation, prepared once: identity bytes, gzip and brotli forms and a strong ETag. Every body the
 * service serves from memory (API JSON, pages, `/openapi.json`, `/docs` assets) goes through here, so all get
 * the same conditional-request and content-coding treatment.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { Representation } from './types.js';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** What a producer hands in: a body and how to label it. Compatible with `StaticRepresentation` of the docs assets. */
export interface RepresentationSource {
  /** `Content-Type` header value. */
  contentType: string;
  /** The identity body; a string is encoded as UTF-8. */
  body: string | Uint8Array;
  /** `Cache-Control` header value; default {@link DEFAULT_CACHE_CONTROL}. */
  cacheControl?: string;
  /** Extra response headers, already formatted (e.g. `Content-Security-Policy`). */
  headers?: Readonly<Record<string, string>>;
}

/** `Cache-Control` of catalog data: any cache may reuse it for a minute. */
export const DEFAULT_CACHE_CONTROL = 'public, max-age=60';

const encoder = new TextEncoder();

/**
 * The strong entity tag of a body: `"<sha256 of the bytes, base64url>"` (RFC 9110 §8.8.3). Equal bytes give
 * equal tags across processes and restarts, so several instances agree.
 */
export function strongEtag(body: Uint8Array): string {
  return `"${createHash('sha256').update(body).digest('base64url')}"`;
}

/**
 * Brotli quality by body size: the best ratio (11) where it is cheap enough to pay once per build, a fast
 * setting for the many small bodies (lessons) and for very large ones, so a 10,000-lesson build stays fast.
 */
function brotliQuality(size: number): number {
  return size >= 4 * 1024 && size <= 256 * 1024 ? 11 : 6;
}

/**
 * Compresses a body both ways and tags it. Asynchronous: compression runs on libuv's thread pool, so a reload
 * does not stall the requests being served meanwhile.
 */
export async function buildRepresentation(source: RepresentationSource): Promise<Representation> {
  const body = typeof source.body === 'string' ? encoder.encode(source.body) : source.body;
  const [gz, br] = await Promise.all([
    gzipAsync(body, { level: 9 }),
    brotliAsync(body, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: brotliQuality(body.byteLength),
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        [zlibConstants.BROTLI_PARAM_MODE]:
          source.contentType.startsWith('text/') || source.contentType.includes('json') || source.contentType.includes('xml')
            ? zlibConstants.BROTLI_MODE_TEXT
            : zlibConstants.BROTLI_MODE_GENERIC,
      },
    }),
  ]);
  return {
    contentType: source.contentType,
    body,
    gzip: new Uint8Array(gz.buffer, gz.byteOffset, gz.byteLength),
    br: new Uint8Array(br.buffer, br.byteOffset, br.byteLength),
    etag: strongEtag(body),
    cacheControl: source.cacheControl ?? DEFAULT_CACHE_CONTROL,
    headers: source.headers ?? {},
  };
}

/** True when two header records have the same names and values. */
function sameHeaders(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ak = Object.keys(a);
  if (ak.length !== Object.keys(b).length) return false;
  return ak.every((k) => a[k] === b[k]);
}

/** True when two byte arrays hold the same bytes. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

/**
 * {@link buildRepresentation}, reusing `previous` when it has the same body and labels: a reload that
 * changed one lesson recompresses one lesson (and the aggregates containing it), not the whole catalog.
 */
export async function buildOrReuse(source: RepresentationSource, previous: Representation | undefined): Promise<Representation> {
  if (previous) {
    const body = typeof source.body === 'string' ? encoder.encode(source.body) : source.body;
    if (
      previous.contentType === source.contentType &&
      previous.cacheControl === (source.cacheControl ?? DEFAULT_CACHE_CONTROL) &&
      sameHeaders(previous.headers, source.headers ?? {}) &&
      sameBytes(previous.body, body)
    ) {
      return previous;
    }
    return buildRepresentation({ ...source, body });
  }
  return buildRepresentation(source);
}
