/**
 * Wires the service together: the first content load and index, the HatTip app with its steps, the Node
 * host, the content and referral watchers. The only module that knows every part; `main.ts` adds process
 * concerns (environment, signals, workers) and tests call {@link startServer} directly.
 */
import type { Logger } from 'pino';
import { ContentLoader, formatProblem, watchContent, type ContentModel, type ContentWatch } from '../content/index.js';
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
  /** Watch content and referral files and reload on change (default true). */
  watch?: boolean;
  /** Content watcher quiet period in milliseconds (default: the watcher's own). */
  contentDebounceMs?: number;
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
 * Loads content, builds the index and starts serving.
 * @throws StartupError when the content is invalid (every problem listed) or the referral file is unreadable
 *   or malformed; Error when the address cannot be bound.
 */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const started = performance.now();

  const loader = new ContentLoader(config.contentDir);
  const first = await loader.load();
  if (!first.ok) {
    throw new StartupError(`content in ${config.contentDir} is invalid (${first.problems.length} problem(s)):`, first.problems.map(formatProblem));
  }

  const fixed = staticEntries(config);
  // New bodies are served as soon as they are serialised; their gzip and br forms follow (compressServed).
  const build = (model: ContentModel, previous?: CatalogIndex) =>
    buildIndex(model, { publicBaseUrl: config.publicBaseUrl, renderers: renderers(), staticEntries: fixed, previous, deferCompression: true });
  const holder = new IndexHolder(await build(first.model));
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

  const referrals = new ReferralStore(config.referralsFile);
  try {
    await referrals.load();
  } catch (error) {
    throw new StartupError('referral codes cannot be loaded:', [(error as Error).message]);
  }
  const referralAnswers = await buildReferralAnswers();

  // RATE_LIMIT_STORE=redis://…: shared counters; the store starts even while Redis is down (fail open).
  const rateLimitStore =
    options.rateLimitStore ??
    (config.rateLimitStore.kind === 'redis'
      ? // Loaded only when configured: the Redis client alone costs about 150 ms of start-up.
        await (await import('./redis-store.js')).RedisStore.open({ url: config.rateLimitStore.url, commandTimeoutMs: config.rateLimitStoreTimeoutMs, logger })
      : new MemoryStore());
  const health = new HealthReport({ version: serviceVersion(), ...holder.status(), referrals_reload_error: '' });
  holder.subscribe((status) => health.set({ ...status }));
  health.addProvider(() => {
    const h = rateLimitStore.health();
    return { rate_limit_store: h.store, rate_limit_store_status: h.status, ...(h.since !== undefined && { rate_limit_store_unavailable_since: h.since }) };
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
    rateLimit: rateLimitStep({ store: rateLimitStore, limits: config.rateLimits, refuse: refuseWithPage, decorate: false }),
  });

  let host: Host;
  try {
    host = await startHost(app, {
      host: config.host,
      port: config.port,
      logger,
      ...(config.releasesDir !== undefined && { before: createReleasesHandler(config.releasesDir) }),
    });
  } catch (error) {
    await rateLimitStore.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      const why = code === 'EADDRINUSE' ? 'the port is in use' : code === 'EACCES' ? 'permission denied' : 'the address is not on this machine';
      throw new StartupError(`cannot listen on ${config.host}:${config.port}:`, [`${code}: ${why}; set PORT and HOST to a free port and an address of this machine`]);
    }
    throw error;
  }

  // Index work (reload builds, compression) runs one step at a time on this chain; close() waits for it.
  let chain: Promise<void> = compressServed(holder.current);
  let contentWatch: ContentWatch | undefined;
  try {
    if (options.watch ?? true) {
      // Builds run one after another, in the order reloads finished, so the newest content always wins; each
      // waits for the previous index's compression, so unchanged bodies are reused compressed.
      contentWatch = await watchContent(config.contentDir, {
        loader,
        ...(options.contentDebounceMs !== undefined && { debounceMs: options.contentDebounceMs }),
        onReload: (result, changed) => {
          chain = chain.then(async () => {
            const t0 = performance.now();
            if (!result.ok) {
              const problems = result.problems.map(formatProblem);
              holder.recordReloadError(problems.join('\n'));
              logger.warn({ problems, changed }, 'content reload rejected; still serving the previous revision');
              return;
            }
            let next: CatalogIndex;
            try {
              next = await build(result.model, holder.current);
            } catch (error) {
              holder.recordReloadError((error as Error).message);
              logger.error({ err: error }, 'index build failed; still serving the previous revision');
              return;
            }
            holder.swap(next);
            logger.info({ revision: result.model.revision, changed: changed.length, build_ms: Math.round(performance.now() - t0) }, 'content reloaded');
            await compressServed(next);
          });
        },
        onError: (error) => logger.error({ err: error }, 'content watcher failed'),
      });
      await referrals.watch({
        onReload: (error, count) => {
          health.set({ referrals_reload_error: error ?? '' });
          if (error) logger.warn({ error }, 'referral digests reload rejected; keeping the previous set');
          else logger.info({ count }, 'referral digests reloaded');
        },
      });
    }
  } catch (error) {
    // A watcher that cannot start leaves nothing running behind.
    await contentWatch?.close();
    await referrals.close();
    await host.close(0);
    await rateLimitStore.close();
    throw error;
  }

  // Serving started with identity bodies; callers (tests, the process entry) get the compressed index.
  await chain;
  logger.info(
    {
      url: host.url,
      revision: holder.current.revision,
      representations: holder.current.representations.size,
      referral_codes: referrals.size,
      startup_ms: Math.round(performance.now() - started),
    },
    'serving',
  );

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await contentWatch?.close();
      await referrals.close();
      await chain;
      await host.close(config.shutdownTimeoutSeconds * 1000);
      await rateLimitStore.close();
    })());

  return { url: host.url, holder, health, logger, close };
}
