/**
 * The set of valid referral digests, read from `REFERRALS_FILE` at start-up and reloaded when the file
 * changes (like content). A reload that fails keeps the previous set and is reported (logs, `/health`).
 */
import { readFile, stat } from 'node:fs/promises';
import type { ReferralLookup } from '../http/referrals.js';
import { BurstDebouncer } from '../content/index.js';
import { codeDigest, DigestFileError, parseDigests } from './digests.js';
import { fileVersion, watchFile, type FileWatch } from './file-watch.js';

/** The referral file's watcher failed. */
class WatchError extends Error {
  override name = 'WatchError';
}

/**
 * What the public `/health` says of a failed reload: a category, never the file's path or a line of it (a
 * malformed line may be a plaintext code). The details are in the log.
 */
export function publicReloadError(error: Error): string {
  if (error instanceof DigestFileError) return 'invalid file, previous set kept';
  if (error instanceof WatchError) return 'watching the file failed, previous set kept';
  return 'unreadable file, previous set kept';
}

/**
 * How long the file must go without a change before it is read, in milliseconds: a file rewritten in place
 * (truncated, then written) is read only once written, so valid codes never answer false from a half-written file.
 */
const STABLE_FOR_MS = 300;
/** The longest a file written without a pause of {@link STABLE_FOR_MS} waits to be read, in milliseconds. */
const MAX_WAIT_MS = 10_000;

/** Options of {@link ReferralStore.watch}. */
export interface ReferralWatchOptions {
  /** Quiet period after the last change before reloading, in milliseconds (default and least: 300). */
  debounceMs?: number;
  /**
   * Called after each reload attempt: `undefined` on success, otherwise what went wrong. The error's message is
   * for the log (it names the file and lines); {@link publicReloadError} says what a client may be told.
   */
  onReload?: (error: Error | undefined, count: number) => void;
}

/** Holds the digests; see the module comment. */
export class ReferralStore implements ReferralLookup {
  readonly path: string;
  #digests: ReadonlySet<string> = new Set();
  /** The {@link fileVersion} of the file the set was read from. */
  #version: string | undefined;
  #watch: FileWatch | undefined;
  #burst: BurstDebouncer<string> | undefined;

  constructor(path: string) {
    this.path = path;
  }

  /**
   * Reads the file and replaces the set (one assignment).
   * @returns the number of digests loaded.
   * @throws Error (with the path) when the file cannot be read; DigestFileError when lines are malformed.
   */
  async load(): Promise<number> {
    let text: string;
    let version: string;
    try {
      // Stated before reading: a change in between gives a new version, so the next event reads it again.
      version = fileVersion(await stat(this.path));
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new Error(`${this.path}: cannot read the referral digests file (${code}); set REFERRALS_FILE to a readable file`, { cause: error });
    }
    const digests = parseDigests(text, this.path);
    this.#digests = digests;
    this.#version = version;
    return digests.size;
  }

  /** Number of valid codes. */
  get size(): number {
    return this.#digests.size;
  }

  /** Whether `code` is valid: its digest is in the set. */
  isValid(code: string): boolean {
    return this.#digests.has(codeDigest(code));
  }

  /**
   * Reloads on every change of the file, debounced: written in place, or replaced (a rename over it, a swapped link;
   * see `file-watch.ts`). Events that leave the file as it was read (a sibling's) load nothing.
   * @returns once the watch is armed (a change from then on is seen). A folder that cannot be watched is reported
   *   to `onReload` as a watch failure.
   */
  watch(opts: ReferralWatchOptions = {}): Promise<void> {
    if (this.#burst) return Promise.resolve();
    const failed = (error: unknown): void => opts.onReload?.(new WatchError(`watching ${this.path}: ${String(error)}`), this.size);
    const reloaded = (error: unknown): void => opts.onReload?.(error instanceof Error ? error : new Error(String(error)), this.size);
    // Loads never overlap; a burst of writes (truncate, then write) gives one load after the quiet time.
    const burst = new BurstDebouncer<string>({
      quietMs: Math.max(STABLE_FOR_MS, opts.debounceMs ?? 0),
      maxWaitMs: MAX_WAIT_MS,
      run: async () => {
        const now = await stat(this.path).then(fileVersion, () => undefined);
        if (now !== undefined && now === this.#version) return;
        // A file that failed to load is not read again until it changes.
        this.#version = now;
        try {
          // Loaded first: `onReload?.(…)` would not evaluate its arguments without a callback.
          const count = await this.load();
          opts.onReload?.(undefined, count);
        } catch (error) {
          reloaded(error);
        }
      },
      onError: reloaded,
    });
    this.#burst = burst;
    try {
      this.#watch = watchFile(this.path, () => burst.add(this.path), failed);
    } catch (error) {
      failed(error);
    }
    return Promise.resolve();
  }

  /** Stops watching. */
  async close(): Promise<void> {
    this.#watch?.close();
    this.#watch = undefined;
    await this.#burst?.close();
  }
}
