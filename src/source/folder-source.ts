/**
 * Folder mode: the content is a folder on this machine (`CONTENT_DIR`), edited in place, replaced by a deploy,
 * or swapped by a symbolic link (git-sync: `ln -s rev2 tmp && mv -T tmp current`).
 *
 * The watcher (watch.ts) watches the folder's real path; every `checkIntervalMs` the configured path is
 * resolved again and its identity (real path, device, inode) compared with the watched one. When it changed (a link retargeted,
 * the folder deleted and recreated, a parent folder replaced) the watcher is armed on the new folder and then
 * the whole tree is loaded, so no change made after the swap is lost. When the folder is missing or watching
 * fails, the last good content stays served, the status says why, and arming is retried with back-off; each
 * retry loads the tree once, which keeps serving current content even when watching itself cannot work.
 */
import { realpath, stat } from 'node:fs/promises';
import type { Logger } from 'pino';
import { ContentLoader } from '../content/index.js';
import { watchContent, type ContentWatch, type WatchContentOptions } from './watch.js';
import type { ContentSource, ContentSourceListener, ContentSourceStatus, ContentUpdate, SourceFault, SyncFailureReason } from './types.js';
import { backoffDelay } from './backoff.js';
import { SourceError } from './types.js';

/** Defaults of {@link FolderSourceOptions}, in milliseconds. */
export const FOLDER_SOURCE_DEFAULTS = {
  /** How often the folder's identity is checked: a symlink swap is seen within this time. */
  checkIntervalMs: 500,
  /** First wait before arming the watcher again after it failed; doubles on each failure. */
  retryMinMs: 1_000,
  /** Longest wait between attempts to arm the watcher again. */
  retryMaxMs: 30_000,
} as const;

/** Options of a {@link FolderSource}. */
export interface FolderSourceOptions {
  /** The content folder as configured (absolute). It, or any folder above it, may be a symbolic link. */
  dir: string;
  logger: Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;
  /** Quiet time of the watcher, in milliseconds (default: the watcher's). */
  debounceMs?: number;
  /** See {@link FOLDER_SOURCE_DEFAULTS}. */
  checkIntervalMs?: number;
  retryMinMs?: number;
  retryMaxMs?: number;
  /** Whether to watch and re-check the folder after the first load (default true; false: load once, for tests and tools). */
  follow?: boolean;
  /** Arms a watcher (default {@link watchContent}); tests inject failures here. */
  watch?: (dir: string, options: WatchContentOptions) => Promise<ContentWatch>;
  /** Clock (default `new Date()`). */
  now?: () => Date;
}

/** What a folder is: where its path leads now, and which folder that is on disk. */
interface Identity {
  /** Absolute path with every link resolved. */
  real: string;
  /** `dev:ino` of that folder: a folder deleted and recreated at the same path is another folder. */
  id: string;
}

/**
 * Watches a content folder and survives it being replaced; see the module comment.
 * Problems name files relative to the content folder (`courses/x/index.md:3:1: …`).
 */
