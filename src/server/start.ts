/**
 * Wires the service together: the first content load and index, the HatTip app with its steps, the Node
 * host, the content and referral watchers. The only module that knows every part; `main.ts` adds process
 * concerns (environment, signals, workers) and tests call {@link startServer} directly.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { formatProblem, publishedAt, type ContentModel } from '../content/index.js';
import { HealthReport } from '../http/health.js';
import { MemoryStore, type RateLimitStore } from '../http/ratelimit/index.js';
import type { SignatureVerifier } from '../http/client-kind.js';
import type { NonceStore } from '../signatures/nonce-store.js';
import { IndexHolder } from '../index/holder.js';
import { buildReferralAnswers } from '../referrals/answers.js';
import { publicReloadError, ReferralStore } from '../referrals/store.js';
import { SourceError, type ContentSource, type ContentSourceListener, type ContentUpdate } from '../source/types.js';
import { startAdminHost } from './admin.js';
import { composeApp, indexBuilder, publicHostOptions } from './app.js';
import { configWarnings, type Config } from './config.js';
import { ContentReport } from './content-report.js';
import { IndexUpdates } from './index-updates.js';
import { createContentSource, describeContentSource } from './content-source.js';
import { gitWebhookRoute } from './git-webhook.js';
import { startHost, type Host } from './host.js';
import { createLogger, type LogOutput } from './logger.js';
import { ServiceMetrics } from './metrics.js';
import { livenessRoute, metricsRoute, readinessRoute, type Readiness } from './probes.js';
import { nodeListener } from './node-adapter.js';
import { nodeCodec } from './node-codec.js';
import { REAL_TIMERS, type Timers } from './publish-timer.js';
import { serviceVersion } from './version.js';

/** Thrown when the service cannot start: bad content, unreadable referral file, port in use… */
export class StartupError extends Error {
  /** One line per problem (content problems as `path:line:column: message`). */
  readonly problems: readonly string[];
  constructor(summary: string, problems: string[]) {
    super(`${summary}\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'StartupError';
    this.problems = problems;
  }
}

/** Parts a caller may supply instead of the defaults built from the configuration. */
export interface StartOptions {
  /** Logger; default pino at `config.logLevel` on stdout. */
  logger?: Logger;
  /** The logger's bounded output, when the caller made it (`createServiceLogger`): its drops become a metric. */
  logOutput?: LogOutput;
  /**
   * Rate-limit counters; default the configured store (`RATE_LIMIT_STORE`). Closed by `close()`. When given, used
   * signature nonces are kept in this process (only the configured Redis store shares them).
   */
  rateLimitStore?: RateLimitStore;
  /**
   * RFC 9421 verifier for the client-kind step; default the Web Bot Auth verifier built from the configuration
   * (`KEY_DIRECTORY_ALLOW_INSECURE`, `SIGNATURE_CLOCK_SKEW`).
   */
  verifySignature?: SignatureVerifier;
  /** Follow the content source and the referral file after the first load (default true). */
  watch?: boolean;
  /** Content watcher quiet period in milliseconds (default: the watcher's own). */
  contentDebounceMs?: number;
  /** The content source; default the one the configuration names (a watched folder or a Git branch). */
  contentSource?: ContentSource;
  /**
   * Clock (default the system's): which changelog entries are published (those dated up to its UTC date) and
   * build times. A test passes a fake clock's, with its {@link StartOptions.timers}.
   */
  now?: () => Date;
  /** Timers of scheduled publishing (default the global ones): the next publication is armed on them. */
  timers?: Timers;
  /**
   * Answers a request itself before the app sees it (`true`), or lets it through (`false`). The live preview's inner
   * server refuses foreign `Host` names and other origins with it. Default none: production serves every request.
   */
  intercept?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

/** A running service. */
export interface RunningServer {
  /** Base URL it listens on, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The served index and reload status. */
  holder: IndexHolder;
  /** The `/health` report. */
  health: HealthReport;
  /** The logger in use. */
  logger: Logger;
  /** Where the content comes from. */
  contentSource: ContentSource;
  /**
   * Resolves once the first index has its compressed forms (until then identity bodies are served). Pages,
   * `/openapi.json` and `/docs` get theirs after their first request.
   */
  compressed: Promise<void>;
  /** Base URL of the admin listener (`http://127.0.0.1:<port>`), or `undefined` when `ADMIN_PORT` is not set. */
  adminUrl: string | undefined;
  /**
   * Reads everything again now (SIGHUP): the content (folder mode: a full load; Git mode: a fetch) and the
   * referral file. Returns at once; the results are logged and shown on `/health`.
   */
  reload(reason: string): void;
  /** Drains in-flight requests (up to `config.shutdownTimeoutSeconds`), stops the watchers, closes stores. */
  close(): Promise<void>;
}

/** The first valid content and the source that delivers the next ones. */
interface ArmedContent {
  source: ContentSource;
  first: ContentModel;
  /** The update `first` came from. */
  firstUpdate: ContentUpdate;
}

/**
 * Step 1: arms the content source (its watcher or follower) and reads the first tree. Updates that arrive
 * meanwhile go to `onUpdate` in order.
 * @throws StartupError when the content cannot be read or is invalid (every problem listed).
 */
async function armContent(
  config: Config,
  options: StartOptions,
  logger: Logger,
  listener: Pick<ContentSourceListener, 'onUpdate' | 'onSyncFailure'>,
): Promise<ArmedContent> {
  const source =
    options.contentSource ??
    (await createContentSource(config.contentSource, {
      logger,
      follow: options.watch ?? true,
      ...(options.contentDebounceMs !== undefined && { debounceMs: options.contentDebounceMs }),
    }));
  let first: ContentUpdate;
  try {
    // The source logs its own transitions; /health reads status() when asked.
    first = await source.start({ ...listener, onStatus: () => undefined });
  } catch (error) {
    await source.close();
    if (error instanceof SourceError) throw new StartupError('content cannot be read:', [error.message]);
    throw error;
  }
  if (!first.result.ok) {
    await source.close();
    const problems = first.result.problems;
    const where = describeContentSource(config.contentSource);
    const at = first.commit === undefined ? where : `commit ${first.commit} of ${where}`;
    const history = config.contentSource.kind === 'git' ? `, and no commit within the ${config.contentSource.historyDepth} before it is` : '';
    throw new StartupError(`content in ${at} is invalid${history} (${problems.length} problem(s)):`, problems.map(formatProblem));
  }
  return { source, first: first.result.model, firstUpdate: first };
}

/**
 * Step 3: the referral digests, watched (armed before the first read, like the content); `undefined` when
 * `REFERRALS_FILE` is unset: no referral source, so every check answers `503` (never a verdict on an unchecked code).
 */
async function startReferrals(
  config: Config,
  follow: boolean,
  onReload: (error: Error | undefined, count: number) => void,
  logger: Logger,
): Promise<ReferralStore | undefined> {
  if (config.referralsFile === undefined) {
    // A warning only where clients reach the service (configWarnings): local development runs without codes.
    logger.info({ referral_source: 'none' }, 'REFERRALS_FILE is not set: referral codes cannot be checked, every check answers 503');
    return undefined;
  }
  const referrals = new ReferralStore(config.referralsFile);
  if (follow) await referrals.watch({ onReload });
  try {
    await referrals.load();
  } catch (error) {
    await referrals.close();
    throw new StartupError('referral codes cannot be loaded:', [(error as Error).message]);
  }
  return referrals;
}

/** The shared stores: the rate-limit counters and, with Redis, the used signature nonces. */
interface SharedStores {
  store: RateLimitStore;
  /** Set with the Redis store (same connection); otherwise the verifier keeps nonces in this process. */
  nonceStore?: NonceStore;
}

/**
 * Step 4: the rate-limit counters. `RATE_LIMIT_STORE=redis://…` shares them, and the used signature nonces on the
 * same connection; it starts even while Redis is down.
 */
async function openRateLimitStore(config: Config, options: StartOptions, logger: Logger, metrics: ServiceMetrics): Promise<SharedStores> {
  if (options.rateLimitStore) return { store: options.rateLimitStore };
  if (config.rateLimitStore.kind !== 'redis') return { store: new MemoryStore() };
  // Loaded only when configured: the Redis client alone is a visible part of start-up.
  const [{ RedisStore }, { RedisNonceStore }] = await Promise.all([import('./redis-store.js'), import('./redis-nonce-store.js')]);
  const store = await RedisStore.open({
    url: config.rateLimitStore.url,
    commandTimeoutMs: config.rateLimitStoreTimeoutMs,
    logger,
    onFallback: metrics.storeFallback,
  });
  return { store, nonceStore: new RedisNonceStore({ redis: store, onFallback: metrics.nonceStoreFallback }) };
}

/** Step 5: `/health`, fed by the index holder, the content report and the rate-limit store. */
function createHealth(holder: IndexHolder, report: ContentReport, store: RateLimitStore): HealthReport {
  const health = new HealthReport({ version: serviceVersion(), ...holder.status(), referrals_reload_error: '' });
  holder.subscribe((status) => health.set({ ...status }));
  health.addProvider(() => report.publicFields());
  health.addProvider(() => {
    const h = store.health();
    return {
      rate_limit_store: h.store,
      rate_limit_store_status: h.status,
      ...(h.since !== undefined && { rate_limit_store_unavailable_since: h.since }),
    };
  });
  return health;
}

/** What the admin listener answers for besides the webhook. */
interface AdminParts {
  source: ContentSource;
  report: ContentReport;
  metrics: ServiceMetrics;
  readiness: () => Readiness;
  warnings: readonly string[];
}

/** Step 7: the admin listener (the push webhook, probes, metrics), when `ADMIN_PORT` is set. */
async function startAdmin(config: Config, parts: AdminParts, logger: Logger): Promise<Host | undefined> {
  if (!config.admin) return undefined;
  const { host, port } = config.admin;
  const { source } = parts;
  const secret = config.contentSource.kind === 'git' ? config.contentSource.webhookSecret : undefined;
  const routes = [
    gitWebhookRoute({ secret, logger, onDelivery: () => source.refresh('webhook'), onResult: parts.metrics.gitWebhookDelivery }),
    livenessRoute(),
    readinessRoute(parts.readiness, parts.warnings),
    parts.report.statusRoute(),
    metricsRoute(parts.metrics),
  ];
  return listen(`${host}:${port}`, 'ADMIN_PORT and ADMIN_HOST', () => startAdminHost({ host, port, logger, routes }));
}

/**
 * Arms the content source and loads the first tree, builds the index, then starts serving: nothing listens
 * before every watcher is armed, so no change made once `/health` answers is lost. The steps: content, index,
 * referrals, rate-limit store, health, app and public listener, admin listener; then reloads open.
 * @throws StartupError when the content cannot be read or is invalid (every problem listed), the referral file is
 *   unreadable or malformed, or an address cannot be bound.
 */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel, config.logFormat);
  const started = performance.now();
  const metrics = new ServiceMetrics();
  const logOutput = options.logOutput;
  if (logOutput) metrics.logDrops(() => logOutput.droppedLines);
  const warnings = configWarnings(config);
  for (const warning of warnings) logger.warn({ warning }, 'configuration warning');
  const follow = options.watch ?? true;

