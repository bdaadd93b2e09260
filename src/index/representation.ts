/**
 * One representation, prepared once: identity bytes, gzip and brotli forms and a strong ETag. Every body the
 * service serves from memory (API JSON, pages, `/openapi.json`, `/docs` assets) goes through here, so all get
 * the same conditional-request and content-coding treatment.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlibConstants, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';
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

/**
 * Bodies smaller than this are not compressed: a few hundred bytes shrink by less than the response's own
 * headers weigh, and compressing the thousands of lesson bodies would dominate the build (CDNs use similar
 * minimums, e.g. 860 bytes).
 */
export const MIN_COMPRESSIBLE_BYTES = 1024;

/**
 * Bodies up to this size are compressed synchronously: for small inputs the thread-pool round trip of the
 * asynchronous API costs far more than the compression itself. Larger ones go to the thread pool so a reload
 * does not stall requests being served meanwhile.
 */
const SYNC_COMPRESSION_MAX_BYTES = 64 * 1024;

const encoder = new TextEncoder();

/**
 * The strong entity tag of a body: `"<sha256 of the bytes, base64url>"` (RFC 9110 §8.8.3). Equal bytes give
 * equal tags across processes and restarts, so several instances agree.
 */
export function strongEtag(body: Uint8Array): string {
  return `"${createHash('sha256').update(body).digest('base64url')}"`;
}

/**
 * Brotli quality by body size. Quality 11 costs about 30 times quality 9 for a few per cent smaller output, too
 * much for a build of thousands of bodies; 9 is near-best where bodies are big enough to gain, 6 for very large
 * ones (so a reload that recompresses the whole catalog stays fast).
 */
function brotliOptions(size: number, contentType: string): BrotliOptions {
  const text = contentType.startsWith('text/') || contentType.includes('json') || contentType.includes('xml') || contentType.includes('javascript');
  return {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: size <= 1024 * 1024 ? 9 : 6,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: size,
      [zlibConstants.BROTLI_PARAM_MODE]: text ? zlibConstants.BROTLI_MODE_TEXT : zlibConstants.BROTLI_MODE_GENERIC,
    },
  };
}

/** gzip level: the best (9) up to 1 MiB, zlib's default (6) above, for the same reason. */
function gzipOptions(size: number): ZlibOptions {
  return { level: size <= 1024 * 1024 ? 9 : 6 };
}

const view = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

/** Both compressed forms of a body (one {@link needsCompression} selected). */
async function compress(body: Uint8Array, contentType: string): Promise<{ gzip: Uint8Array; br: Uint8Array }> {
  const size = body.byteLength;
  if (size <= SYNC_COMPRESSION_MAX_BYTES) {
    return { gzip: view(gzipSync(body, gzipOptions(size))), br: view(brotliCompressSync(body, brotliOptions(size, contentType))) };
  }
  const [gz, br] = await Promise.all([gzipAsync(body, gzipOptions(size)), brotliAsync(body, brotliOptions(size, contentType))]);
  return { gzip: view(gz), br: view(br) };
}

/**
 * A representation with its identity body and ETag only: servable at once (identity is always acceptable,
 * RFC 9110 §12.5.3), its compressed forms added later by {@link compressRepresentation}.
 */
export function prepareRepresentation(source: RepresentationSource): Representation {
  const body = typeof source.body === 'string' ? encoder.encode(source.body) : source.body;
  return {
    contentType: source.contentType,
    body,
    gzip: null,
    br: null,
    etag: strongEtag(body),
    cacheControl: source.cacheControl ?? DEFAULT_CACHE_CONTROL,
    headers: source.headers ?? {},
  };
}

/** Whether a representation still lacks the compressed forms its size calls for. */
export function needsCompression(rep: Representation): boolean {
  return rep.body.byteLength >= MIN_COMPRESSIBLE_BYTES && (rep.gzip === null || rep.br === null);
}

/** The same representation with its compressed forms (itself when it has them or is too small to gain). */
export async function compressRepresentation(rep: Representation): Promise<Representation> {
  if (!needsCompression(rep)) return rep;
  return { ...rep, ...(await compress(rep.body, rep.contentType)) };
}

/** Compresses a body both ways (when big enough to gain) and tags it. */
export async function buildRepresentation(source: RepresentationSource): Promise<Representation> {
  return compressRepresentation(prepareRepresentation(source));
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
 * @param deferCompression prepare a new body without compressing it ({@link prepareRepresentation}).
 */
export async function buildOrReuse(
  source: RepresentationSource,
  previous: Representation | undefined,
  deferCompression = false,
): Promise<Representation> {
  const body = typeof source.body === 'string' ? encoder.encode(source.body) : source.body;
  if (
    previous &&
    previous.contentType === source.contentType &&
    previous.cacheControl === (source.cacheControl ?? DEFAULT_CACHE_CONTROL) &&
    sameHeaders(previous.headers, source.headers ?? {}) &&
    sameBytes(previous.body, body)
  ) {
    return previous;
  }
  const prepared = prepareRepresentation({ ...source, body });
  return deferCompression ? prepared : compressRepresentation(prepared);
}
