/**
 * The service's Prometheus metrics (prom-client), served as `GET /metrics` on the admin listener. Names follow the
 * Prometheus conventions: the `syllabus_` prefix, base units (seconds), `_total` for counters, `_info` for a
 * constant-1 gauge carrying a label. Every label has a bounded set of values: a request's labels come from the route
 * table (`request-labels.ts`, which also counts the label sets that can exist), never from the raw path.
 * One registry per process: with `WORKERS` > 1 each scrape answers for the worker that took the connection.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RequestObserver } from '../http/observe.js';
import { REFUSAL_REASONS, type RefusalReason } from '../signatures/refusals.js';
import { SYNC_FAILURE_REASONS, type SyncFailureReason } from '../source/types.js';
import { WEBHOOK_RESULTS, type WebhookResult } from './git-webhook.js';
import { requestLabels, type RequestLabels } from './request-labels.js';

/** How a content update ended: served, refused as invalid content, or failed while building the index. */
export type ReloadResult = 'applied' | 'rejected' | 'failed';

/** The content source's state, read at each scrape. */
export interface ContentSyncReading {
  /** Whether the last check of the source succeeded. */
  up: boolean;
  /** Whether the revision served is the newest the source knows of (and the source is up). */
  inSync: boolean;
  /** The last successful check, or `undefined` before the first. */
  syncedAt: Date | undefined;
  /** The commit time of the revision served, when it is a Git commit whose time is known. */
  revisionTime: Date | undefined;
}

