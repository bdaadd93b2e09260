/**
 * The HatTip application: small steps composed in the order the architecture names. Runtime-neutral (Fetch
 * API only): the Node host, config, pino and file access live in `src/server/`, which injects them here.
 *
 * request id → observation (access log, metrics) → error boundary → client address → client kind → rate limit
 * → CORS preflight → router (`/health`, `/v1`, index representations) → extra handlers (e.g. `/releases/`) → 404
 */
import { compose, type RequestHandler } from '@hattip/compose';
import type { HattipHandler } from '@hattip/core';
import type { CatalogIndex } from '../index/types.js';
import { accessLog, type AppLogger } from './access-log.js';
import { corsPreflightStep } from './cors.js';
import { directApp, type DirectApp } from './direct.js';
import { errorBoundaryStep } from './error-boundary.js';
import type { HealthReport } from './health.js';
import type { ErrorAnswers } from './html-errors.js';
import type { ReferralAnswers, ReferralLookup } from './referrals.js';
import { observeInBatches } from './observation-batch.js';
import type { BatchScheduler } from './turn-batch.js';
import { observeStep, type RequestObserver } from './observe.js';
import { requestIdStep } from './request-id.js';
import { notFoundStep, routerStep, type RouterOptions } from './router.js';

/** Everything the app depends on. Steps left out get the documented default. */
export interface AppOptions {
  /** The index to serve (e.g. `() => holder.current`); read once per request. */
  getIndex: () => CatalogIndex;
  /** The `/health` body. */
  health: HealthReport;
  /**
   * Referral code lookups, and the two precomputed answers; `undefined`: no referral source, so every check answers
   * the referral route's `503` (never a verdict on a code nobody checked).
   */
  referrals: ReferralLookup | undefined;
  referralAnswers: ReferralAnswers;
  /** Access and error logs (pino on Node). */
  logger: AppLogger;
  /**
   * The logger of the access-log lines (on Node a child of `logger` whose lines a compiled serializer builds,
   * src/server/compiled-log-lines.ts). Default: `logger`.
   */
  accessLogger?: AppLogger;
  /** Observers of every answered request besides the access log (e.g. the metrics). */
  observers?: readonly RequestObserver[];
  /**
   * Hands the records of answered requests to the observers in batches this scheduler runs (`composeApp` passes
   * `setImmediate`: one batch per turn of the event loop, observation-batch.ts). Default: each record at once.
   */
  observeInBatches?: BatchScheduler;
  /** The 404 and 500 answers (JSON, or HTML pages for people: `errorAnswers(pages)`). */
  errors: ErrorAnswers;
  /** Where `/openapi.json`, `/docs` and its assets are answered from; without it they answer 404. */
  statics?: RouterOptions['statics'];
  /**
   * Sets `ctx.locals.clientAddress`. Default: the socket peer address the host passes as `ctx.ip`
   * (no forwarding header is trusted).
   */
  clientAddress?: RequestHandler;
  /** Sets `ctx.locals.clientKind`. Default: every client is `anonymous`. */
  clientKind?: RequestHandler;
  /**
   * Applies the budgets: sets `ctx.locals.rateLimit` (reported in the RateLimit headers of the response) or
   * returns a 429 built with `respond`. Default: none (no limits, no RateLimit headers).
   * Must never refuse `/health`.
   */
  rateLimit?: RequestHandler;
  /** Handlers tried after the router for paths it does not know (e.g. `/releases/…`), before the 404. */
  extraHandlers?: readonly RequestHandler[];
}

/** The default client-address step: the socket peer. */
const socketPeerAddress: RequestHandler = (ctx) => {
  ctx.locals.clientAddress = ctx.ip;
};

/** The default client-kind step until a classifier is injected. */
const everyoneAnonymous: RequestHandler = (ctx) => {
  ctx.locals.clientKind = 'anonymous';
};

/** The application handler, and the same steps for a host's direct path. */
export type AppHandler = HattipHandler & { direct: DirectApp };

/** Composes the application handler. */
export function createApp(options: AppOptions): AppHandler {
  const requestId = requestIdStep();
  const every = [accessLog(options.accessLogger ?? options.logger), ...(options.observers ?? [])];
  const observers = options.observeInBatches
    ? [observeInBatches(every, options.observeInBatches, (error) => options.logger.error({ err: error }, 'a request observer failed'))]
    : every;
  // Behind the error boundary, in order: both paths run exactly these.
  const steps = [
    options.clientAddress ?? socketPeerAddress,
    options.clientKind ?? everyoneAnonymous,
    ...(options.rateLimit ? [options.rateLimit] : []),
    corsPreflightStep(),
    routerStep(options),
    ...(options.extraHandlers ?? []),
    notFoundStep(options.errors),
  ];
  const handler = compose(requestId, observeStep(observers), errorBoundaryStep(options.logger, options.errors), ...steps);
  return Object.assign(handler, { direct: directApp({ requestId, observers, steps, logger: options.logger, errors: options.errors }) });
}
