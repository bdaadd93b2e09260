/**
 * The JSON 429 answer (RFC 6585 §4). `Retry-After` (RFC 9110 §10.2.3) and the RateLimit fields
 * (draft-ietf-httpapi-ratelimit-headers-06) are written by `respond`, like on every other response.
 */
import type { Answer, StepContext } from '../step.js';
import { detailBody, DETAIL } from '../../contract/errors.js';
import { respondJson } from '../respond.js';

/**
 * `{"detail":"Too Many Requests"}`; `respond` adds `Retry-After` and the RateLimit fields of the budget that ran
 * out (the step has put it in `ctx.locals.rateLimit`).
 */
export function tooManyRequests(ctx: StepContext): Answer {
  return respondJson(ctx, 429, detailBody(DETAIL.tooManyRequests), { 'Cache-Control': 'no-store' });
}