/** The metrics of one process and the hooks that feed them. */
export class ServiceMetrics {
  readonly registry = new Registry();
  /**
   * Each label set seen (the key joins the four labels, see `requestLabels`): its labels, the requests counted
   * since the last scrape and its histogram child. A request costs one map lookup, an increment and an observation;
   * prom-client's own `inc` (hashing the labels) runs once per label set and scrape.
   */
  readonly #series = new Map<string, { labels: RequestLabels; uncounted: number; duration: { observe(value: number): void } }>();
  readonly #requests = new Counter({
    name: 'syllabus_http_requests_total',
    help: 'Requests answered on the public port, by route template, method, status and client kind.',
    labelNames: ['route', 'method', 'status', 'client_kind'] as const,
    registers: [this.registry],
    collect: () => {
      for (const series of this.#series.values()) {
        if (series.uncounted === 0) continue;
        this.#requests.inc(series.labels, series.uncounted);
        series.uncounted = 0;
      }
    },
  });
  readonly #duration = new Histogram({
    name: 'syllabus_http_request_duration_seconds',
    help: 'Time from receiving a request to its response being ready, in seconds.',
    // Not by client kind (the counter has it): a client picks its kind, and each label set here is 15 lines.
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly #refusals = new Counter({
    name: 'syllabus_ratelimit_refusals_total',
    help: 'Requests refused with 429 because a fair-use budget was spent, by client kind.',
    labelNames: ['client_kind'] as const,
    registers: [this.registry],
  });
  readonly #reloads = new Counter({
    name: 'syllabus_content_reloads_total',
    help: 'Content updates, by result: applied (served), rejected (invalid content), failed (index build error).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly #reloadDuration = new Histogram({
    name: 'syllabus_content_reload_duration_seconds',
    help: 'Time to validate a content update and build its index, in seconds, by result.',
    labelNames: ['result'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly #revision = new Gauge({
    name: 'syllabus_content_revision_info',
    help: 'The content revision served (value 1; the revision is the label).',
    labelNames: ['revision'] as const,
    registers: [this.registry],
  });
  readonly #syncFailures = new Counter({
    name: 'syllabus_content_sync_failures_total',
    help: 'Failed checks of the content source (fetches of the Git branch, watching the folder), by reason.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly #directoryFetches = new Counter({
    name: 'syllabus_key_directory_fetches_total',
    help: 'Fetches of Web Bot Auth key directories, by result: ok, error, refused (not started).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly #signaturesVerified = new Counter({
    name: 'syllabus_signatures_verified_total',
    help: 'Requests whose Web Bot Auth signature verified (the client counted as a verified agent).',
    registers: [this.registry],
  });
  readonly #signatureRefusals = new Counter({
    name: 'syllabus_signature_refusals_total',
    help: 'Signed requests whose Web Bot Auth signature was not verified, by reason (the client counted by its User-Agent).',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly #storeFallbacks = new Counter({
    name: 'syllabus_ratelimit_store_fallbacks_total',
    help: 'Budget counts made in this process because the shared Redis store was unavailable.',
    registers: [this.registry],
  });
  readonly #nonceStoreFallbacks = new Counter({
    name: 'syllabus_nonce_store_fallbacks_total',
    help: 'Signature nonces checked and recorded in this process only (a replay to another instance is not detected) because the shared Redis store was unavailable.',
    registers: [this.registry],
  });
  readonly #webhookDeliveries = new Counter({
    name: 'syllabus_git_webhook_deliveries_total',
    help: 'Deliveries to the Git push webhook (POST /hooks/git), by result: accepted, unauthorized, too_large, unreadable, failed.',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  constructor() {
    // Process and event-loop metrics (CPU, memory, file descriptors, event-loop lag, GC), same prefix.
    collectDefaultMetrics({ register: this.registry, prefix: 'syllabus_' });
    // Zero-valued series exist from the start, so a rate() over them works before the first event.
    for (const result of ['applied', 'rejected', 'failed'] as const) this.#reloads.inc({ result }, 0);
    for (const result of ['ok', 'error', 'refused'] as const) this.#directoryFetches.inc({ result }, 0);
    for (const reason of REFUSAL_REASONS) this.#signatureRefusals.inc({ reason }, 0);
    for (const reason of SYNC_FAILURE_REASONS) this.#syncFailures.inc({ reason }, 0);
    for (const result of WEBHOOK_RESULTS) this.#webhookDeliveries.inc({ result }, 0);
  }

  /** Records one failed check of the content source. */
  readonly syncFailure = (reason: SyncFailureReason): void => {
    this.#syncFailures.inc({ reason });
  };

  /**
   * Reports the content source's state (`syllabus_content_source_up`, `syllabus_content_in_sync`,
   * `syllabus_content_last_sync_timestamp_seconds`, `syllabus_content_revision_timestamp_seconds`), read at each scrape.
   */
  contentSync(read: () => ContentSyncReading): void {
    const seconds = (date: Date | undefined): number => (date === undefined ? 0 : date.getTime() / 1000);
    const gauge = (name: string, help: string, value: (r: ContentSyncReading) => number): void =>
      void new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(value(read()));
        },
      });
    gauge('syllabus_content_source_up', 'Whether the last check of the content source succeeded (1) or failed (0).', (r) => Number(r.up));
    gauge(
      'syllabus_content_in_sync',
      'Whether the revision served is the newest the content source knows of (1), or an older one is served (0: the source fails, or the newest is invalid).',
      (r) => Number(r.inSync),
    );
    gauge('syllabus_content_last_sync_timestamp_seconds', 'Unix time of the last successful check of the content source (0 before the first).', (r) =>
      seconds(r.syncedAt),
    );
    gauge(
      'syllabus_content_revision_timestamp_seconds',
      'Unix commit time of the content revision served (0 when it is not a Git commit of known time).',
      (r) => seconds(r.revisionTime),
    );
  }

  /** The observer of every public request (feeds the request counter, the histogram and the refusals). */
  readonly observeRequest: RequestObserver = (r) => {
    const labels = requestLabels(r);
    const key = `${labels.route} ${labels.method} ${labels.status} ${labels.client_kind}`;
    let series = this.#series.get(key);
    if (series === undefined) {
      series = { labels, uncounted: 0, duration: this.#duration.labels(labels.route, labels.method, labels.status) };
      this.#series.set(key, series);
    }
    series.uncounted++;
    series.duration.observe(r.durationMs / 1000);
    if (r.status === 429) this.#refusals.inc({ client_kind: r.clientKind });
  };

  /** Records a content update's result and how long it took, in seconds. */
  contentReload(result: ReloadResult, seconds: number): void {
    this.#reloads.inc({ result });
    this.#reloadDuration.observe({ result }, seconds);
  }

  /** Records the revision now served (the previous one's series is removed). */
  servedRevision(revision: string): void {
    this.#revision.reset();
    this.#revision.set({ revision }, 1);
  }

  /** Records the end of a key-directory fetch. */
  readonly keyDirectoryFetch = (result: 'ok' | 'refused' | 'error'): void => {
    this.#directoryFetches.inc({ result });
  };

  /** Records the outcome of checking one signed request: `verified`, or why it was not. */
  readonly signatureResult = (result: 'verified' | RefusalReason): void => {
    if (result === 'verified') this.#signaturesVerified.inc();
    else this.#signatureRefusals.inc({ reason: result });
  };

  /** Records one count made locally while Redis was unavailable. */
  readonly storeFallback = (): void => {
    this.#storeFallbacks.inc();
  };

  /** Records one signature nonce checked locally while Redis was unavailable. */
  readonly nonceStoreFallback = (): void => {
    this.#nonceStoreFallbacks.inc();
  };

  /** Records how a delivery to the Git push webhook ended. */
  readonly gitWebhookDelivery = (result: WebhookResult): void => {
    this.#webhookDeliveries.inc({ result });
  };

  /** Reports the log lines a bounded output dropped (`syllabus_log_lines_dropped_total`), read at each scrape. */
  logDrops(read: () => number): void {
    let counted = 0;
    new Counter({
      name: 'syllabus_log_lines_dropped_total',
      help: 'Log lines dropped because stdout could not keep up (its buffer was full).',
      registers: [this.registry],
      collect() {
        const now = read();
        if (now > counted) this.inc(now - counted);
        counted = now;
      },
    });
  }

  /** The exposition (Prometheus text format 0.0.4) and its `Content-Type`. */
  async render(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
