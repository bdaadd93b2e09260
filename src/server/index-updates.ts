/**
 * The serial index work of a running service: content updates from the source, scheduled publications and the
 * compression of each served index, one after the other in the order they were asked for. What is served is
 * always the latest valid model as published at the clock's instant (`publishedAt`), and one timer is armed for
 * the next instant that changes it. Rejected updates and failed builds keep the served index and are recorded
 * in the {@link ContentReport} and the holder's reload status.
 */
import type { Logger } from 'pino';
import { formatProblem, publishedAt, type ContentModel } from '../content/index.js';
import { completeCompression } from '../index/build.js';
import type { IndexHolder } from '../index/holder.js';
import type { CatalogIndex } from '../index/types.js';
import type { ContentUpdate } from '../source/types.js';
import type { ContentReport } from './content-report.js';
import type { ServiceMetrics } from './metrics.js';
import { nodeCodec } from './node-codec.js';
import { MAX_REPORTED_PROBLEMS } from './problems.js';
import { PublishTimer, type Timers } from './publish-timer.js';

/** What {@link IndexUpdates} works with. */
export interface IndexWork {
  /** Builds the index of a (published) model, reusing `previous`'s unchanged bodies. */
  build: (model: ContentModel, previous?: CatalogIndex) => Promise<CatalogIndex>;
  /** Compresses an index's new bodies (default: `completeCompression` with the Node codec). */
  compress?: (index: CatalogIndex) => Promise<CatalogIndex>;
  logger: Logger;
  metrics: Pick<ServiceMetrics, 'contentReload'>;
  /** Where rejected updates are recorded. */
  report: ContentReport;
  /** The clock: which dated entries are published, reload times. */
  now: () => Date;
  /** Timers of scheduled publishing, on the same clock as {@link IndexWork.now}. */
  timers: Timers;
}

/** How long a failed scheduled publication waits before it is tried again, in milliseconds. */
export const PUBLISH_RETRY_MS = 60_000;

const compressWithNodeCodec = (index: CatalogIndex): Promise<CatalogIndex> => completeCompression(nodeCodec, index);

/** The serial index work; see the module comment. Nothing runs before {@link IndexUpdates.open}. */
export class IndexUpdates {
  #open!: () => void;
  #chain = new Promise<void>((resolve) => (this.#open = resolve));
  /** Set on shutdown or a failed start: queued work is dropped. */
  #dropped = false;
  readonly #holder: IndexHolder;
  readonly #work: IndexWork;
  readonly #compress: (index: CatalogIndex) => Promise<CatalogIndex>;
  readonly #timer: PublishTimer;
  /** The full model the served index was published from. */
  #model: ContentModel;
  #stopped = false;

  /**
   * @param holder holds the served index, published from `model`.
   * @param model the full model (every entry, dated later or not) `holder`'s index was published from.
   * @param next the instant `model`'s published view changes next (`publishedAt(model, now).next`), or `undefined`.
   */
  constructor(holder: IndexHolder, model: ContentModel, next: Date | undefined, work: IndexWork) {
    this.#holder = holder;
    this.#model = model;
    this.#work = work;
    this.#compress = work.compress ?? compressWithNodeCodec;
    this.#timer = new PublishTimer(work.now, () => this.#enqueue(() => this.#publishScheduled()), work.timers);
    this.#timer.arm(next);
  }

  /** The instant the served content changes next by its dates, or `undefined`. */
  get nextScheduledChange(): Date | undefined {
    return this.#timer.at;
  }

  /** Queues an update (runs after the ones before it). */
  push(update: ContentUpdate): void {
    this.#enqueue(() => this.#applyUpdate(update));
  }

