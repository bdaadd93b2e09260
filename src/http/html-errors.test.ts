import { describe, expect, it } from 'vitest';
import { RATE_LIMITS_DOC_URL, tooManyRequestsBody } from '../contract/rate-limits.js';
import { ERROR_PAGES } from '../server/app.js';
import { errorAnswers, prefersHtml } from './html-errors.js';
import type { Answer, StepContext } from './step.js';

const errors = errorAnswers(ERROR_PAGES);
const wantsHtmlError = (c: StepContext) => errors.wantsHtml(c);

/** A step context for `method path` with that `Accept`. */
function ctx(path: string, accept?: string, method = 'GET'): StepContext {
  const url = new URL(`http://127.0.0.1${path}`);
  const headers = new Headers(accept === undefined ? {} : { accept });
  return { url, method, ip: '', request: new Request(url, { headers, method }), locals: { requestId: 'req-1' } };
}

/** An answer as the Fetch `Response` the HatTip adapter makes of it. */
const res = (answer: Answer): Response => new Response(answer.body as BodyInit | null, answer);

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const state = { limit: 30, remaining: 0, resetSeconds: 17, windowSeconds: 60 };
const LIMITS = { declared: 120, verified: 480 };
const why = tooManyRequestsBody({
  detail: 'Too Many Requests',
  kind: 'anonymous',
  budget: 'read',
  limit: state.limit,
  windowSeconds: state.windowSeconds,
  resetSeconds: state.resetSeconds,
  limitOf: (kind) => LIMITS[kind],
});

describe('prefersHtml (RFC 9110 §12.5.1, by negotiator)', () => {
  it('ranks text/html against application/json; a tie or no Accept is JSON', () => {
    expect(prefersHtml(BROWSER)).toBe(true);
    expect(prefersHtml('*/*')).toBe(false);
    expect(prefersHtml(null)).toBe(false);
    expect(prefersHtml('text/*;q=0.5, text/html;q=0')).toBe(false);
    expect(prefersHtml('text/*;q=0.5')).toBe(true);
    expect(prefersHtml('application/json')).toBe(false);
    expect(prefersHtml('application/json;q=0.5, text/html')).toBe(true);
    expect(prefersHtml('garbage, ;;, text/html')).toBe(true);
  });
});

describe('wantsHtmlError', () => {
  it('keeps JSON on API paths whatever the client accepts', () => {
    for (const path of ['/v1/catalog', '/v1/courses/nope', '/health', '/openapi.json', '/docs'])
      expect(wantsHtmlError(ctx(path, BROWSER))).toBe(false);
  });
  it('answers HTML on page paths and for browsers elsewhere', () => {
    expect(wantsHtmlError(ctx('/courses/nope'))).toBe(true);
    expect(wantsHtmlError(ctx('/changelog', '*/*'))).toBe(true);
    expect(wantsHtmlError(ctx('/no-such-page', BROWSER))).toBe(true);
    expect(wantsHtmlError(ctx('/no-such-page', '*/*'))).toBe(false);
    expect(wantsHtmlError(ctx('/no-such-page'))).toBe(false);
    expect(wantsHtmlError(ctx('/no-such-page', 'application/json, text/html;q=0.9'))).toBe(false);
  });
});

describe('HTML error responses', () => {
  it('404 for an unknown course names the course, with the page security headers', async () => {
    const res404 = res(errors.notFound(ctx('/courses/nope', BROWSER)));
    expect(res404.status).toBe(404);
    expect(res404.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res404.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res404.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res404.headers.get('cache-control')).toBe('no-store');
    expect(await res404.text()).toContain('We have no course at this address');
  });

  it('HEAD gets the status and headers without a body', async () => {
    const head = errors.notFound(ctx('/x', BROWSER, 'HEAD'));
    expect(head.status).toBe(404);
    expect(head.body).toBeNull();
  });

  it('500 shows the request id', async () => {
    const failed = res(errors.serverError(ctx('/', BROWSER)));
    expect(failed.status).toBe(500);
    expect(await failed.text()).toContain('req-1');
  });

  it('429 is a page for page requests and the JSON body for API clients', async () => {
    // The rate-limit step has recorded the budget that ran out; respond() turns it into Retry-After.
    const limited = (path: string) => Object.assign(ctx(path, BROWSER), { locals: { requestId: 'req-1', rateLimit: state } });
    const page = res(errors.refuse(limited('/roadmap'), why));
    expect(page.status).toBe(429);
    expect(page.headers.get('retry-after')).toBe('17');
    const text = await page.text();
    expect(text).toContain('17 seconds');
    // The same explanation as the JSON body: the budget, the larger ones and how, the documentation.
    expect(text).toContain('data-client-kind="anonymous" data-policy="30;w=60"');
    expect(text).toContain('data-client-kind="declared" data-policy="120;w=60"');
    expect(text).toContain('data-client-kind="verified" data-policy="480;w=60"');
    expect(text).toContain(`href="${RATE_LIMITS_DOC_URL}"`);
    const api = res(errors.refuse(limited('/v1/catalog'), why));
    expect(api.headers.get('retry-after')).toBe('17');
    expect(api.headers.get('content-type')).toBe('application/json');
    expect(await api.json()).toEqual({ ...why, detail: 'Too Many Requests' });
  });
});
