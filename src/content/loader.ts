/**
 * Loads a content folder into a {@link ContentModel}, re-parsing only files that changed since the last load.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import type { ContentModel, LoadResult, Problem } from './model.js';
import { buildModel, fileWarnings, type RelProblem } from './build-model.js';
import { DerivationMemo } from './memo.js';
import { parseFile, type ParsedFile } from './parse-file.js';
import { folderEntryKind, isHiddenPath, LINK_PROBLEM, listContentTree, SUBMODULE_PROBLEM, type ContentTree, type EntryKind } from './read-tree.js';
import { ReadAhead, type ReadFile } from './read-ahead.js';
import { FolderDigest, gitState, revisionOf } from './revision.js';
import { TimeSlice } from './time-slice.js';

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
  /**
   * The revision of every model this loader builds, when the caller knows it (the Git follower checks out one
   * commit per folder). Default: {@link revisionOf} the folder.
   */
  revision?: string;
}

/**
 * Loads one content folder, keeping every parsed file in memory (its frontmatter and step count, never its
 * lesson text) so that the next {@link ContentLoader.load} re-parses only files whose mtime, size or inode
 * changed; {@link ContentLoader.loadChanged} re-reads only the files a watcher reported.
 *
 * Concurrent calls to {@link ContentLoader.load} run one after another.
 */
export class ContentLoader {
  readonly dir: string;
  private readonly displayRoot: string;
  private readonly revision: string | undefined;
  private readonly cache = new Map<string, CacheEntry>();
  /** The derived objects of the last models: an unchanged part of the tree gives the very same object again. */
  private readonly memo = new DerivationMemo();
  /** The digest of the files, kept between loads (a revision outside a clean Git checkout). */
  private readonly digest = new FolderDigest();
  /**
   * Entries that cannot be content, reported until fixed: files that could not be read at the last attempt
   * (permissions, size) and symbolic links.
   */
  private readonly unreadable = new Map<string, Problem>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Whether a full load has filled the cache (incremental loads build on it). */
  private loaded = false;
  /** How many files the last load parsed (the rest came from the cache). */
  lastParsedCount = 0;

  constructor(dir: string, options: ContentLoaderOptions = {}) {
    this.dir = dir;
    this.displayRoot = displayPrefix(dir, options.displayRoot);
    this.revision = options.revision;
  }

  /**
   * Reads the folder and returns the model, or every problem found.
   * Never throws for bad content; a missing or unreadable folder is reported as a problem too.
   * Calls made while a load runs wait for it, then load again (they share the cache, one at a time).
   * @param listing the folder's tree as a watcher armed on it listed it (`ContentWatch.listing`): read instead of
   *   walking the tree again. Default: the tree is listed now.
   */
  load(listing?: ContentTree): Promise<LoadResult> {
    return this.enqueue(() => this.loadAll(listing));
  }

  /**
   * The files of the last load as the loader parsed them, by path relative to the folder: for commands that need a
   * file's frontmatter besides the model, without reading and parsing it again. Shared: nothing may change them.
   */
  parsedFiles(): ReadonlyMap<string, ParsedFile> {
    const files = new Map<string, ParsedFile>();
    for (const [rel, entry] of this.cache) files.set(rel, entry.file);
    return files;
  }

  /**
   * Loads again after a watcher reported `changed` paths (relative to the folder, `/`-separated; a path ending in
   * `/` is a removed folder): only those files are read; every other file comes from the cache without even a
   * `stat`, so a one-file edit in a tree of ten thousand costs one read, not ten thousand. Before the first full
   * {@link load}, this is a full load.
   */
  loadChanged(changed: readonly string[]): Promise<LoadResult> {
    return this.enqueue(() => (this.loaded ? this.loadIncrementally(changed) : this.loadAll()));
  }

