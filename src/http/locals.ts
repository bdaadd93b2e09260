/**
 * What the middleware steps tell each other, on HatTip's `ctx.locals` (declaration merging).
 * Each field is set by exactly one step, in this order: request id → client address → client kind → rate limit.
 */

import type {} from '@hattip/compose';
import type { RouteSpec } from '../contract/routes.js';
import type { PlainAnswer } from './respond.js';
/** The kinds of client the fair-use budgets distinguish (contract §5). */
export type ClientKind = 'verified' | 'declared' | 'browser' | 'anonymous';

/** RateLimit header values of the budget reported on a response (draft-ietf-httpapi-ratelimit-headers-06). */
export interface RateLimitState {
  /** Requests allowed per window. */
  limit: number;
  /** Requests left in the current window (never negative). */
  remaining: number;
  /** Whole seconds until the window resets, rounded up, never negative. */
  resetSeconds: number;
  /** Window length in seconds. */
  windowSeconds: number;
}

declare module '@hattip/compose' {
  interface Locals {
    /** Request id: the incoming `X-Request-Id` when well-formed, otherwise a new one. Echoed in the response. */
    requestId: string;
    /** The client's address: the socket peer, or resolved through trusted proxies. */
    clientAddress: string;
    /** How the client was classified (User-Agent, or a verified RFC 9421 signature). */
    clientKind: ClientKind;
    /** The budget reported in the RateLimit headers of this response, once the rate-limit step ran. */
    rateLimit?: RateLimitState;
    /** The content revision of the index this request was answered from (unset when it read none, e.g. `/health`). */
    revision?: string;
    /** Body bytes of the response `respond` built (0 for HEAD, 304); unset for a response built elsewhere. */
    bodyBytes?: number;
    /** The route of the table the path matched, once known (set by the router, so later readers need not match again). */
    route?: RouteSpec;
    /**
     * Set (to `null`) by a host's direct path before the steps run: `respond` then leaves its answer here as plain
     * data instead of building a `Response`. Absent on the general path.
     */
    plainAnswer?: PlainAnswer | null;
  }
}
