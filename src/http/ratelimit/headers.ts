/**
 * The JSON 429 answer (RFC 6585 §4), a body that explains itself. `Retry-After` (RFC 9110 §10.2.3) and the
 * RateLimit fields (draft-ietf-httpapi-ratelimit-headers-06) are written by `respond`, like on every other response.
 */
import type { Answer, StepContext } from '../step.js';
import type { TooManyRequestsBody } from '../../contract/rate-limits.js';
import { respondJson } from '../respond.js';

/**
 * `{"detail":"Too Many Requests", …}` with why (`tooManyRequestsBody`); `respond` adds `Retry-After` and the
 * RateLimit fields of the budget that ran out (the step has put it in `ctx.locals.rateLimit`).
 */
export function tooManyRequests(ctx: StepContext, body: TooManyRequestsBody): Answer {
  // Text: the body differs with each refusal (its seconds to wait).
  return respondJson(ctx, 429, JSON.stringify(body), { 'Cache-Control': 'no-store' });
}
