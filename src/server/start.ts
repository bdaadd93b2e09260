/**
 * Wires the service together: the first content load and index, the HatTip app with its steps, the Node
 * host, the content and referral watchers. The only module that knows every part; `main.ts` adds process
 * concerns (environment, signals, workers) and tests call {@link startServer} directly.
 */
import type { Logger } from 'pino';
import { formatProblem, type ContentModel } from '../content/index.js';
import { createApp } from '../http/app.js';
import { clientAddressStep } from '../http/client-address.js';
import { clientKindStep, type SignatureVerifier } from '../http/client-kind.js';
import { effectiveTarget } from '../http/forwarded-target.js';
import { HealthReport } from '../http/health.js';
import { MemoryStore, rateLimitStep, type RateLimitStore } from '../http/ratelimit/index.js';
import { refuseWithPage } from '../http/html-errors.js';
import { buildIndex, completeCompression, type IndexEntry, type Renderer } from '../index/build.js';
import { docsRepresentations } from '../index/docs-assets.js';
import { IndexHolder } from '../index/holder.js';
import { openApiRepresentation } from '../index/openapi-document.js';
import type { CatalogIndex } from '../index/types.js';
import { renderPages } from '../pages/index.js';
import { buildReferralAnswers } from '../referrals/answers.js';
import { ReferralStore } from '../referrals/store.js';
import type { Config } from './config.js';
import { startHost, type Host } from './host.js';
import { createReleasesHandler } from './releases.js';
import { createNodeSignatureVerifier } from '../signatures/index.js';
import { createLogger } from './logger.js';
import { serviceVersion } from './version.js';
import { createContentSource, describeContentSource } from './content-source.js';
import { SourceError, type ContentSource, type ContentUpdate } from '../source/types.js';
import { startAdminHost } from './admin.js';
import { gitWebhookRoute } from './git-webhook.js';
import { summarizeProblems } from './problems.js';

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
  /** Rate-limit counters; default an in-process {@link MemoryStore}. Closed by `close()`. */
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

/** The model-derived renderers: the web pages (and Atom feed) from the same model as the API. */
function renderers(): Renderer[] {
  return [(model, ctx) => renderPages(model, { publicBaseUrl: ctx.publicBaseUrl })];
}

/** Content-independent entries, built once per process: `/openapi.json`, `/docs` and its assets. */
function staticEntries(config: Config): IndexEntry[] {
  const publicBaseUrl = config.publicBaseUrlSet ? config.publicBaseUrl : undefined;
  return [openApiRepresentation({ publicBaseUrl, version: serviceVersion() }), ...docsRepresentations({ publicBaseUrl })];
}

