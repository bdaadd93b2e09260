/**
 * What the steps tell each other about one request, on `ctx.locals`. Each field is set by exactly one step, in this
 * order: request id → client address → client kind → rate limit → router.
 */
import type { ClientKind } from '../contract/rate-limits.js';
import type { RouteSpec } from '../contract/routes.js';

export type { ClientKind };

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

/** The per-request state of the steps. */
export interface Locals {
  /** Request id: the incoming `X-Request-Id` when well-formed, otherwise a new one. Echoed in the response. */
  requestId: string;
  /** The client's address: the socket peer, or resolved through trusted proxies (unset before that step). */
  clientAddress?: string;
  /** How the client was classified (User-Agent, or a verified RFC 9421 signature); unset before that step. */
  clientKind?: ClientKind;
  /** The budget reported in the RateLimit headers of this response, once the rate-limit step ran. */
  rateLimit?: RateLimitState;
  /** The content revision of the index this request was answered from (unset when it read none, e.g. `/health`). */
  revision?: string;
  /** Body bytes of the answer (0 for HEAD, 304), set by `respond`. */
  bodyBytes?: number;
  /** The route of the table the path matched, once known (set by the router, so later readers need not match again). */
  route?: RouteSpec;
}
