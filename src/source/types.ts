/**
 * A content source: where the content tree comes from (a watched folder, or a Git branch followed by this
 * service) and which revision it is. A source hands complete trees to the content layer, delivers every
 * load result in order, and says when it cannot see changes any more.
 *
 * ```
 * source ──► LoadResult (content) ──► index ──► served
 * ```
 */
import type { LoadResult } from '../content/index.js';
import { GIT_FAILURE_CATEGORIES, type GitFailureCategory } from '../git/run.js';

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
  /** The committer time of {@link ContentUpdate.commit} (Git mode, valid updates only). */
  committedAt?: Date;
}

/**
 * Why a source cannot check for changes right now: a bounded set of categories, each a `/health` value and a
 * metric label (`syllabus_content_sync_failures_total{reason}`). Git's come from `src/git/run.ts`; a folder is
 * `folder-missing` (the path leads nowhere, or not to a folder) or `watch-failed` (the watcher broke, e.g. inotify
 * limits).
 */
export type SyncFailureReason = GitFailureCategory | 'folder-missing' | 'watch-failed';

/** Every {@link SyncFailureReason}. */
export const SYNC_FAILURE_REASONS: readonly SyncFailureReason[] = [...GIT_FAILURE_CATEGORIES, 'folder-missing', 'watch-failed'];

/** A fault of the source that lasts: the content served stays, the source keeps trying. */
export interface SourceFault {
  /** The category: public. */
  reason: SyncFailureReason;
  /** ISO 8601 time of the first failure in a row. */
  since: string;
  /** What failed and what the source does about it, for the log and the admin listener only (never `/health`). */
  detail: string;
}

/** What a source says about itself. Nothing in it is an absolute path or a secret. */
export interface ContentSourceStatus {
  /** `folder` or `git`. */
  kind: ContentSourceKind;
  /** ISO 8601 time of the last successful check of the source (a load, a re-check, a fetch); `""` before the first. */
  syncedAt: string;
  /** Why checking fails right now, or `undefined` while it works. */
  fault: SourceFault | undefined;
  /**
   * The newest revision the source knows of (Git: the commit the branch pointed at when last fetched); `undefined`
   * for a folder, whose newest revision is the one last loaded.
   */
  head?: string;
}

/** Callbacks a source reports to. */
export interface ContentSourceListener {
  /** A load finished (after {@link ContentSource.start}'s own first load). */
  onUpdate(update: ContentUpdate): void;
  /** The status changed. */
  onStatus(status: ContentSourceStatus): void;
  /** One check of the source failed (every attempt, not only the first of a row): counted by reason. */
  onSyncFailure?(reason: SyncFailureReason): void;
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
