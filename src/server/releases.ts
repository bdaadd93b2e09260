/**
 * Serves a release folder (`RELEASES_DIR`, as written by `npm run release`) at `/releases/`: a step of the app
 * (after the router), so these requests get the same request id, access log, client kind and budget as any other.
 * File access is Node's, which is why the step lives here and is injected.
 *
 * Only files directly in the folder whose names are plain (`latest.json`, `SHA256SUMS`, `install.sh`,
 * `syllabus-1.2.3.tar.gz`) are served; no listing, no subfolders, no symlinks, no dot-files. GET and HEAD, with
 * `ETag`/`Last-Modified` and `If-None-Match` → 304 (RFC 9110 §13.1.2). Versioned archives are immutable;
 * the manifest, checksums and installer are revalidated on every use.
 */
import { createReadStream } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Answer, Step, StepContext } from '../http/step.js';
import { LRUCache } from 'lru-cache';
import { DETAIL, detailBody } from '../contract/errors.js';
import { ifNoneMatchMatches } from '../http/conditional.js';
import { respond, respondJson, respondStream } from '../http/respond.js';

/** The URL path prefix releases are served under. */
export const RELEASES_PREFIX = '/releases/';

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;

/** Files up to this size are read whole and kept (a release archive is a few hundred KiB), in bytes. */
const MAX_CACHED_FILE_BYTES = 16 * 1024 * 1024;
/** Release files kept in memory, by path and validator, at most this many bytes in all. */
const cache = new LRUCache<string, Uint8Array>({ maxSize: 64 * 1024 * 1024, sizeCalculation: (b) => Math.max(1, b.byteLength) });

/** Content type of a release file by name. */
function contentType(name: string): string {
  if (name.endsWith('.json')) return 'application/json; charset=utf-8';
  if (name.endsWith('.tar.gz') || name.endsWith('.tgz')) return 'application/gzip';
  if (name.endsWith('.sh')) return 'text/x-shellscript; charset=utf-8';
  if (name === 'SHA256SUMS' || name.endsWith('.txt')) return 'text/plain; charset=utf-8';
  return 'application/octet-stream';
}

/** Whether a file name is a versioned (hence never changing) archive. */
function isImmutable(name: string): boolean {
  return /^syllabus-\d[^/]*\.tar\.gz$/.test(name);
}

const notFound = (ctx: StepContext): Answer => respondJson(ctx, 404, detailBody(DETAIL.notFound), { 'Cache-Control': 'no-store' });

/**
 * The `/releases/*` step backed by `dir`: answers every path under `/releases` (`/releases` itself redirects to
 * `/releases/`) and passes every other request on (returns nothing).
 */
export function releasesStep(dir: string): Step {
  return (ctx) => {
    const path = ctx.url.pathname;
    if (path === '/releases') return respond(ctx, 308, null, { Location: RELEASES_PREFIX });
    if (!path.startsWith(RELEASES_PREFIX)) return undefined;
    return serve(ctx, dir, path.slice(RELEASES_PREFIX.length));
  };
}

async function serve(ctx: StepContext, dir: string, encodedName: string): Promise<Answer> {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    return respondJson(ctx, 405, detailBody(DETAIL.methodNotAllowed), { Allow: 'GET, HEAD', 'Cache-Control': 'no-store' });
  }
  let name: string;
  try {
    name = decodeURIComponent(encodedName);
  } catch {
    return notFound(ctx);
  }
  if (!SAFE_NAME.test(name)) return notFound(ctx);
  const path = join(dir, name);
  const info = await lstat(path).catch(() => undefined);
  if (!info?.isFile()) return notFound(ctx);
  const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const headers: Record<string, string> = {
    ETag: etag,
    'Last-Modified': info.mtime.toUTCString(),
    'Cache-Control': isImmutable(name) ? 'public, max-age=31536000, immutable' : 'public, no-cache',
    'X-Content-Type-Options': 'nosniff',
  };
  if (ifNoneMatchMatches(ctx.request.headers.get('if-none-match'), etag)) return respond(ctx, 304, null, headers);
  headers['Content-Type'] = contentType(name);
  headers['Content-Length'] = String(info.size);
  if (ctx.method === 'HEAD' || info.size === 0) return respond(ctx, 200, null, headers);
  if (info.size <= MAX_CACHED_FILE_BYTES) {
    // Release files are small: answered from memory like every other body.
    const key = `${path}\0${etag}`;
    let bytes = cache.get(key);
    if (bytes === undefined) {
      bytes = new Uint8Array(await readFile(path));
      if (bytes.byteLength !== info.size) return notFound(ctx); // replaced while being read: the client retries
      cache.set(key, bytes);
    }
    return respond(ctx, 200, bytes, headers);
  }
  // A larger file is streamed, never held in memory whole; a client that goes away stops the read.
  const stream = Readable.toWeb(createReadStream(path, { start: 0, end: info.size - 1 })) as ReadableStream<Uint8Array>;
  return respondStream(ctx, stream, headers, info.size);
}
