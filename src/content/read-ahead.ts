/**
 * Files read ahead of their parsing: a full load reads a run of files into one buffer, then parses the run, instead
 * of reading and parsing each file in turn. The work is the same, but it costs less in runs (most likely because the
 * system calls' code and the parser's each stay in the processor's caches for a run; bench/analysis.md has the
 * decision). Reloads after a watcher's events read and parse file by file.
 */

/** Most files in a run: 64 lessons of a few KiB (shorter and longer runs gained less). */
const RUN_FILES = 64;
/** Most bytes in a run; a larger file is parsed on its own. */
const RUN_BYTES = 1024 * 1024;

/** A file waiting in a {@link ReadAhead}: its path, its bytes and the stamp read with them. */
export interface ReadFile {
  rel: string;
  bytes: Uint8Array;
  stamp: string;
}

/** The files read and not yet parsed, their bytes copied into a buffer of their own. */
export class ReadAhead {
  readonly #buffer = Buffer.allocUnsafe(RUN_BYTES);
  #used = 0;
  #files: ReadFile[] = [];

  /** Whether the run is as long as it gets: parse it ({@link take}) before reading more. */
  get full(): boolean {
    return this.#files.length >= RUN_FILES;
  }

  /**
   * Adds a file read into a buffer that the next read reuses: its bytes are copied.
   * @returns false, adding nothing, when its bytes do not fit in what is left (take the run first; a file larger
   *   than a run's buffer never fits).
   */
  add(rel: string, bytes: Uint8Array, stamp: string): boolean {
    if (this.#used + bytes.length > this.#buffer.length) return false;
    this.#buffer.set(bytes, this.#used);
    this.#files.push({ rel, bytes: this.#buffer.subarray(this.#used, this.#used + bytes.length), stamp });
    this.#used += bytes.length;
    return true;
  }

  /** The files of the run, in the order added, and an empty run. Their bytes are valid until the next {@link add}. */
  take(): ReadFile[] {
    const files = this.#files;
    this.#files = [];
    this.#used = 0;
    return files;
  }
}