  private enqueue(task: () => Promise<LoadResult>): Promise<LoadResult> {
    const next = this.queue.then(task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async loadAll(listing?: ContentTree): Promise<LoadResult> {
    let rels: string[];
    let links: string[];
    let submodules: string[];
    try {
      ({ markdown: rels, links, submodules } = listing ?? (await listContentTree(this.dir)));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      return { ok: false, problems: [{ path: this.displayRoot || '.', line: 1, column: 1, message: `cannot read the content folder (${code})` }] };
    }
    const present = new Set(rels);
    for (const rel of this.cache.keys()) if (!present.has(rel)) this.cache.delete(rel);
    this.unreadable.clear();
    for (const rel of links) this.unreadable.set(rel, this.linkProblem(rel));
    for (const rel of submodules) this.unreadable.set(rel, this.at(rel, SUBMODULE_PROBLEM));

    let parsed = 0;
    const slice = new TimeSlice(); // synchronous reads, a slice at a time (time-slice.ts)
    const ahead = new ReadAhead(); // files are read in runs, then parsed (read-ahead.ts)
    const parseAhead = (): void => {
      for (const file of ahead.take()) this.parseInto(file);
    };
    for (const rel of rels) {
      if (slice.over()) await slice.yield();
      const cached = this.cache.get(rel);
      try {
        if (cached && stampOf(statSync(join(this.dir, rel))) === cached.stamp) continue;
      } catch {
        // Fall through: readEntry reports what is wrong with it.
      }
      const read = this.readEntry(rel);
      if (read === undefined) continue;
      parsed++;
      if (ahead.add(rel, read.bytes, read.stamp)) {
        if (ahead.full) parseAhead();
        continue;
      }
      parseAhead();
      if (!ahead.add(rel, read.bytes, read.stamp)) this.parseInto({ rel, ...read }); // larger than a run
    }
    parseAhead();
    this.lastParsedCount = parsed;
    this.loaded = true;
    return this.finish();
  }

  private async loadIncrementally(changed: readonly string[]): Promise<LoadResult> {
    let parsed = 0;
    const slice = new TimeSlice(); // a burst of files must not stall serving
    for (const rel of changed) {
      if (slice.over()) await slice.yield();
      if (rel.endsWith('/')) {
        // A removed folder: everything under it is gone.
        for (const key of this.cache.keys()) if (key.startsWith(rel)) this.cache.delete(key);
        for (const key of this.unreadable.keys()) if (key.startsWith(rel)) this.unreadable.delete(key);
      } else if (this.readInto(rel)) parsed++;
    }
    this.lastParsedCount = parsed;
    return this.finish();
  }

  /**
   * Reads and parses one entry into the cache by the rule of {@link listContentTree} ({@link readEntry}).
   * @returns whether the file was parsed.
   */
  private readInto(rel: string): boolean {
    const read = this.readEntry(rel);
    if (read === undefined) return false;
    this.parseInto({ rel, ...read });
    return true;
  }

  /**
   * Reads one entry by the rule of {@link listContentTree}: a Markdown file's bytes are returned (valid until the next
   * read); a symbolic link is a problem; anything else, or an entry that is gone, leaves the cache. An unreadable file
   * is remembered as a problem.
   * @returns the bytes and stamp of a Markdown file, `undefined` for anything else.
   */
  private readEntry(rel: string): { bytes: Uint8Array; stamp: string } | undefined {
    this.unreadable.delete(rel);
    const abs = join(this.dir, rel);
    try {
      const read = readMarkdownFile(this.dir, rel, abs);
      if (read.kind === 'link') this.unreadable.set(rel, this.linkProblem(rel));
      if (read.kind === 'submodule') this.unreadable.set(rel, this.at(rel, SUBMODULE_PROBLEM));
      if (read.kind !== 'markdown') {
        this.cache.delete(rel);
        return undefined;
      }
      return read;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      this.cache.delete(rel);
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined; // removed since the listing or the event
      if (code === 'ENXIO') return undefined; // a socket: not content, like a FIFO or device (entryKind's 'other')
      if (code === 'ELOOP') {
        this.unreadable.set(rel, this.linkProblem(rel)); // became a link since it was listed
        return undefined;
      }
      const message = code === 'EFBIG' ? FILE_TOO_LARGE : `cannot read the file (${code ?? String(err)})`;
      this.unreadable.set(rel, { path: this.display(rel), line: 1, column: 1, message });
      return undefined;
    }
  }

  /** Parses a file read by {@link readEntry} into the cache. */
  private parseInto(file: ReadFile): void {
    // A loader told its revision makes no folder digest, so it hashes no file.
    this.cache.set(file.rel, { stamp: file.stamp, file: parseFile(file.rel, file.bytes, { digest: this.revision === undefined }) });
  }

  /** The model of the files in the cache, or every problem. */
  private async finish(): Promise<LoadResult> {
    // `git status` runs in its own process while the model is built here.
    const git = this.revision === undefined ? gitState(this.dir) : undefined;
    const files: ParsedFile[] = [];
    // Unsorted here: the model and the digest each put their files in path order (one pass when they are already,
    // as the cache keeps the listing's order unless files were added since the full load).
    for (const entry of this.cache.values()) files.push(entry.file);

    const { problems, model } = buildModel(files, this.memo);
    const unreadable = [...this.unreadable.values()];
    const located = (p: RelProblem): Problem => ({ path: this.display(p.rel), line: p.line, column: p.column, message: p.message });
    const found = fileWarnings(files);
    const warnings = found.length > 0 ? { warnings: found.map(located) } : {};
    if (problems.length > 0 || unreadable.length > 0 || !model) {
      return { ok: false, problems: [...unreadable, ...problems.map(located)], ...warnings };
    }
    const revision = this.revision ?? revisionOf(await git, () => this.digest.of(files));
    const result: ContentModel = { revision, ...model };
    return { ok: true, model: result, ...warnings };
  }

  private linkProblem(rel: string): Problem {
    return this.at(rel, LINK_PROBLEM);
  }

  /** A problem about the entry `rel` as a whole (its first line). */
  private at(rel: string, message: string): Problem {
    return { path: this.display(rel), line: 1, column: 1, message };
  }

  /** A path relative to the folder as problems name it (under `displayRoot`). */
  display(rel: string): string {
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

/**
 * The prefix of the paths in the problems of a loader of `dir` given `displayRoot` ({@link ContentLoaderOptions}):
 * `/`-separated, without a trailing `/`, and `''` for the working directory itself.
 */
export function displayPrefix(dir: string, displayRoot: string | undefined): string {
  const root = (displayRoot ?? dir).split(sep).join('/').replace(/\/+$/, '');
  return root === '.' ? '' : root;
}

function stampOf(s: { mtimeMs: number; size: number; ino: number }): string {
  return `${s.mtimeMs}:${s.size}:${s.ino}`;
}

/** The largest content file read, in bytes: a lesson is a few kilobytes; anything near this is a mistake. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;

/** The problem of a file over {@link MAX_FILE_BYTES}, wherever it is found (a folder, a commit, a checkout). */
export const FILE_TOO_LARGE = `the file is larger than ${MAX_FILE_BYTES / 1048576} MiB`;

let readBuffer = Buffer.allocUnsafe(64 * 1024);

/**
 * What {@link readMarkdownFile} found: a Markdown file's bytes (a view into one buffer reused across files, valid
 * until the next call: thousands of per-file allocations were a large share of a cold load's garbage collection)
 * and its stamp, or the kind of entry that is not one.
 */
type ReadEntry = { kind: 'markdown'; bytes: Uint8Array; stamp: string } | { kind: Exclude<EntryKind, 'markdown'> };

/**
 * Reads the entry `rel` of `dir` (at `abs`) if it is a Markdown file, judged by {@link folderEntryKind} on the opened descriptor:
 * one `open` and one `fstat` per file, no `lstat` before them (a tenth of a cold load's system calls).
 * @throws the `open`/`read` error (`ENOENT`, `EACCES`, `ENXIO` for a socket, …), `ELOOP` for a symbolic link,
 *   `EFBIG` past {@link MAX_FILE_BYTES}.
 */
function readMarkdownFile(dir: string, rel: string, abs: string): ReadEntry {
  if (isHiddenPath(rel)) return { kind: 'skipped' };
  // O_NOFOLLOW: a link is refused (ELOOP), never followed. O_NONBLOCK: a FIFO or device put in the tree opens
  // at once instead of blocking the process, and the fstat below leaves it unread.
  const fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    // Stat before reading: a write racing with us leaves an older stamp, so the next load reads again.
    const stats = fstatSync(fd);
    const kind = folderEntryKind(dir, rel, stats);
    if (kind !== 'markdown') return { kind };
    const stamp = stampOf(stats);
    if (stats.size > MAX_FILE_BYTES) throw Object.assign(new Error('file too large'), { code: 'EFBIG' });
    if (readBuffer.length < stats.size) readBuffer = Buffer.allocUnsafe(Math.max(stats.size, readBuffer.length * 2));
    // Read up to the size fstat gave: one read(2) per file rather than a second one to see the end (the read
    // system call is the largest single cost of a cold load). A file that grew since has a newer stamp than this
    // one, so the load its change event starts reads it again; one that shrank ends the loop with a 0-byte read.
    let length = 0;
    for (;;) {
      if (length === readBuffer.length) {
        if (length >= MAX_FILE_BYTES) throw Object.assign(new Error('file too large'), { code: 'EFBIG' });
        const bigger = Buffer.allocUnsafe(readBuffer.length * 2);
        readBuffer.copy(bigger, 0, 0, length);
        readBuffer = bigger;
      }
      const n = readSync(fd, readBuffer, length, readBuffer.length - length, null);
      length += n;
      if (n === 0 || (length >= stats.size && stats.size > 0)) return { kind: 'markdown', bytes: readBuffer.subarray(0, length), stamp };
    }
  } finally {
    closeSync(fd);
  }
}
