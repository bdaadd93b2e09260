/**
 * Error pages on the real server: HTML 404 and 429 for people, the contract's JSON for API paths and for
 * clients that do not ask for HTML; pages carry the RateLimit fields and count against the read budget.
 */
import { nearestRoute } from '../src/contract/nearest-route.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const ALL_BUDGETS = (n: number) => ({
  RATE_LIMIT_VERIFIED: String(n),
  RATE_LIMIT_DECLARED: String(n),
  RATE_LIMIT_BROWSER: String(n),
  RATE_LIMIT_ANONYMOUS: String(n),
});

describe('404', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ start: { watch: false } });
  });
  afterAll(async () => {
    await server?.close();
  });
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => fetch(server.url + path, { headers, method });

  it('an unknown course is the HTML 404 page, whatever the client accepts', async () => {
    for (const accept of [BROWSER_ACCEPT, '*/*']) {
      const res = await get('/courses/no-such-course', { accept });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(await res.text()).toContain('We have no course at this address');
    }
  });

  it('an unknown path is HTML for a browser and JSON for other clients', async () => {
    const browser = await get('/no/such/page', { accept: BROWSER_ACCEPT });
    expect(browser.status).toBe(404);
    expect(browser.headers.get('vary')).toContain('Accept');
    expect(await browser.text()).toContain('This page does not exist');
    for (const headers of [{ accept: '*/*' }, {}, { accept: 'application/json' }] as Record<string, string>[]) {
      const res = await get('/no/such/page', headers);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: 'Not Found' });
      // Its body depends on Accept, and it may exist after the next reload: a cache must neither mix nor keep it.
      expect(res.headers.get('vary')).toBe('Accept');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('API paths keep their JSON errors for a browser', async () => {
    const course = await get('/v1/courses/no-such-course', { accept: BROWSER_ACCEPT });
    expect(course.status).toBe(404);
    expect(await course.json()).toEqual({ detail: 'Course not found' });
    const unknown = await get('/v1/nothing-here', { accept: BROWSER_ACCEPT });
    expect(await unknown.json()).toEqual({ detail: 'Not Found', nearest_route: nearestRoute('/v1/nothing-here') });
    expect(unknown.headers.get('cache-control')).toBe('no-store');
    expect(unknown.headers.get('vary')).toBeNull(); // JSON whatever the Accept under /v1
  });

  it('HEAD of a missing page has the status and no body', async () => {
    const res = await get('/courses/no-such-course', { accept: BROWSER_ACCEPT }, 'HEAD');
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('');
  });
});

describe('429', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: ALL_BUDGETS(3), start: { watch: false } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('pages spend the read budget, carry the RateLimit fields, and a refused page is a small HTML page with Retry-After', async () => {
    const first = await fetch(`${server.url}/`, { headers: { accept: BROWSER_ACCEPT } });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe('3');
    expect(first.headers.get('ratelimit-remaining')).toBe('2');
    await fetch(`${server.url}/changelog`, { headers: { accept: BROWSER_ACCEPT } });
    await fetch(`${server.url}/roadmap`, { headers: { accept: BROWSER_ACCEPT } });

    const refused = await fetch(`${server.url}/changelog`, { headers: { accept: BROWSER_ACCEPT } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(refused.headers.get('content-security-policy')).toContain("default-src 'none'");
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    const body = await refused.text();
    expect(body).toContain('<h1>Slow down a little</h1>');
    expect(body).toContain(`data-retry-after="${retryAfter}"`);

    const api = await fetch(`${server.url}/v1/catalog`, { headers: { accept: BROWSER_ACCEPT } });
    expect(api.status).toBe(429);
    expect(api.headers.get('content-type')).toBe('application/json');
    expect(await api.json()).toMatchObject({ detail: 'Too Many Requests', retry_after_seconds: expect.any(Number) });
  });
});
