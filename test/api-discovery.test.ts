/**
 * Finding one's way in the API, end to end on the real server: the root `/v1` lists the API's URLs (from the route
 * table, validated against the served `/openapi.json`, each one answering), a trailing slash redirects to the
 * route without it (every route of the table), and an unknown path below `/v1/` names the nearest route, at a
 * bounded cost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLinks, ROUTES, routePath, type RouteSpec } from '../src/contract/routes.js';
import type { Catalog } from '../src/schemas/types.generated.js';
import { rawRequest } from './helpers/http.js';
import { OpenApiResponses } from './helpers/openapi.js';
import { startTestServer, TEST_REFERRAL_CODES, type TestServer } from './helpers/server.js';

const PUBLIC_BASE_URL = 'https://catalog.example.test/api';
const UA = { 'user-agent': 'discovery-test/1.0 (+https://example.org)' };

let srv: TestServer;
let published: TestServer;
let api: OpenApiResponses;
/** A value for each template parameter that names something. */
let values: Record<string, string>;

const get = (base: string, path: string, method = 'GET') => rawRequest(base, path, { method, headers: UA });

beforeAll(async () => {
  [srv, published] = await Promise.all([startTestServer(), startTestServer({ env: { PUBLIC_BASE_URL } })]);
  api = new OpenApiResponses((await get(srv.url, '/openapi.json')).json());
  const catalog = (await get(srv.url, '/v1/catalog')).json() as Catalog;
  const course = catalog.courses.find((c) => c.classes.some((k) => k.lessons.length > 0))!;
  values = { course_id: course.id, lesson_id: course.classes.find((k) => k.lessons.length > 0)!.lessons[0]!.id, code: TEST_REFERRAL_CODES[0] };
}, 60_000);

afterAll(() => Promise.all([srv?.close(), published?.close()]));

/** `template` with every `{name}` replaced by its value. */
const fill = (template: string) => template.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);

describe('GET /v1', () => {
  it("lists the API's URLs GitHub-style, from the route table, as the served document says", async () => {
    const res = await get(srv.url, '/v1');
    expect(res.status).toBe(200);
    const body = res.json() as Record<string, string>;
    expect(body).toEqual(apiLinks(''));
    expect(api.check('/v1', 'get', 200, body)).toEqual([]);
    expect(body).toMatchObject({
      catalog_url: '/v1/catalog',
      course_url: '/v1/courses/{course_id}',
      lesson_url: '/v1/lessons/{lesson_id}',
      openapi_url: '/openapi.json',
      docs_url: '/docs',
    });
    expect(res.headers.etag).toMatch(/^"/);
    expect((await rawRequest(srv.url, '/v1', { headers: { ...UA, 'if-none-match': res.headers.etag! } })).status).toBe(304);
  });

  it('lists only URLs that answer, each once', async () => {
    const body = (await get(srv.url, '/v1')).json() as Record<string, string>;
    expect(new Set(Object.values(body)).size).toBe(Object.keys(body).length);
    for (const [name, url] of Object.entries(body)) expect((await get(srv.url, fill(url))).status, name).toBe(200);
  });

  it('gives absolute URLs after PUBLIC_BASE_URL when the service has one', async () => {
    const body = (await get(published.url, '/v1')).json() as Record<string, string>;
    expect(body).toEqual(apiLinks(PUBLIC_BASE_URL));
    expect(body.catalog_url).toBe(`${PUBLIC_BASE_URL}/v1/catalog`);
  });
});

describe('a trailing slash', () => {
  it('/v1/ redirects to /v1, the query kept', async () => {
    const res = await get(srv.url, '/v1/?page=2');
    expect([res.status, res.headers.location, res.body.length]).toEqual([308, '/v1?page=2', 0]);
  });

  it.each((ROUTES as readonly RouteSpec[]).filter((r) => r.path !== '/').map((r) => [r.path, r] as const))(
    '%s/ redirects to the route (308, Location without the slash, query kept), HEAD too',
    async (_, route) => {
      const path = routePath(route, ...(route.path.match(/\{\w+\}/g) ?? []).map((p) => values[p.slice(1, -1)] ?? 'x'));
      for (const method of ['GET', 'HEAD']) {
        const res = await get(srv.url, `${path}/?a=1&b`, method);
        expect([res.status, res.headers.location, res.body.length], `${method} ${path}/`).toEqual([308, `${path}?a=1&b`, 0]);
        expect(res.headers['cache-control']).toBe(route.cacheControl);
      }
      // Several slashes: one redirect. After PUBLIC_BASE_URL when it is set, like every redirect.
      expect((await get(published.url, `${path}///`)).headers.location).toBe(`${PUBLIC_BASE_URL}${path}`);
    },
  );

  it('is a 404 where the path without it is no route', async () => {
    expect((await get(srv.url, '/v1/courses/')).status).toBe(404);
    expect((await get(srv.url, '/nope/')).status).toBe(404);
  });
});

describe('an unknown path below /v1/', () => {
  it.each([
    ['/v1/courses', '/v1/courses/{course_id}'],
    ['/v1/lessons', '/v1/lessons/{lesson_id}'],
    ['/v1/lesson/x', '/v1/lessons/{lesson_id}'],
    ['/v1/lessons/', '/v1/lessons/{lesson_id}'],
    ['/v1/catalogue', '/v1/catalog'],
    ['/v1/zzzz', '/v1'],
  ])('%s → 404 {"detail":"Not Found","nearest_route":"%s"}', async (path, nearest) => {
    const res = await get(srv.url, path);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json()).toEqual({ detail: 'Not Found', nearest_route: nearest });
    expect(res.headers['ratelimit-policy']).toMatch(/;w=60$/);
  });

  it('names an existing route template, documented in /openapi.json', async () => {
    const doc = (await get(srv.url, '/openapi.json')).json() as { paths: Record<string, unknown>; info: { description: string } };
    const res = (await get(srv.url, '/v1/chnagelog')).json() as { nearest_route: string };
    expect(doc.paths[res.nearest_route]).toBeDefined();
    expect(JSON.stringify(doc.paths['/v1'])).toContain('nearest_route');
  });

  it('costs no distance over a long path: it names the API root', async () => {
    const res = await get(srv.url, `/v1/lesson/${'x'.repeat(8000)}`);
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not Found', nearest_route: '/v1' });
  });
});
