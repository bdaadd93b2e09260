/**
 * What the service says about its content, stated once and shown three ways:
 * - the public `/health`: categories, counts and commit ids only (an embargoed entry's file name or values must
 *   not leak through a typo);
 * - the admin listener's `GET /statusz`: every problem as `path:line:column: message` and the source's own words;
 * - the metrics an operator alerts on (`ServiceMetrics.contentSync`).
 */
import { formatProblem, type Problem } from '../content/index.js';
import type { IndexHolder } from '../index/holder.js';
import type { ContentSource, ContentUpdate } from '../source/types.js';
import { adminJson, type AdminRoute } from './admin.js';
import type { ContentSyncReading } from './metrics.js';
import { MAX_REPORTED_PROBLEMS } from './problems.js';

/** Path of the detailed content status on the admin listener. */
export const STATUS_PATH = '/statusz';

/** The last update that was not served. */
interface Rejection {
  /** ISO 8601 time it was rejected. */
  at: string;
  commit: string | undefined;
  /** Every problem, `path:line:column: message`. */
  problems: string[];
}

/** Holds the content's reported state; see the module comment. */
export class ContentReport {
  readonly #source: ContentSource;
  readonly #holder: IndexHolder;
  #rejected: Rejection | undefined;
  /** The commit time of each revision served recently, by revision (the served one is looked up). */
  readonly #commitTimes = new Map<string, Date>();

  constructor(source: ContentSource, holder: IndexHolder) {
    this.#source = source;
    this.#holder = holder;
  }

  /** Notes an update that arrived (its commit time, for when it is served). */
  noteUpdate(update: ContentUpdate): void {
    if (update.committedAt === undefined || !update.result.ok) return;
    this.#commitTimes.set(update.result.model.revision, update.committedAt);
    // Only the served revision and a few before it matter: the oldest noted goes (one is added at a time).
    if (this.#commitTimes.size > 4) this.#commitTimes.delete(this.#commitTimes.keys().next().value!);
  }

  /**
   * Records an update that was not served and returns what the public `/health` says of it.
   * @param problems every problem of the update (none for an index build failure).
   */
  reject(update: ContentUpdate, problems: readonly Problem[], at: Date): string {
    this.#rejected = { at: at.toISOString(), commit: update.commit, problems: problems.map(formatProblem) };
    const where = update.commit === undefined ? '' : `commit ${update.commit}: `;
    if (problems.length === 0) return `${where}the index could not be built; see the log`;
    return `${where}invalid content (${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}); see the log or the admin listener's ${STATUS_PATH}`;
  }

  /** Forgets the last rejection (a valid update is served). */
  accepted(): void {
    this.#rejected = undefined;
  }

  /** The source's fields of the public `/health`: categories only. */
  publicFields(): Record<string, string> {
    const status = this.#source.status();
    return {
      content_source: status.kind,
      content_synced_at: status.syncedAt,
      content_watch: status.fault?.reason ?? 'ok',
      content_watch_since: status.fault?.since ?? '',
      content_in_sync: String(this.#inSync()),
      ...(status.head !== undefined && { content_head: status.head }),
    };
  }

  /** What the metrics read at each scrape. */
  reading(): ContentSyncReading {
    const status = this.#source.status();
    return {
      up: status.fault === undefined,
      inSync: this.#inSync(),
      syncedAt: status.syncedAt === '' ? undefined : new Date(status.syncedAt),
      revisionTime: this.#commitTimes.get(this.#holder.current.revision),
    };
  }

  /** `GET /statusz` on the admin listener: the source and the last rejected update in full. */
  statusRoute(): AdminRoute {
    return {
      path: STATUS_PATH,
      methods: ['GET', 'HEAD'],
      handle: () => {
        const status = this.#source.status();
        const served = this.#holder.status();
        const rejected = this.#rejected && {
          ...this.#rejected,
          problem_count: this.#rejected.problems.length,
          problems: this.#rejected.problems.slice(0, MAX_REPORTED_PROBLEMS),
        };
        const revisionTime = this.#commitTimes.get(served.revision);
        return adminJson(
          200,
          JSON.stringify({
            revision: served.revision,
            ...(revisionTime && { revision_committed_at: revisionTime.toISOString() }),
            built_at: served.built_at,
            in_sync: this.#inSync(),
            source: { kind: status.kind, synced_at: status.syncedAt, head: status.head ?? null, fault: status.fault ?? null },
            last_rejected: rejected ?? null,
          }),
        );
      },
    };
  }

  /** Up, and serving the newest revision the source knows of (a folder: its last load was served). */
  #inSync(): boolean {
    const status = this.#source.status();
    if (status.fault !== undefined) return false;
    return status.head === undefined ? this.#rejected === undefined : status.head === this.#holder.current.revision;
  }
}
