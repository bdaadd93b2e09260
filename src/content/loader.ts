/**
 * Loads a content folder into a {@link ContentModel}, re-parsing only files that changed since the last load.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import type { ContentModel, LoadResult, Problem } from './model.js';
import { buildModel } from './build-model.js';
import { parseFile, type ParsedFile } from './parse-file.js';
import { listMarkdownFiles } from './read-tree.js';
import { contentRevision } from './revision.js';

/** Longest stretch of synchronous reading before yielding to the event loop, in milliseconds. */
const YIELD_EVERY_MS = 10;

interface CacheEntry {
  /** mtime, size and inode: a file whose stamp is unchanged is not read again. */
  stamp: string;
  file: ParsedFile;
}

/** Options of a {@link ContentLoader}. */
export interface ContentLoaderOptions {
  /**
   * Prefix of the paths in problems, `/`-separated. Defaults to `dir` as given, so that
   * `new ContentLoader('content')` reports `content/catalog.md:1:1: …`.
   */
  displayRoot?: string;
}

/**
 * Loads one content folder, keeping every parsed file in memory (its frontmatter and step count, never its
 * lesson text) so that the next {@link ContentLoader.load} re-parses only files whose mtime, size or inode
 * changed, or that were {@link ContentLoader.invalidate}d.
 *
 * Concurrent calls to {@link ContentLoader.load} run one after another.
 */
export class ContentLoader {
  readonly dir: string;
  private readonly displayRoot: string;
  private readonly cache = new Map<string, CacheEntry>();
  private queue: Promise<unknown> = Promise.resolve();
  /** How many files the last load parsed (the rest came from the cache). */
  lastParsedCount = 0;

  constructor(dir: string, options: ContentLoaderOptions = {}) {
    this.dir = dir;
    const root = (options.displayRoot ?? dir).split(sep).join('/').replace(/\/+$/, '');
    this.displayRoot = root === '.' ? '' : root;
  }

  /** Forgets the parsed form of a file (path relative to the folder, `/`-separated) so the next load re-reads it. */
  invalidate(rel: string): void {
    this.cache.delete(rel);
  }

  /**
   * Reads the folder and returns the model, or every problem found.
   * Never throws for bad content; a missing or unreadable folder is reported as a problem too.
   * Calls made while a load runs wait for it, then load again (they share the cache, one at a time).
   */
  load(): Promise<LoadResult> {
    const next = this.queue.then(() => this.loadOnce());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async loadOnce(): Promise<LoadResult> {
    let rels: string[];
    try {
      rels = await listMarkdownFiles(this.dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      return { ok: false, problems: [{ path: this.displayRoot || '.', line: 1, column: 1, message: `cannot read the content folder (${code})` }] };
    }
    const present = new Set(rels);
    for (const rel of this.cache.keys()) if (!present.has(rel)) this.cache.delete(rel);

    const files: ParsedFile[] = [];
    const unreadable: Problem[] = [];
    let parsed = 0;
    let sliceStart = performance.now();
    for (const rel of rels) {
      // Synchronous reads are several times faster than fs/promises for thousands of small files (one
      // thread-pool round trip per open, stat, read and close); yielding every few milliseconds keeps a
      // server that reloads in the background responsive.
      if (performance.now() - sliceStart > YIELD_EVERY_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
      const abs = join(this.dir, rel);
      const cached = this.cache.get(rel);
      try {
        if (cached && stampOf(statSync(abs)) === cached.stamp) {
          files.push(cached.file);
          continue;
        }
        const { bytes, stamp } = readSmallFile(abs);
        const file = parseFile(rel, bytes);
        parsed++;
        this.cache.set(rel, { stamp, file });
        files.push(file);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        this.cache.delete(rel);
        if (code === 'ENOENT') continue; // removed since the listing: it is simply not part of this build
        const message = code === 'EFBIG' ? `the file is larger than ${MAX_FILE_BYTES / 1048576} MiB` : `cannot read the file (${code ?? String(err)})`;
        unreadable.push({ path: this.display(rel), line: 1, column: 1, message });
      }
    }
    this.lastParsedCount = parsed;
    files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0)); // reads finish in any order

    const { problems, model } = buildModel(files);
    if (problems.length > 0 || unreadable.length > 0 || !model) {
      return { ok: false, problems: [...unreadable, ...problems.map((p) => ({ path: this.display(p.rel), line: p.line, column: p.column, message: p.message }))] };
    }
    const revision = await contentRevision(this.dir, files);
    const result: ContentModel = { revision, ...model };
    return { ok: true, model: result };
  }

  private display(rel: string): string {
    return this.displayRoot === '' ? rel : posix.join(this.displayRoot, rel);
  }
}

/**
 * Loads the content folder `dir` once: every file parsed, every rule checked.
 * @returns `{ ok: true, model }` or `{ ok: false, problems }` listing every problem (never only the first);
 *   problem paths are `dir` joined with the file's path, `/`-separated.
 */
export async function loadContent(dir: string): Promise<LoadResult> {
  return new ContentLoader(dir).load();
}

function stampOf(s: { mtimeMs: number; size: number; ino: number }): string {
  return `${s.mtimeMs}:${s.size}:${s.ino}`;
}

/** The largest content file read, in bytes: a lesson is a few kilobytes; anything near this is a mistake. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;

let readBuffer = Buffer.allocUnsafe(64 * 1024);

/**
 * A file's bytes, read into one buffer reused across files (a view valid until the next call: thousands of
 * per-file allocations were a large share of a cold load's garbage collection), and its stamp.
 */
function readSmallFile(abs: string): { bytes: Uint8Array; stamp: string } {
  const fd = openSync(abs, 'r');
  try {
    // Stat before reading: a write racing with us leaves an older stamp, so the next load reads again.
    const stamp = stampOf(fstatSync(fd));
    let length = 0;
    for (;;) {
      if (length === readBuffer.length) {
        if (length >= MAX_FILE_BYTES) throw Object.assign(new Error('file too large'), { code: 'EFBIG' });
        const bigger = Buffer.allocUnsafe(readBuffer.length * 2);
        readBuffer.copy(bigger, 0, 0, length);
        readBuffer = bigger;
      }
      const n = readSync(fd, readBuffer, length, readBuffer.length - length, null);
      if (n === 0) return { bytes: readBuffer.subarray(0, length), stamp };
      length += n;
    }
  } finally {
    closeSync(fd);
  }
}
