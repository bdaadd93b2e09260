/**
 * A small on-disk cache of response bodies by URL and ETag, so repeated calls send `If-None-Match`
 * and the service can answer `304 Not Modified` (RFC 9110 §13.1.2) without resending the body.
 * A missing, unreadable or corrupt entry is a cache miss, never an error.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file.js';

/** One cached response. */
export interface CachedResponse {
  url: string;
  /** The entity tag exactly as the server sent it (strong or weak). */
  etag: string;
  /** The response body as text. */
  body: string;
  /** When it was stored, epoch milliseconds. */
  storedAt: number;
}

/** The largest body kept, in bytes; larger responses are simply not cached. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** ETag cache in `<dir>/http/`, one JSON file per URL (named by the URL's SHA-256). */
export class EtagCache {
  private readonly dir: string;

  constructor(cacheDir: string) {
    this.dir = join(cacheDir, 'http');
  }

  private fileFor(url: string): string {
    return join(this.dir, `${createHash('sha256').update(url).digest('hex')}.json`);
  }

  /** The cached response for `url`, or `undefined` when there is none usable. */
  async get(url: string): Promise<CachedResponse | undefined> {
    try {
      const entry = JSON.parse(await readFile(this.fileFor(url), 'utf8')) as Partial<CachedResponse>;
      if (entry.url !== url || typeof entry.etag !== 'string' || typeof entry.body !== 'string') return undefined;
      return { url, etag: entry.etag, body: entry.body, storedAt: Number(entry.storedAt) || 0 };
    } catch {
      return undefined;
    }
  }

  /** Stores a response (atomically: write then rename). Failures to write are ignored: the cache is an optimisation. */
  async set(url: string, etag: string, body: string): Promise<void> {
    if (Buffer.byteLength(body) > MAX_BODY_BYTES) return;
    const entry: CachedResponse = { url, etag, body, storedAt: Date.now() };
    try {
      await writeFileAtomic(this.fileFor(url), JSON.stringify(entry));
    } catch {
      // not writable: the next run simply sends no If-None-Match
    }
  }
}
