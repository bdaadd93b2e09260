/**
 * Error answers for people: a request for a page gets a small HTML 404, 429 or 500 (from `src/pages/`) where an
 * API client gets the contract's JSON body. API paths (`/v1/…`, `/health`, `/openapi.json`, `/docs`) always keep
 * JSON. Runtime-neutral: Fetch API only.
 */
import type { RequestContext } from '@hattip/compose';
import { HTML_TYPE, PAGE_HEADERS, renderNotFoundPage, renderServerErrorPage, renderTooManyRequestsPage } from '../pages/errors.js';
import type { RateLimitState } from './locals.js';
import { tooManyRequests } from './ratelimit/headers.js';
import { respond, type HeaderRecord } from './respond.js';

const encoder = new TextEncoder();
const NOT_FOUND_PAGE = encoder.encode(renderNotFoundPage());
const COURSE_NOT_FOUND_PAGE = encoder.encode(renderNotFoundPage({ what: 'course' }));

/** Paths whose errors are always the contract's JSON, whatever the client accepts. */
function isApiPath(path: string): boolean {
  return path.startsWith('/v1/') || path === '/v1' || path === '/health' || path === '/openapi.json' || path === '/docs' || path.startsWith('/docs/');
}

/** The pages' own paths: errors there are HTML even for a client that sent no `Accept`. */
function isPagePath(path: string): boolean {
  return path === '/' || path === '/changelog' || path === '/roadmap' || path.startsWith('/courses/');
}

/**
 * The weight (q-value) an `Accept` field gives a media type (RFC 9110 §12.5.1): the most specific matching range
 * wins (`type/subtype` over `type/*` over `*\/*`); a type no range matches gets 0. Invalid members are ignored.
 */
export function acceptWeight(accept: string, mediaType: string): number {
  const [type, subtype] = mediaType.toLowerCase().split('/') as [string, string];
  let best = -1;
  let weight = 0;
  for (const member of accept.split(',')) {
    const [range, ...params] = member.split(';');
    const [t, s] = range!.trim().toLowerCase().split('/');
    if (t === undefined || s === undefined) continue;
    const specificity = t === type && s === subtype ? 2 : t === type && s === '*' ? 1 : t === '*' && s === '*' ? 0 : -1;
    if (specificity <= best) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    best = specificity;
    weight = q;
  }
  return weight;
}

/**
 * Whether an error for this request should be an HTML page: never on API paths; always on page paths; elsewhere
 * when the client ranks `text/html` above `application/json` (a browser does, `curl`'s `*\/*` does not).
 */
export function wantsHtmlError(ctx: RequestContext): boolean {
  const path = ctx.url.pathname;
  if (isApiPath(path)) return false;
  if (isPagePath(path)) return true;
  const accept = ctx.request.headers.get('accept');
  if (accept === null) return false;
  return acceptWeight(accept, 'text/html') > acceptWeight(accept, 'application/json');
}

/** An HTML error response with the pages' security headers; not cached, and it varies with `Accept`. */
function htmlError(ctx: RequestContext, status: number, body: Uint8Array, extra: HeaderRecord = {}): Response {
  const headers: HeaderRecord = { ...PAGE_HEADERS, ...extra, 'Content-Type': HTML_TYPE, 'Cache-Control': 'no-store', Vary: 'Accept' };
  return respond(ctx, status, ctx.method === 'HEAD' ? null : body, headers);
}

/** The HTML 404: "course not found" under `/courses/`, "page not found" elsewhere. */
export function notFoundPage(ctx: RequestContext): Response {
  return htmlError(ctx, 404, ctx.url.pathname.startsWith('/courses/') ? COURSE_NOT_FOUND_PAGE : NOT_FOUND_PAGE);
}

/** The HTML 500, naming the request id (never the error). */
export function serverErrorPage(ctx: RequestContext): Response {
  return htmlError(ctx, 500, encoder.encode(renderServerErrorPage(ctx.locals.requestId)));
}

/** 429 pages by whole seconds to wait: a refused flood renders each distinct wait once. */
const tooManyPages = new Map<number, Uint8Array>();
const TOO_MANY_CACHE_LIMIT = 4096;

/**
 * The rate limiter's refusal (`rateLimitStep({ refuse })`): an HTML 429 page for page requests, the JSON
 * `{"detail":"Too Many Requests"}` otherwise. The step adds `Retry-After` and the RateLimit fields.
 */
export function refuseWithPage(ctx: RequestContext, state: RateLimitState): Response {
  if (!wantsHtmlError(ctx)) return tooManyRequests(state);
  const seconds = Math.max(1, state.resetSeconds);
  let body = tooManyPages.get(seconds);
  if (body === undefined) {
    body = encoder.encode(renderTooManyRequestsPage(seconds));
    if (tooManyPages.size >= TOO_MANY_CACHE_LIMIT) tooManyPages.clear();
    tooManyPages.set(seconds, body);
  }
  return htmlError(ctx, 429, body, { 'Retry-After': String(seconds) });
}
