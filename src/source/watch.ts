/**
 * Watches a content folder (folder-watcher.ts: one `fs.watch` per folder) and reloads it after each burst of changes.
 */
import { BurstDebouncer, ContentLoader, type ContentTree, type LoadResult } from '../content/index.js';
import { byCodePoint } from '../contract/order.js';
import { watchFolders } from './folder-watcher.js';

/** Options of {@link watchContent}. */
export interface WatchContentOptions {
  /**
   * Called after every reload with its result and the paths (relative to the folder, `/`-separated, sorted)
   * that changed since the previous reload. On `ok: false` the caller keeps serving its last good index.
   * Exceptions it throws are caught and passed to `onError`.
   */
  onReload(result: LoadResult, changedPaths: string[]): void;
  /** Called when a reload begins, with the paths it reads (for logs: a reload's start and end bracket its work). */
  onReloadStart?(changedPaths: string[]): void;
  /**
   * Called when watching or reloading fails outside the content's own problems (the watcher errors, or
   * `onReload` throws). Default: `process.emitWarning`.
   */
  onError?: (error: unknown) => void;
  /**
   * Quiet time after the last change before reloading, in milliseconds. Default 50: the files of a `git pull` or
   * checkout arrive well under a millisecond apart, so a short quiet time still folds a burst into one reload
   * while a single edit is served quickly.
   */
  debounceMs?: number;
  /**
   * Longest wait after the first change of a burst before reloading anyway, in milliseconds, so a folder
   * that never stops changing is still reloaded. Default 2000 (at least `debounceMs`).
   */
  maxWaitMs?: number;
  /** The loader to use, e.g. one whose cache was filled by the start-up load. Default: a new one on `dir`. */
  loader?: ContentLoader;
}

/** A running watch. */
export interface ContentWatch {
  /** Stops watching; waits for a reload in progress to finish. No `onReload` call follows. */
  close(): Promise<void>;
  /**
   * The tree as arming the watch listed it, for the first load ({@link ContentLoader.load}); `undefined` when part of
   * it could not be watched (see `FolderWatch.listing`).
   */
  readonly listing?: ContentTree | undefined;
}

/**
 * Watches `dir` and calls `onReload` once per burst of changes (adds, changes, deletions, renames, and
 * editors that save by writing a temporary file and renaming it). Only changed files are parsed again.
 * Reloads never overlap: changes arriving during a reload lead to one more reload after it.
 * @returns once every folder is watched, so changes made after it are seen.
 * @throws (rejects with) the error of watching `dir` itself (`ENOENT`, `ENOSPC`, …).
 */
// eslint-disable-next-line @typescript-eslint/require-await -- async so that a failure to watch `dir` is a rejection
export async function watchContent(dir: string, options: WatchContentOptions): Promise<ContentWatch> {
  const loader = options.loader ?? new ContentLoader(dir);

  const report = (error: unknown): void => {
    // Never silent: without a handler, a watcher failure (e.g. EMFILE) still reaches the process's warnings.
    if (options.onError) options.onError(error);
    else process.emitWarning(error instanceof Error ? error : new Error(String(error)), 'ContentWatchWarning');
  };

  let closed = false;
  const burst = new BurstDebouncer<string>({
    quietMs: options.debounceMs ?? 50,
    maxWaitMs: options.maxWaitMs ?? 2_000,
    onError: report,
    async run(paths) {
      const changed = paths.sort(byCodePoint);
      options.onReloadStart?.(changed);
      const result = await loader.loadChanged(changed);
      if (!closed) options.onReload(result, changed);
    },
  });

  // Markdown files and symbolic links (the loader reports links), and `folder/` for a folder that is gone; hidden
  // paths and other files are never reported. Editors that save by renaming a temporary file over the original
  // give one event for the original; an unlink and an add of the same path fold into one reload in the burst.
  const watcher = watchFolders(dir, {
    onPaths: (paths) => {
      for (const path of paths) burst.add(path);
    },
    onError: report,
  });

  return {
    listing: watcher.listing,
    async close(): Promise<void> {
      closed = true;
      watcher.close();
      await burst.close();
    },
  };
}
