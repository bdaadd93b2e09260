/**
 * Serves a release folder (`RELEASES_DIR`, as written by `npm run release`) at `/releases/`, on the Node host,
 * before the HatTip app: plain static files, so `src/http/` stays free of Node modules.
 *
 * Only files directly in the folder whose names are plain (`latest.json`, `SHA256SUMS`, `install.sh`,
 * `syllabus-1.2.3.tar.gz`) are served; no listing, no subfolders, no symlinks, no dot-files. GET and HEAD, with
 * `ETag`/`Last-Modified` and `If-None-Match` → 304 (RFC 9110 §13.1.2). Versioned archives are immutable;
 * the manifest, checksums and installer are revalidated on every use.
 */
import { createReadStream } from 'node:fs';
import { lstat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';

/** The URL path prefix releases are served under. */
export const RELEASES_PREFIX = '/releases/';

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;

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

/** True when an `If-None-Match` value matches `etag` (weak comparison, RFC 9110 §13.1.2). */
function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}

function sendError(res: ServerResponse, status: number, detail: string, extra: Record<string, string> = {}): void {
  const body = JSON.stringify({ detail });
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...extra,
  });
  res.end(body);
}

/**
 * A Node request handler for `/releases/*` backed by `dir`.
 * @returns a function that answers and returns `true` for requests under `/releases`, and returns `false`
 * (touching nothing) for every other request, which the caller passes on to the app.
 */
export function createReleasesHandler(dir: string): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const rawPath = (req.url ?? '/').split('?')[0]!;
    if (rawPath === '/releases') {
      res.writeHead(308, { location: RELEASES_PREFIX, 'content-length': 0 });
      res.end();
      return true;
    }
    if (!rawPath.startsWith(RELEASES_PREFIX)) return false;
    void serve(dir, rawPath.slice(RELEASES_PREFIX.length), req, res).catch(() => {
      if (!res.headersSent) sendError(res, 500, 'Internal Server Error');
      else res.destroy();
    });
    return true;
  };
}

async function serve(dir: string, encodedName: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendError(res, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
    return;
  }
  let name: string;
  try {
    name = decodeURIComponent(encodedName);
  } catch {
    sendError(res, 404, 'Not Found');
    return;
  }
  if (!SAFE_NAME.test(name)) {
    sendError(res, 404, 'Not Found');
    return;
  }
  const path = join(dir, name);
  const info = await lstat(path).catch(() => undefined);
  if (!info?.isFile()) {
    sendError(res, 404, 'Not Found');
    return;
  }
  const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const headers: Record<string, string | number> = {
    etag,
    'last-modified': info.mtime.toUTCString(),
    'cache-control': isImmutable(name) ? 'public, max-age=31536000, immutable' : 'public, no-cache',
    'x-content-type-options': 'nosniff',
  };
  if (noneMatch(req.headers['if-none-match'], etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-type': contentType(name), 'content-length': info.size });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = createReadStream(path, { start: 0, end: Math.max(0, info.size - 1) });
  stream.on('error', () => res.destroy());
  if (info.size === 0) {
    stream.destroy();
    res.end();
    return;
  }
  stream.pipe(res);
}
