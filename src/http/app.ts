/**
 * The application: the contract's steps, run once per request in the order the architecture names, producing one
 * plain {@link Answer}. Runtime-neutral (no Node, no Fetch `Response`): adapters translate a request into an
 * {@link IncomingRequest} and the answer into their runtime's response (`hattip.ts` for HatTip on any Fetch runtime,
 * `src/server/node-adapter.ts` for `node:http`). The Node host, config, pino and file access live in `src/server/`,
 * which injects them here.
 *
 * request id → client address → client kind → rate limit → CORS preflight → router (`/health`, `/v1`, index
 * representations) → extra handlers (e.g. `/releases/`) → 404; an exception in any step → 500; then the observers
 * (access log, metrics) are told.
 */
import type { CatalogIndex } from '../index/types.js';
import { accessLog, type AppLogger } from './access-log.js';
import { corsPreflightStep } from './cors.js';
import { internalError } from './error-boundary.js';
import type { HealthReport } from './health.js';
import type { ErrorAnswers } from './html-errors.js';
import { isPromise } from './maybe-async.js';
import { enabledObservers, notifyObservers, requestRecord, type RequestObserver } from './observe.js';
import type { ReferralAnswers, ReferralLookup } from './referrals.js';
import { requestIdOf } from './request-id.js';
import { notFoundStep, routerStep, type RouterOptions } from './router.js';
import type { Answer, IncomingRequest, Step, StepContext, StepResult } from './step.js';

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
  /** Access and error logs (pino on Node): one line per request, written through the logger's public API. */
  logger: AppLogger;
  /** Observers of every answered request besides the access log (e.g. the metrics). */
  observers?: readonly RequestObserver[];
  /** The 404 and 500 answers (JSON, or HTML pages for people: `errorAnswers(pages)`). */
  errors: ErrorAnswers;
  /** Where `/openapi.json`, `/docs` and its assets are answered from; without it they answer 404. */
  statics?: RouterOptions['statics'];
  /**
   * Sets `ctx.locals.clientAddress`. Default: the socket peer address the host passes as `ctx.ip`
   * (no forwarding header is trusted).
   */
  clientAddress?: Step;
  /** Sets `ctx.locals.clientKind`. Default: every client is `anonymous`. */
  clientKind?: Step;
  /**
   * Applies the budgets: sets `ctx.locals.rateLimit` (reported in the RateLimit headers of the response) or
   * returns a 429 built with `respond`. Default: none (no limits, no RateLimit headers).
   * Must never refuse `/health`.
   */
  rateLimit?: Step;
  /** Handlers tried after the router for paths it does not know (e.g. `/releases/…`), before the 404. */
  extraHandlers?: readonly Step[];
}

/** The default client-address step: the socket peer. */
const socketPeerAddress: Step = (ctx) => {
  ctx.locals.clientAddress = ctx.ip;
};

/** The default client-kind step until a classifier is injected. */
const everyoneAnonymous: Step = (ctx) => {
  ctx.locals.clientKind = 'anonymous';
};

/** The application: answers one request. Never rejects (a failing step's exception becomes the 500 answer). */
export type App = (request: IncomingRequest) => Answer | Promise<Answer>;

/** Runs `steps` from `i` until one answers; `undefined` when none does. */
function runSteps(ctx: StepContext, steps: readonly Step[], i: number): StepResult | Promise<StepResult> {
  for (; i < steps.length; i++) {
    const result = steps[i]!(ctx);
    if (isPromise<StepResult>(result)) {
      const next = i + 1;
      return result.then((value) => value ?? runSteps(ctx, steps, next));
    }
    if (result !== undefined) return result;
  }
  return undefined;
}

/** Composes the application. */
export function createApp(options: AppOptions): App {
  const { logger, errors } = options;
  const observers = [accessLog(logger), ...(options.observers ?? [])];
  const steps: readonly Step[] = [
    options.clientAddress ?? socketPeerAddress,
    options.clientKind ?? everyoneAnonymous,
    ...(options.rateLimit ? [options.rateLimit] : []),
    corsPreflightStep(),
    routerStep(options),
    ...(options.extraHandlers ?? []),
    notFoundStep(errors),
  ];
  const observerFailed = (error: unknown): void => logger.error({ err: error }, 'a request observer failed');
  /** The answer of a request whose steps gave `result` (or threw `thrown.error`), once the observers are told. */
  const finish = (
    ctx: StepContext,
    observing: ReturnType<typeof enabledObservers>,
    start: number,
    result: StepResult,
    thrown?: { error: unknown },
  ): Answer => {
    let answer: Answer;
    try {
      if (thrown !== undefined) throw thrown.error;
      answer = result ?? errors.notFound(ctx);
    } catch (error) {
      answer = internalError(ctx, logger, errors, error);
    }
    if (observing !== undefined) notifyObservers(observing, requestRecord(ctx, answer.status, start), observerFailed);
    return answer;
  };
  return (incoming) => {
    const ctx: StepContext = {
      method: incoming.method,
      url: incoming.url,
      request: incoming.request,
      ip: incoming.ip,
      locals: { requestId: requestIdOf(incoming.request.headers) },
    };
    const observing = enabledObservers(observers);
    const start = observing === undefined ? 0 : performance.now();
    let result: StepResult | Promise<StepResult>;
    try {
      result = runSteps(ctx, steps, 0);
    } catch (error) {
      return finish(ctx, observing, start, undefined, { error });
    }
    if (!isPromise<StepResult>(result)) return finish(ctx, observing, start, result);
    return result.then(
      (value) => finish(ctx, observing, start, value),
      (error: unknown) => finish(ctx, observing, start, undefined, { error }),
    );
  };
}