  // Updates that arrive before the first index exists wait here; then they go to the serial index work.
  const early: ContentUpdate[] = [];
  const deliver = { to: (update: ContentUpdate): void => void early.push(update) };
  const { source, first, firstUpdate } = await armContent(config, options, logger, {
    onUpdate: (update) => deliver.to(update),
    onSyncFailure: metrics.syncFailure,
  });

  const now = options.now ?? ((): Date => new Date());
  const build = indexBuilder(config, now);
  const published = publishedAt(first, now());
  let holder: IndexHolder;
  try {
    holder = new IndexHolder(await build(published.model));
  } catch (error) {
    await source.close();
    throw error;
  }
  const report = new ContentReport(source, holder);
  report.noteUpdate(firstUpdate);
  metrics.contentSync(() => report.reading());
  const updates = new IndexUpdates(holder, first, published.next, { build, logger, metrics, report, now, timers: options.timers ?? REAL_TIMERS });
  metrics.servedRevision(holder.current.revision);
  holder.subscribe((status) => metrics.servedRevision(status.revision));
  for (const update of early) updates.push(update);
  deliver.to = (update) => updates.push(update);

  let health: HealthReport | undefined;
  const onReferralsReload = (error: Error | undefined, count: number): void => {
    // The public /health gets a category; the file's path and line numbers go to the log only.
    health?.set({ referrals_reload_error: error ? publicReloadError(error) : '' });
    if (error) logger.warn({ error: error.message }, 'referral digests reload rejected; keeping the previous set');
    else logger.info({ count }, 'referral digests reloaded');
  };
  let referrals: ReferralStore | undefined;
  /** Where referral codes come from, named on `/health` and in the 'serving' line. */
  const referralSource = config.referralsFile === undefined ? 'none' : 'file';
  let store: RateLimitStore | undefined;
  let nonceStore: NonceStore | undefined;
  let host: Host | undefined;
  let admin: Host | undefined;
  /** From the moment `close()` is called (SIGTERM): `/readyz` says 503 while in-flight requests drain. */
  let draining = false;
  try {
    referrals = await startReferrals(config, follow, onReferralsReload, logger);
    ({ store, nonceStore } = await openRateLimitStore(config, options, logger, metrics));
    health = createHealth(holder, report, store);
    health.set({ referral_source: referralSource });
    health.addProvider(() => ({ next_scheduled_change: updates.nextScheduledChange?.toISOString() ?? '' }));
    const app = composeApp(config, {
      getIndex: () => holder.current,
      health,
      referrals,
      referralAnswers: await buildReferralAnswers(nodeCodec),
      logger,
      store,
      observers: [metrics.observeRequest],
      signatureEvents: { onKeyDirectoryFetch: metrics.keyDirectoryFetch, onSignatureResult: metrics.signatureResult },
      ...(options.verifySignature && { verifySignature: options.verifySignature }),
      ...(nonceStore && { nonceStore }),
    });
    const listener = nodeListener(app, logger);
    const { intercept } = options;
    const serve =
      intercept === undefined ? listener : (req: IncomingMessage, res: ServerResponse) => void (intercept(req, res) || listener(req, res));
    host = await listen(`${config.host}:${config.port}`, 'PORT and HOST', () => startHost(serve, publicHostOptions(config)));
    // Ready means "this instance serves a valid index and is not draining": a fault of the content source is
    // shown (/health, /statusz, metrics) but never takes the instance out, or every replica would leave at once.
    const readiness = (): Readiness => (draining ? { ready: false, reason: 'shutting down' } : { ready: true });
    admin = await startAdmin(config, { source, report, metrics, readiness, warnings }, logger);
  } catch (error) {
    // Nothing is left running behind a failed start.
    updates.abandon();
    await admin?.close(0);
    await host?.close(0);
    await store?.close();
    await referrals?.close();
    await source.close();
    throw error;
  }

