/**
 * The rate-limit middleware step: counts the request in its client's budgets, refuses it with 429 when a budget
 * has run out, and puts the RateLimit fields on every response, whatever its status.
 * Needs `ctx.locals.clientAddress` and `ctx.locals.clientKind`; sets `ctx.locals.rateLimit`.
 */
import type { RequestContext, RequestHandler } from '@hattip/compose';
import { addressBucket } from '../client-address.js';
import type { RateLimitState } from '../locals.js';
import { classifyPath, decide, type BudgetLimits, type PathClass } from './budgets.js';
import { tooManyRequests, withRateLimitHeaders } from './headers.js';
import type { RateLimitStore } from './store.js';

/** Options of {@link rateLimitStep}. */
export interface RateLimitStepOptions {
  /** The counter store (memory or Redis). */
  store: RateLimitStore;
  /** The budgets (`RATE_LIMIT_*`). */
  limits: BudgetLimits;
  /** How a path is counted; default {@link classifyPath}. */
  classify?: (path: string) => PathClass;
  /**
   * The 429 answer's body; default the JSON `{"detail":"Too Many Requests"}` (e.g. an HTML page for browsers on
   * page paths). The step adds `Retry-After` and the RateLimit fields to whatever it returns.
   */
  refuse?: (ctx: RequestContext, state: RateLimitState) => Response | Promise<Response>;
  /**
   * Add the RateLimit fields to the responses of later steps (default `true`). Pass `false` when an earlier
   * step already completes every response from `ctx.locals.rateLimit` (the app's `completeResponse`): allowed
   * requests then pass through untouched. Refusals always carry the fields.
   */
  decorate?: boolean;
}

/** Builds the rate-limit step. */
export function rateLimitStep(options: RateLimitStepOptions): RequestHandler {
  const { store, limits } = options;
  const classify = options.classify ?? classifyPath;
  const refuse = options.refuse ?? ((_ctx: RequestContext, state: RateLimitState) => tooManyRequests(state));
  const decorate = options.decorate ?? true;
  return async (ctx) => {
    const decision = await decide(store, limits, {
      bucket: addressBucket(ctx.locals.clientAddress),
      kind: ctx.locals.clientKind,
      pathClass: classify(ctx.url.pathname),
    });
    ctx.locals.rateLimit = decision.state;
    if (!decision.allowed) return withRateLimitHeaders(await refuse(ctx, decision.state), decision.state, true);
    if (decorate) return withRateLimitHeaders(await ctx.next(), decision.state);
  };
}