  #enqueue(job: () => Promise<void>): void {
    this.#chain = this.#chain.then(() => (this.#dropped ? undefined : job()));
  }

  /**
   * Starts the queued work, then compresses the served index.
   * @returns resolves when both are done; rejects only on a bug (every failure of a build or a compression is logged).
   */
  open(): Promise<void> {
    this.#open();
    this.#chain = this.#chain.then(() => this.#compressServed(this.#holder.current));
    return this.#chain;
  }

  /** Resolves when the work queued so far is done (after {@link open}: it never resolves before). */
  settled(): Promise<void> {
    return this.#chain;
  }

  /**
   * Stops for shutdown: queued updates are dropped, the timer disarmed, and a compression or build in progress
   * finishes unobserved (nothing is served any more), so a SIGTERM never waits for the index to be compressed.
   */
  stop(): void {
    this.#stopped = true;
    this.#dropped = true;
    this.#timer.clear();
  }

  /** Opens and drops what is queued without applying it (a failed start). */
  abandon(): void {
    this.#dropped = true;
    this.#timer.clear();
    this.#open();
  }

  /** Compresses a served index's new bodies and serves the compressed index, unless a newer one was swapped in. */
  async #compressServed(index: CatalogIndex): Promise<void> {
    const t0 = performance.now();
    try {
      const compressed = await this.#compress(index);
      if (this.#stopped) return;
      if (compressed !== index && this.#holder.upgrade(index, compressed)) {
        this.#work.logger.debug({ revision: index.revision, compress_ms: Math.round(performance.now() - t0) }, 'index compressed');
      }
    } catch (error) {
      // Identity bodies stay served: slower for clients, never wrong.
      this.#work.logger.error({ err: error }, 'index compression failed; serving identity bodies');
    }
  }

  /** One update: rejected content is recorded, valid content built and swapped in, then compressed. */
  async #applyUpdate(update: ContentUpdate): Promise<void> {
    const { result, reason, commit, changedFiles } = update;
    const t0 = performance.now();
    const seconds = (): number => (performance.now() - t0) / 1000;
    const { report } = this.#work;
    report.noteUpdate(update);
    if (!result.ok) {
      this.#work.metrics.contentReload('rejected', seconds());
      const problems = result.problems.map(formatProblem);
      const at = this.#work.now();
      this.#holder.recordReloadError(report.reject(update, result.problems, at), at);
      this.#work.logger.warn(
        { problem_count: problems.length, problems: problems.slice(0, MAX_REPORTED_PROBLEMS), commit, reason },
        'content reload rejected; still serving the previous revision',
      );
      return;
    }
    let next: CatalogIndex;
    const at = this.#work.now();
    const view = publishedAt(result.model, at);
    try {
      // Each build waits for the previous index's compression, so unchanged bodies are reused compressed.
      next = await this.#work.build(view.model, this.#holder.current);
    } catch (error) {
      this.#work.metrics.contentReload('failed', seconds());
      this.#holder.recordReloadError(report.reject(update, [], this.#work.now()));
      this.#work.logger.error({ err: error, revision: result.model.revision }, 'index build failed; still serving the previous revision');
      return;
    }
    report.accepted();
    this.#holder.swap(next, at);
    this.#model = result.model;
    this.#timer.arm(view.next);
    this.#work.metrics.contentReload('applied', seconds());
    this.#work.logger.info(
      {
        revision: result.model.revision,
        reason,
        changed_files: changedFiles,
        build_ms: Math.round(performance.now() - t0),
        ...(view.next && { next_scheduled_change: view.next.toISOString() }),
      },
      'content reloaded',
    );
    await this.#compressServed(next);
  }

  /**
   * The timer's work: the served model as published now, swapped in like a reload (unchanged bodies reused by
   * identity) but keeping the reload status; the timer is armed for the change after.
   */
  async #publishScheduled(): Promise<void> {
    const t0 = performance.now();
    const served = this.#holder.current;
    const view = publishedAt(this.#model, this.#work.now());
    if (view.model === served.model) return this.#timer.arm(view.next);
    let next: CatalogIndex;
    try {
      next = await this.#work.build(view.model, served);
    } catch (error) {
      this.#work.logger.error({ err: error, revision: served.revision }, 'scheduled content could not be published; trying again in a minute');
      return this.#timer.arm(new Date(this.#work.now().getTime() + PUBLISH_RETRY_MS));
    }
    this.#holder.publish(next);
    this.#timer.arm(view.next);
    const before = new Set(served.model.changelog.entries.map((e) => e.id));
    this.#work.logger.info(
      {
        revision: served.revision,
        published: view.model.changelog.entries.filter((e) => !before.has(e.id)).map((e) => e.id),
        next_scheduled_change: view.next?.toISOString() ?? null,
        build_ms: Math.round(performance.now() - t0),
      },
      'scheduled content published',
    );
    await this.#compressServed(next);
  }
}
