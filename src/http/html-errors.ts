/**
 * Error answers for people: a request for a page gets a small HTML 404, 429 or 500 where an API client gets the
 * contract's JSON body. Which one a path calls for is the route table's (`errorFormatOf`); elsewhere the client's
 * `Accept` decides. The pages themselves are rendered by `src/pages/` and injected ({@link ErrorPages}), so this
 * module stays runtime-neutral and renders nothing when it is loaded.
 */
import type { Answer, HeaderRecord, StepContext, WholeBody } from './step.js';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import { detailBody, DETAIL } from '../contract/errors.js';
import { nearestRoute } from '../contract/nearest-route.js';
import { API_BASE, errorFormatOf, routeFor } from '../contract/routes.js';
import type { TooManyRequestsBody } from '../contract/rate-limits.js';
import { tooManyRequests } from './ratelimit/headers.js';
import { respond, respondJson } from './respond.js';

/** The HTML error pages and the headers they are sent with (from `src/pages/`). */
export interface ErrorPages {
  /** `Content-Type` of the pages. */
  readonly contentType: string;
  /** Security headers every page carries (Content-Security-Policy, …). */
  readonly headers: Readonly<Record<string, string>>;
  /** The 404 page: for an unknown course (a path below a course page's prefix) or any other path. */
  notFound(what: 'page' | 'course'): string;
  /** The 500 page, naming the request id (never the error). */
  serverError(requestId: string | undefined): string;
  /** The 429 page, explaining `why` as the JSON body does. */
  tooManyRequests(why: TooManyRequestsBody): string;
}

/** The error answers of the app (404, 429, 500), JSON or HTML as the request calls for. */
export interface ErrorAnswers {
  /** Whether an error for this request should be an HTML page. */
  wantsHtml: (ctx: StepContext) => boolean;
  /** The 404 for a path that names nothing. */
  notFound: (ctx: StepContext) => Answer;
  /** The 500 body for an unexpected failure (the error boundary adds `Cache-Control` to the JSON one). */
  serverError: (ctx: StepContext) => Answer;
  /**
   * The rate limiter's refusal (`rateLimitStep({ refuse })`): the HTML 429 page, or the JSON body, both explaining
   * `why`; `respond` adds `Retry-After` and the RateLimit fields.
   */
  refuse: (ctx: StepContext, why: TooManyRequestsBody) => Answer;
}

const JSON_FIRST = ['application/json', 'text/html'];

/**
 * Whether the client ranks `text/html` above `application/json` in `Accept` (RFC 9110 §12.5.1; a browser does,
 * `curl`'s `*\/*` does not: on a tie JSON wins). No `Accept` means JSON.
 */
export function prefersHtml(accept: string | null): boolean {
  if (accept === null) return false;
  return new Negotiator({ headers: { accept } }).mediaType(JSON_FIRST) === 'text/html';
}

/** The app's error answers, with the HTML pages of `pages`. */
export function errorAnswers(pages: ErrorPages): ErrorAnswers {
  const encoder = new TextEncoder();
  let notFoundPage: Uint8Array | undefined;
  let courseNotFoundPage: Uint8Array | undefined;
  // 404 bodies below `/v1/` by the route they name: as many as the API has routes.
  const nearBodies = new Map<string, Uint8Array>();
  const notFoundBody = (path: string): Uint8Array => {
    if (!path.startsWith(`${API_BASE}/`)) return detailBody(DETAIL.notFound);
    const nearest = nearestRoute(path);
    let body = nearBodies.get(nearest);
    if (body === undefined) nearBodies.set(nearest, (body = encoder.encode(JSON.stringify({ detail: DETAIL.notFound, nearest_route: nearest }))));
    return body;
  };
  // 429 pages by what they say (the budget and the seconds to wait): a refused flood renders each one once.
  const tooManyPages = new LRUCache<string, Uint8Array>({ max: 4096 });

  const wantsHtml = (ctx: StepContext): boolean => {
    const format = errorFormatOf(ctx.url.pathname);
    return format === 'negotiated' ? prefersHtml(ctx.request.headers.get('accept')) : format === 'html';
  };

  /** An HTML error response with the pages' security headers; not cached, and it varies with `Accept`. */
  const htmlError = (ctx: StepContext, status: number, body: WholeBody, extra: HeaderRecord = {}): Answer => {
    const headers: HeaderRecord = { ...pages.headers, ...extra, 'Content-Type': pages.contentType, 'Cache-Control': 'no-store', Vary: 'Accept' };
    return respond(ctx, status, ctx.method === 'HEAD' ? null : body, headers);
  };

  return {
    wantsHtml,
    notFound(ctx) {
      if (!wantsHtml(ctx)) {
        // Below `/v1/`, the body also names the nearest route (`nearest_route`).
        // Not stored (the path may exist after the next content reload), and where the format is negotiated the
        // body depends on `Accept`.
        const negotiated = errorFormatOf(ctx.url.pathname) === 'negotiated';
        return respondJson(
          ctx,
          404,
          notFoundBody(ctx.url.pathname),
          negotiated ? { 'Cache-Control': 'no-store', Vary: 'Accept' } : { 'Cache-Control': 'no-store' },
        );
      }
      const course = routeFor(ctx.url.pathname)?.name === 'coursePage';
      const body = course
        ? (courseNotFoundPage ??= encoder.encode(pages.notFound('course')))
        : (notFoundPage ??= encoder.encode(pages.notFound('page')));
      return htmlError(ctx, 404, body);
    },
    serverError(ctx) {
      if (!wantsHtml(ctx)) return respondJson(ctx, 500, detailBody(DETAIL.internal), { 'Cache-Control': 'no-store' });
      // Text: the page names this request's id.
      return htmlError(ctx, 500, pages.serverError(ctx.locals.requestId));
    },
    refuse(ctx, why) {
      if (!wantsHtml(ctx)) return tooManyRequests(ctx, why);
      // The larger budgets follow from the budget (the configuration does not change while serving).
      const key = `${why.budget.name} ${why.budget.client_kind} ${why.budget.policy} ${why.retry_after_seconds}`;
      let body = tooManyPages.get(key);
      if (body === undefined) {
        body = encoder.encode(pages.tooManyRequests(why));
        tooManyPages.set(key, body);
      }
      return htmlError(ctx, 429, body);
    },
  };
}
