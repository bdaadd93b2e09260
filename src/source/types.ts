/**
 * A content source: where the content tree comes from (a watched folder, or a Git branch followed by this
 * service) and which revision it is. A source hands complete trees to the content layer, delivers every
 * load result in order, and says when it cannot see changes any more.
 *
 * ```
 * source ──► LoadResult (content) ──► index ──► served
 * ```
 */
import type { LoadResult } from '../content/model.js';

/** The two ways content reaches the service (`/health`'s `content_source`). */
export type ContentSourceKind = 'folder' | 'git';

/** One load of the content tree, delivered by a source in the order the loads finished. */
export interface ContentUpdate {
  /** The valid model (with its revision) or every problem. On `ok: false` the caller keeps serving its last good index. */
  result: LoadResult;
  /** Why this load ran, for logs: the paths a watcher reported, a commit, a signal… */
  reason: string;
  /** Number of files the load read again (the rest came from the loader's cache). */
  changedFiles: number;
  /** The Git commit the tree was checked out from (Git mode only). */
  commit?: string;
}

/** What a source says about itself on `/health`: every value a string, never an absolute path or a secret. */
export interface ContentSourceStatus {
  /** `folder` or `git`. */
  content_source: ContentSourceKind;
  /** ISO 8601 time of the last successful check of the source (a load, a re-check, a fetch); `""` before the first. */
  content_synced_at: string;
  /** `ok`, or why watching or fetching fails right now (and what the source does about it). */
  content_watch: string;
}

/** Callbacks a source reports to. */
export interface ContentSourceListener {
  /** A load finished (after {@link ContentSource.start}'s own first load). */
  onUpdate(update: ContentUpdate): void;
  /** The status changed. */
  onStatus(status: ContentSourceStatus): void;
}

/** A running source of content. */
export interface ContentSource {
  readonly kind: ContentSourceKind;
  /**
   * Arms watching (or fetches) and then loads the tree once, so no change made from this moment on is lost.
   * Resolves with that first load; later loads go to `listener.onUpdate`, never before this resolves.
   * @throws SourceError when the source cannot be read at all (folder missing, first fetch failed).
   */
  start(listener: ContentSourceListener): Promise<ContentUpdate>;
  /**
   * Checks the source again now (SIGHUP, a push webhook): a full load of the folder, or a fetch of the branch.
   * Calls made while one runs are folded into one more check after it.
   */
  refresh(reason: string): void;
  /** The current status. */
  status(): ContentSourceStatus;
  /** Stops watching or fetching; waits for a load in progress. No `onUpdate` call follows. */
  close(): Promise<void>;
}

/** A source that cannot deliver a first tree (the folder is missing, the repository cannot be fetched). */
export class SourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SourceError';
  }
}
