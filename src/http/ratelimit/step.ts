/**
 * The rate-limit middleware step: counts the request in its client's budgets and refuses it with 429 when a
 * budget has run out. Needs `ctx.locals.clientAddress` and `ctx.locals.clientKind`; sets `ctx.locals.rateLimit`,
 * from which `respond` writes the RateLimit fields of every response, whatever its status.
 */
import type { Answer, Step, StepContext } from '../step.js';
import { addressBucket } from '../../net/address-bucket.js';
import { DETAIL } from '../../contract/errors.js';
import { tooManyRequestsBody, type TooManyRequestsBody } from '../../contract/rate-limits.js';
import { budgetOf, PREFLIGHT_METHOD, type Budget } from '../../contract/routes.js';
import { budgetLimit, decide, type BudgetLimits, type Decision } from './budgets.js';
import { tooManyRequests } from './headers.js';
import type { RateLimitStore } from './store.js';

/** Options of {@link rateLimitStep}. */
export interface RateLimitStepOptions {
  /** The counter store (memory or Redis). */
  store: RateLimitStore;
  /** The budgets (`RATE_LIMIT_*`). */
  limits: BudgetLimits;
  /** How a path is counted; default the route table's {@link budgetOf}. */
  classify?: (path: string) => Budget;
  /**
   * The 429 answer, given why ({@link TooManyRequestsBody}); default that body as JSON (the app passes one that
   * gives browsers an HTML page on page paths). `Retry-After` and the RateLimit fields are added as on every
   * response.
   */
  refuse?: (ctx: StepContext, why: TooManyRequestsBody) => Answer | Promise<Answer>;
}

/** Builds the rate-limit step. */
export function rateLimitStep(options: RateLimitStepOptions): Step {
  const { store, limits } = options;
  const classify = options.classify ?? budgetOf;
  const refuse = options.refuse ?? tooManyRequests;
  const apply = (ctx: StepContext, decision: Decision): Answer | Promise<Answer> | undefined => {
    ctx.locals.rateLimit = decision.state;
    if (decision.allowed) return undefined;
    const { state, spent } = decision;
    const kind = ctx.locals.clientKind ?? 'anonymous';
    return refuse(
      ctx,
      tooManyRequestsBody({
        detail: DETAIL.tooManyRequests,
        kind,
        budget: spent,
        limit: state.limit,
        windowSeconds: state.windowSeconds,
        resetSeconds: state.resetSeconds,
        // The same budget for another kind, from the configuration.
        limitOf: (other) => budgetLimit(limits, spent, other),
      }),
    );
  };
  return (ctx) => {
    const decision = decide(store, limits, {
      bucket: addressBucket(ctx.locals.clientAddress ?? ctx.ip),
      kind: ctx.locals.clientKind ?? 'anonymous',
      // A CORS preflight is no read (a browser sends it on its own): it reports the budget without spending it.
      pathClass: ctx.method === PREFLIGHT_METHOD ? 'exempt' : classify(ctx.url.pathname),
    });
    // The memory store decides at once: no promise, no microtask.
    return decision instanceof Promise ? decision.then((d) => apply(ctx, d)) : apply(ctx, decision);
  };
}