export class FolderSource implements ContentSource {
  readonly kind = 'folder' as const;
  readonly #opts: FolderSourceOptions;
  readonly #checkIntervalMs: number;
  readonly #retryMinMs: number;
  readonly #retryMaxMs: number;
  readonly #now: () => Date;
  #listener: ContentSourceListener | undefined;
  /** The folder being watched, or `undefined` while it is missing or watching failed. */
  #armed: { identity: Identity; watch: ContentWatch | undefined } | undefined;
  #loader: ContentLoader | undefined;
  /** Why watching does not work right now (`undefined` = ok). */
  #fault: SourceFault | undefined;
  #syncedAt = '';
  #failures = 0;
  #retryAt = 0;
  /** Arming and full loads run one at a time, in order. */
  #ops: Promise<unknown> = Promise.resolve();
  #busy = false;
  #refreshQueued = false;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: FolderSourceOptions) {
    this.#opts = options;
    this.#checkIntervalMs = options.checkIntervalMs ?? FOLDER_SOURCE_DEFAULTS.checkIntervalMs;
    this.#retryMinMs = options.retryMinMs ?? FOLDER_SOURCE_DEFAULTS.retryMinMs;
    this.#retryMaxMs = options.retryMaxMs ?? FOLDER_SOURCE_DEFAULTS.retryMaxMs;
    this.#now = options.now ?? (() => new Date());
  }

  async start(listener: ContentSourceListener): Promise<ContentUpdate> {
    let identity: Identity;
    try {
      identity = await identify(this.#opts.dir);
    } catch (error) {
      throw new SourceError(`the content folder ${this.#opts.dir} cannot be read (${errorCode(error)}); set CONTENT_DIR to a folder`, {
        cause: error,
      });
    }
    const first = await this.#enqueue(() => this.#arm(identity, 'start'));
    if (!first) throw new SourceError(`the content folder ${this.#opts.dir} cannot be watched: ${this.#fault?.detail ?? 'unknown error'}`);
    this.#listener = listener;
    if (this.#opts.follow ?? true) {
      this.#timer = setInterval(() => void this.#check(), this.#checkIntervalMs);
      this.#timer.unref();
    }
    return first;
  }

  refresh(reason: string): void {
    // One refresh waiting to start covers every call until it starts; a call during a load queues one more.
    if (this.#closed || this.#refreshQueued) return;
    this.#refreshQueued = true;
    void this.#enqueue(async () => {
      this.#refreshQueued = false;
      const identity = await identify(this.#opts.dir).catch((error: unknown) => {
        this.#failed('folder-missing', missingMessage(error));
        return undefined;
      });
      if (identity) this.#deliver(await this.#arm(identity, reason));
    });
  }

  status(): ContentSourceStatus {
    return { kind: 'folder', syncedAt: this.#syncedAt, fault: this.#fault };
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#ops;
    await this.#armed?.watch?.close();
    this.#armed = undefined;
  }

  /** One periodic check: is the watched folder still the one the configured path leads to? */
  async #check(): Promise<void> {
    if (this.#busy || this.#closed) return;
    let identity: Identity;
    try {
      identity = await identify(this.#opts.dir);
    } catch (error) {
      if (this.#armed) {
        // The folder (or a link on the way) is gone: its watcher sees nothing any more.
        const { watch } = this.#armed;
        this.#armed = undefined;
        await this.#enqueue(async () => watch?.close());
      }
      this.#failed('folder-missing', missingMessage(error));
      return;
    }
    const armed = this.#armed;
    const replaced = !armed || armed.identity.real !== identity.real || armed.identity.id !== identity.id;
    const retryDue = armed?.watch === undefined && Date.now() >= this.#retryAt;
    if (replaced || retryDue) {
      const reason = replaced ? (armed ? 'content folder replaced' : 'content folder back') : 'watching again';
      await this.#enqueue(async () => this.#deliver(await this.#arm(identity, reason)));
      return;
    }
    if (this.#fault === undefined) this.#syncedAt = this.#now().toISOString();
  }

  /**
   * Arms a watcher on `identity` (closing the previous one first, so none of its reloads follows), then loads the
   * whole tree with a fresh loader. A watcher that cannot be armed is retried later; the load happens anyway.
   */
  async #arm(identity: Identity, reason: string): Promise<ContentUpdate | undefined> {
    if (this.#closed) return undefined;
    const previous = this.#armed?.watch;
    this.#armed = undefined;
    await previous?.close();
    const loader = new ContentLoader(identity.real, { displayRoot: '' });
    this.#loader = loader;
    const following = this.#opts.follow ?? true;
    const watch = following ? await this.#watch(identity.real, loader) : undefined;
    if (this.#closed) {
      await watch?.close();
      return undefined;
    }
    this.#armed = { identity, watch };
    if (watch) {
      this.#failures = 0;
      this.#recovered();
    }
    const result = await loader.load(watch?.listing); // the tree as arming listed it, not walked twice
    this.#syncedAt = this.#now().toISOString();
    return { result, reason, changedFiles: loader.lastParsedCount };
  }

  /** A watcher on `dir` that reloads with `loader`, or `undefined` when it cannot be armed (retried later). */
  async #watch(dir: string, loader: ContentLoader): Promise<ContentWatch | undefined> {
    try {
      return await (this.#opts.watch ?? watchContent)(dir, {
        loader,
        ...(this.#opts.debounceMs !== undefined && { debounceMs: this.#opts.debounceMs }),
        onReload: (result, changed) => {
          if (this.#loader !== loader) return;
          this.#deliver({
            result,
            reason: changed.length === 1 ? changed[0]! : `${changed.length} changed paths`,
            changedFiles: loader.lastParsedCount,
          });
        },
        onReloadStart: (changed) => this.#opts.logger.debug({ changed: changed.length }, 'content reload started'),
        onError: (error) => this.#watchFailed(loader, error),
      });
    } catch (error) {
      this.#watchFailed(loader, error);
      return undefined;
    }
  }

  /** The watcher of `loader`'s folder failed (e.g. `ENOSPC`: inotify limits): drop it and retry with back-off. */
  #watchFailed(loader: ContentLoader, error: unknown): void {
    if (this.#closed || this.#loader !== loader) return;
    const waitMs = backoffDelay(this.#failures, this.#retryMinMs, this.#retryMaxMs);
    this.#failures++;
    this.#retryAt = Date.now() + waitMs;
    this.#opts.logger.error({ err: error, retry_in_ms: waitMs }, 'content watcher failed; loading the folder again on each retry');
    this.#failed('watch-failed', `watching failed (${errorCode(error)}); loading the folder again in ${Math.ceil(waitMs / 1000)} s`);
    const armed = this.#armed;
    if (armed?.watch) {
      const { watch } = armed;
      armed.watch = undefined;
      void watch.close().catch(() => undefined);
    }
  }

  /** One failed check: counted, and the fault shown (its `since` kept while the same reason lasts). */
  #failed(reason: SyncFailureReason, detail: string): void {
    this.#listener?.onSyncFailure?.(reason);
    const since = this.#fault?.reason === reason ? this.#fault.since : this.#now().toISOString();
    if (this.#fault?.reason === reason && this.#fault.detail === detail) return;
    this.#fault = { reason, since, detail };
    this.#opts.logger.warn({ reason, detail }, 'content folder not watched; still serving the last good content');
    this.#listener?.onStatus(this.status());
  }

  #recovered(): void {
    if (this.#fault === undefined) return;
    const was = this.#fault;
    this.#fault = undefined;
    this.#opts.logger.info({ was: was.detail }, 'content folder watched again');
    this.#listener?.onStatus(this.status());
  }

  #deliver(update: ContentUpdate | undefined): void {
    if (!update || this.#closed) return;
    this.#listener?.onUpdate(update);
  }

  /** Runs `op` after every earlier one. */
  #enqueue<T>(op: () => Promise<T>): Promise<T> {
    const run = this.#ops.then(async () => {
      this.#busy = true;
      try {
        return await op();
      } finally {
        this.#busy = false;
      }
    });
    this.#ops = run.catch(() => undefined);
    return run;
  }
}

/** Where `dir` leads now. @throws the `realpath`/`stat` error (`ENOENT`, `ENOTDIR`, …) or `ENOTDIR` for a file. */
async function identify(dir: string): Promise<Identity> {
  const real = await realpath(dir);
  const info = await stat(real);
  if (!info.isDirectory()) throw Object.assign(new Error(`${dir} is not a folder`), { code: 'ENOTDIR' });
  return { real, id: `${info.dev}:${info.ino}` };
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? (error instanceof Error ? error.message : String(error));
}

/** The public status text for a folder that cannot be found: no path, only what is wrong. */
function missingMessage(error: unknown): string {
  const code = errorCode(error);
  const what =
    code === 'ENOENT'
      ? 'the content folder is missing'
      : code === 'ENOTDIR'
        ? 'the content path is not a folder'
        : 'the content folder cannot be read';
  return `${what} (${code}); serving the last good content and checking again`;
}
