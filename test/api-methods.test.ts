/**
 * Methods, end to end: the real server walked route by route from the route table. On every route `OPTIONS`,
 * `HEAD`, `GET` and a method it does not answer agree: the preflight's `Allow` and `Access-Control-Allow-Methods`,
 * and a 405's `Allow`, are what the route answers, and HEAD is the GET without its body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, routePath, type RouteSpec } from '../src/contract/routes.js';
import type { Catalog } from '../src/schemas/types.generated.js';
import { rawRequest } from './helpers/http.js';
import { startTestServer, TEST_REFERRAL_CODES, type TestServer } from './helpers/server.js';

let srv: TestServer;
/** A concrete path of each route that answers 200, by route name. */
const pathOf = new Map<string, string>();

const send = (method: string, path: string, headers: Record<string, string> = {}) => rawRequest(srv.url, path, { method, headers });

/** The first `href`/`src` of `html` under `prefix`. */
function linked(html: string, prefix: string): string {
  const found = new RegExp(`(?:href|src)="(${prefix.replaceAll('/', '\\/')}[^"]+)"`).exec(html)?.[1];
  if (found === undefined) throw new Error(`no link under ${prefix}`);
  return found;
}

beforeAll(async () => {
  srv = await startTestServer();
  const catalog = (await send('GET', '/v1/catalog')).json() as Catalog;
  const course = catalog.courses.find((c) => c.classes.some((k) => k.lessons.length > 0))!;
  const values: Record<string, string> = {
    course_id: course.id,
    lesson_id: course.classes.find((k) => k.lessons.length > 0)!.lessons[0]!.id,
    code: TEST_REFERRAL_CODES[0],
  };
  const home = (await send('GET', '/')).text;
  const docs = (await send('GET', '/docs')).text;
  for (const route of ROUTES as readonly RouteSpec[]) {
    const names = (route.path.match(/\{(\w+)\}/g) ?? []).map((p) => p.slice(1, -1));
    if (route.name === 'pageAsset') pathOf.set(route.name, linked(home, '/assets/'));
    else if (route.name === 'docsAsset') pathOf.set(route.name, linked(docs, '/docs/assets/'));
    else pathOf.set(route.name, routePath(route, ...names.map((n) => values[n]!)));
  }
}, 60_000);

afterAll(() => srv?.close());

describe('every route of the table', () => {
  it.each((ROUTES as readonly RouteSpec[]).map((r) => [r.path, r] as const))('%s: OPTIONS, HEAD, GET and DELETE agree', async (_, route) => {
    const path = pathOf.get(route.name)!;
    const allow = [...route.methods, 'OPTIONS'].join(', ');

    const options = await send('OPTIONS', path, { origin: 'https://app.example', 'access-control-request-method': 'GET' });
    expect(options.status, path).toBe(204);
    expect(options.headers.allow, path).toBe(allow);
    expect(options.headers['access-control-allow-methods'], path).toBe(allow);

    const get = await send('GET', path);
    expect(get.status, path).toBe(200);
    const head = await send('HEAD', path);
    if (route.methods.includes('HEAD')) {
      expect([head.status, head.body.length], path).toEqual([200, 0]);
      expect(head.headers['content-type'], path).toBe(get.headers['content-type']);
      expect(head.headers.etag, path).toBe(get.headers.etag);
      expect(head.headers['content-length'], path).toBe(String(get.body.length));
    } else {
      expect([head.status, head.headers.allow], path).toEqual([405, allow]);
    }

    const refused = await send('DELETE', path);
    expect(refused.status, path).toBe(405);
    expect(refused.headers.allow, path).toBe(allow);
    expect(refused.json()).toEqual({ detail: 'Method Not Allowed' });
    for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(allow.split(', '), path).toContain(method);
  });

  it('answers HEAD wherever it answers GET, so `curl -I` works on every route', () => {
    for (const route of ROUTES as readonly RouteSpec[]) expect(route.methods, route.path).toEqual(['GET', 'HEAD']);
  });
});

describe('a path no route matches', () => {
  it('gets a preflight naming every method of the table, and a 404 to GET', async () => {
    const options = await send('OPTIONS', '/no-such-path');
    expect([options.status, options.headers['access-control-allow-methods']]).toEqual([204, 'GET, HEAD, OPTIONS']);
    expect((await send('GET', '/no-such-path')).status).toBe(404);
  });
});