/**
 * Arms the content source and loads the first tree, builds the index, then starts serving: nothing listens
 * before every watcher is armed, so no change made once `/health` answers is lost.
 * @throws StartupError when the content cannot be read or is invalid (every problem listed), the referral file is
 *   unreadable or malformed, or an address cannot be bound.
 */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const started = performance.now();
  const follow = options.watch ?? true;

  // Index work (reload builds, compression) runs one step at a time on this chain, which opens once the first
  // index is served; close() waits for it.
  let openChain!: () => void;
  let chain = new Promise<void>((resolve) => (openChain = resolve));
  let applyUpdate: (update: ContentUpdate) => Promise<void> = async () => undefined;
  const source =
    options.contentSource ??
    (await createContentSource(config.contentSource, {
      logger,
      follow,
      ...(options.contentDebounceMs !== undefined && { debounceMs: options.contentDebounceMs }),
    }));
  let first: ContentUpdate;
  try {
    first = await source.start({
      onUpdate: (update) => void (chain = chain.then(() => applyUpdate(update))),
      onStatus: () => undefined, // the source logs its own transitions; /health reads status() when asked
    });
  } catch (error) {
    await source.close();
    if (error instanceof SourceError) throw new StartupError('content cannot be read:', [error.message]);
    throw error;
  }
  const stopSource = async (): Promise<void> => {
    openChain();
    await source.close();
  };
  if (!first.result.ok) {
    await stopSource();
    const problems = first.result.problems;
    const at =
      first.commit === undefined
        ? describeContentSource(config.contentSource)
        : `commit ${first.commit} of ${describeContentSource(config.contentSource)}`;
    throw new StartupError(`content in ${at} is invalid (${problems.length} problem(s)):`, problems.map(formatProblem));
  }

  const fixed = staticEntries(config);
  // New bodies are served as soon as they are serialised; their gzip and br forms follow (compressServed).
  const build = (model: ContentModel, previous?: CatalogIndex) =>
    buildIndex(model, { publicBaseUrl: config.publicBaseUrl, renderers: renderers(), staticEntries: fixed, previous, deferCompression: true });
  const holder = new IndexHolder(await build(first.result.model));
  /** Compresses a served index's new bodies and serves the compressed index, unless a newer one was swapped in. */
  const compressServed = async (index: CatalogIndex): Promise<void> => {
    const t0 = performance.now();
    try {
      const compressed = await completeCompression(index);
      if (compressed !== index && holder.upgrade(index, compressed)) {
        logger.debug({ revision: index.revision, compress_ms: Math.round(performance.now() - t0) }, 'index compressed');
      }
    } catch (error) {
      // Identity bodies stay served: slower for clients, never wrong.
      logger.error({ err: error }, 'index compression failed; serving identity bodies');
    }
  };
  // Builds run one after another, in the order loads finished, so the newest content always wins; each waits for
  // the previous index's compression, so unchanged bodies are reused compressed.
  applyUpdate = async ({ result, reason, commit, changedFiles }) => {
    const t0 = performance.now();
    if (!result.ok) {
      const problems = result.problems.map(formatProblem);
      holder.recordReloadError(summarizeProblems(problems, commit === undefined ? '' : `commit ${commit}: `));
      logger.warn(
        { problem_count: problems.length, problems: problems.slice(0, 100), commit, reason },
        'content reload rejected; still serving the previous revision',
      );
      return;
    }
    let next: CatalogIndex;
    try {
      next = await build(result.model, holder.current);
    } catch (error) {
      holder.recordReloadError('the index could not be built from this content; see the log');
      logger.error({ err: error, revision: result.model.revision }, 'index build failed; still serving the previous revision');
      return;
    }
    holder.swap(next);
    logger.info(
      { revision: result.model.revision, reason, changed_files: changedFiles, build_ms: Math.round(performance.now() - t0) },
      'content reloaded',
    );
    await compressServed(next);
  };

  const referrals = new ReferralStore(config.referralsFile);
  const onReferralsReload = (error: string | undefined, count: number): void => {
    health.set({ referrals_reload_error: error ?? '' });
    if (error) logger.warn({ error }, 'referral digests reload rejected; keeping the previous set');
    else logger.info({ count }, 'referral digests reloaded');
  };
  let rateLimitStore: RateLimitStore | undefined;
  let host: Host | undefined;
  let admin: Host | undefined;
  const health = new HealthReport({ version: serviceVersion(), ...holder.status(), referrals_reload_error: '' });
  try {
    // Armed before the first read, like the content: a change made meanwhile is read again.
    if (follow) await referrals.watch({ onReload: onReferralsReload });
    try {
      await referrals.load();
    } catch (error) {
      throw new StartupError('referral codes cannot be loaded:', [(error as Error).message]);
    }
    const referralAnswers = await buildReferralAnswers();

    // RATE_LIMIT_STORE=redis://…: shared counters; the store starts even while Redis is down (fail open).
    const store =
      options.rateLimitStore ??
      (config.rateLimitStore.kind === 'redis'
        ? // Loaded only when configured: the Redis client alone costs about 150 ms of start-up.
          await (
            await import('./redis-store.js')
          ).RedisStore.open({ url: config.rateLimitStore.url, commandTimeoutMs: config.rateLimitStoreTimeoutMs, logger })
        : new MemoryStore());
    rateLimitStore = store;
    holder.subscribe((status) => health.set({ ...status }));
    health.addProvider(() => ({ ...source.status() }));
    health.addProvider(() => {
      const h = store.health();
      return {
        rate_limit_store: h.store,
        rate_limit_store_status: h.status,
        ...(h.since !== undefined && { rate_limit_store_unavailable_since: h.since }),
      };
    });

    // Web Bot Auth: one verifier per process, with its directory, imported-key and nonce caches.
    const verifySignature =
      options.verifySignature ??
      createNodeSignatureVerifier({
        allowInsecureDirectories: config.keyDirectoryAllowInsecure,
        clockSkewSeconds: config.signatureClockSkewSeconds,
      }).verify;

    const app = createApp({
      getIndex: () => holder.current,
      health,
      referrals,
      referralAnswers,
      logger,
      clientAddress: clientAddressStep({ trustProxy: config.trustProxy, header: config.trustProxyHeader }),
      clientKind: clientKindStep({
        verify: verifySignature,
        target: effectiveTarget(config.trustProxy, config.trustProxyHeader),
        onVerifierError: (error, ctx) => logger.error({ err: error, request_id: ctx.locals.requestId }, 'signature verifier failed'),
      }),
      rateLimit: rateLimitStep({ store, limits: config.rateLimits, refuse: refuseWithPage, decorate: false }),
    });

    host = await listen(`${config.host}:${config.port}`, 'PORT and HOST', () =>
      startHost(app, {
        host: config.host,
        port: config.port,
        logger,
        ...(config.releasesDir !== undefined && { before: createReleasesHandler(config.releasesDir) }),
      }),
    );
    if (config.admin) {
      const { host: adminHost, port: adminPort } = config.admin;
      const secret = config.contentSource.kind === 'git' ? config.contentSource.webhookSecret : undefined;
      admin = await listen(`${adminHost}:${adminPort}`, 'ADMIN_PORT and ADMIN_HOST', () =>
        startAdminHost({
          host: adminHost,
          port: adminPort,
          logger,
          routes: [gitWebhookRoute({ secret, logger, onDelivery: () => source.refresh('webhook') })],
        }),
      );
    }
  } catch (error) {
    // Nothing is left running behind a failed start.
    await admin?.close(0);
    await host?.close(0);
    await rateLimitStore?.close();
    await referrals.close();
    await stopSource();
    throw error;
  }

  // Serving started with identity bodies; callers (tests, the process entry) get the compressed index.
  openChain();
  chain = chain.then(() => compressServed(holder.current));
  await chain;
  logger.info(
    {
      url: host.url,
      ...(admin && { admin_url: admin.url }),
      content_source: describeContentSource(config.contentSource),
      revision: holder.current.revision,
      representations: holder.current.representations.size,
      referral_codes: referrals.size,
      startup_ms: Math.round(performance.now() - started),
    },
    'serving',
  );

  const reload = (reason: string): void => {
    logger.info({ reason }, 'reading content and referral codes again');
    source.refresh(reason);
    referrals.load().then(
      (count) => onReferralsReload(undefined, count),
      (error: unknown) => onReferralsReload(error instanceof Error ? error.message : String(error), referrals.size),
    );
  };

  const servingHost = host;
  const servingStore = rateLimitStore;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await source.close();
      await referrals.close();
      await chain;
      await admin?.close(0);
      await servingHost.close(config.shutdownTimeoutSeconds * 1000);
      await servingStore.close();
    })());

  return { url: servingHost.url, adminUrl: admin?.url, holder, health, logger, contentSource: source, reload, close };
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