  // Serving started with identity bodies; the compressed forms follow (`compressed`), start-up does not wait.
  // `/openapi.json` and `/docs` are built by the first request for one of them and compressed after it, and the
  // pages by their own first requests: no memory for what nobody asks for.
  const compressed = updates.open().catch((error: unknown) => logger.error({ err: error }, 'content updates or compression failed'));
  logger.info(
    {
      url: host.url,
      ...(admin && { admin_url: admin.url }),
      content_source: describeContentSource(config.contentSource),
      revision: holder.current.revision,
      representations: holder.current.representations.size,
      referral_source: referralSource,
      ...(referrals && { referral_codes: referrals.size }),
      ...(updates.nextScheduledChange && { next_scheduled_change: updates.nextScheduledChange.toISOString() }),
      startup_ms: Math.round(performance.now() - started),
    },
    'serving',
  );

  const servingReferrals = referrals;
  const reload = (reason: string): void => {
    logger.info({ reason }, 'reading content and referral codes again');
    source.refresh(reason);
    servingReferrals?.load().then(
      (count) => onReferralsReload(undefined, count),
      (error: unknown) => onReferralsReload(error instanceof Error ? error : new Error(String(error)), servingReferrals.size),
    );
  };

  const servingHost = host;
  const servingStore = store;
  const servingUpdates = updates;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      draining = true;
      await source.close();
      await servingReferrals?.close();
      servingUpdates.stop();
      await servingHost.close(config.shutdownTimeoutSeconds * 1000);
      // Last: the probes answer 503 for as long as the public port drains.
      await admin?.close(0);
      await servingStore.close();
    })());

  return { url: servingHost.url, adminUrl: admin?.url, holder, health, logger, contentSource: source, compressed, reload, close };
}

/** Starts a listener, turning the usual bind failures into a {@link StartupError} that names the settings to change. */
async function listen<T>(address: string, settings: string, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      const why = code === 'EADDRINUSE' ? 'the port is in use' : code === 'EACCES' ? 'permission denied' : 'the address is not on this machine';
      throw new StartupError(`cannot listen on ${address}:`, [`${code}: ${why}; set ${settings} to a free port and an address of this machine`]);
    }
    throw error;
  }
}
