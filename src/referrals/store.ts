/**
 * The set of valid referral digests, read from `REFERRALS_FILE` at start-up and reloaded when the file
 * changes (like content). A reload that fails keeps the previous set and is reported (logs, `/health`).
 */
import { readFile } from 'node:fs/promises';
import { watch, type FSWatcher } from 'chokidar';
import type { ReferralLookup } from '../http/referrals.js';
import { BurstDebouncer } from '../content/index.js';
import { codeDigest, DigestFileError, parseDigests } from './digests.js';

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

/** How long the file's size must stay unchanged before it is read, in milliseconds. */
const STABLE_FOR_MS = 300;

/** Options of {@link ReferralStore.watch}. */
export interface ReferralWatchOptions {
  /**
   * Quiet period after the last change before reloading, in milliseconds (default 100, at least 60):
   * chokidar drops a change event that follows another within 50 ms, so the reload must read the file after
   * that window to see the dropped change.
   */
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
  #watcher: FSWatcher | undefined;
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
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new Error(`${this.path}: cannot read the referral digests file (${code}); set REFERRALS_FILE to a readable file`, { cause: error });
    }
    const digests = parseDigests(text, this.path);
    this.#digests = digests;
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
   * Reloads on every change of the file (also when it is replaced by a rename), debounced.
   * @returns a promise that resolves once the watcher is ready (changes before that may be missed).
   */
  watch(opts: ReferralWatchOptions = {}): Promise<void> {
    if (this.#watcher) return Promise.resolve();
    // Loads never overlap; a burst of writes (truncate, then write) gives one load after the quiet time.
    this.#burst = new BurstDebouncer<string>({
      quietMs: Math.max(60, opts.debounceMs ?? 100),
      maxWaitMs: 2_000,
      run: async () => {
        try {
          opts.onReload?.(undefined, await this.load());
        } catch (error) {
          opts.onReload?.(error instanceof Error ? error : new Error(String(error)), this.size);
        }
      },
      onError: (error) => opts.onReload?.(error instanceof Error ? error : new Error(String(error)), this.size),
    });
    const burst = this.#burst;
    this.#watcher = watch(this.path, {
      ignoreInitial: true,
      atomic: true,
      // A file rewritten in place (truncated, then written) is read only once its size has stopped changing, so
      // valid codes never answer false from a half-written file (chokidar polls its size until it is stable).
      awaitWriteFinish: { stabilityThreshold: STABLE_FOR_MS, pollInterval: 50 },
    });
    this.#watcher.on('all', (_event, path) => burst.add(path));
    this.#watcher.on('error', (error: unknown) => opts.onReload?.(new WatchError(`watching ${this.path}: ${String(error)}`), this.size));
    const watcher = this.#watcher;
    return new Promise((resolve) => watcher.once('ready', () => resolve()));
  }

  /** Stops watching. */
  async close(): Promise<void> {
    await this.#watcher?.close();
    await this.#burst?.close();
    this.#watcher = undefined;
  }
}
