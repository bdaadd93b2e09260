/**
 * The API contract, end to end: the real server on a loopback port, every endpoint's status, headers and
 * body for success and each error, bodies validated against the `/openapi.json` it serves (ajv).
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { loadSchemas } from '../src/schemas/registry.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Catalog, Changelog, Course } from '../src/schemas/types.generated.js';
import { SMALL_TREE } from './helpers/content-fixture.js';
import { rawRequest, type RawResponse } from './helpers/http.js';
import { OpenApiResponses } from './helpers/openapi.js';
import { startTestServer, TEST_REFERRAL_CODES, type TestServer } from './helpers/server.js';

const PUBLIC_BASE_URL = 'https://catalog.example.test';
const ID_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
const CODE_PATTERN = '^[A-Za-z0-9_-]+$';

let srv: TestServer;
let api: OpenApiResponses;
let catalog: Catalog;

const get = (path: string, headers: Record<string, string> = {}) => rawRequest(srv.url, path, { headers });
const send = (method: string, path: string, headers: Record<string, string> = {}) => rawRequest(srv.url, path, { method, headers });

/** The API schemas of `schemas/api/` themselves (the source the OpenAPI document is derived from). */
const schemaAjv = new Ajv2020({ allErrors: true, strict: false });
(addFormatsModule as unknown as (a: Ajv2020) => void)(schemaAjv);
for (const s of loadSchemas().values()) if (s.$id) schemaAjv.addSchema(s);
const SCHEMA_OF: Record<string, string> = {
  '/v1/health': 'Health',
  '/v1/catalog': 'Catalog',
  '/v1/courses/{course_id}': 'Course',
  '/v1/lessons/{lesson_id}': 'Lesson',
  '/v1/changelog': 'Changelog',
  '/v1/roadmap': 'Roadmap',
  '/v1/referrals/{code}': 'ReferralCheck',
};

/** Problems of `body` against `schemas/api/<name>.schema.json`. */
function schemaProblems(name: string, body: unknown): string[] {
  const validate = schemaAjv.getSchema(`https://syllabus.example/schemas/api/${name}.schema.json`)!;
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

/** Asserts the body is valid for the documented response (and for its schema in `schemas/api/`), and returns it. */
function documented(res: RawResponse, route: string, status: number): unknown {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('application/json');
  const body = res.json();
  expect(api.check(route, 'get', status, body)).toEqual([]);
  const name = status === 422 ? 'HTTPValidationError' : status === 200 ? SCHEMA_OF[route] : undefined;
  if (name !== undefined) expect(schemaProblems(name, body)).toEqual([]);
  return body;
}

/** Headers every response carries. */
function expectCommonHeaders(res: RawResponse): void {
  expect(res.headers['access-control-allow-origin']).toBe('*');
  const exposed = res.headers['access-control-expose-headers']!.split(/,\s*/);
  for (const h of [
    'ETag',
    'RateLimit-Limit',
    'RateLimit-Remaining',
    'RateLimit-Reset',
    'RateLimit-Policy',
    'Retry-After',
    'Deprecation',
    'Sunset',
    'Link',
  ]) {
    expect(exposed).toContain(h);
  }
  expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  expect(res.headers['ratelimit-policy']).toMatch(/^\d+;w=\d+$/);
}

beforeAll(async () => {
  srv = await startTestServer({ env: { PUBLIC_BASE_URL } });
  const doc = await get('/openapi.json');
  expect(doc.status).toBe(200);
  api = new OpenApiResponses(doc.json());
  catalog = (await get('/v1/catalog')).json() as Catalog;
});
afterAll(async () => {
  await srv?.close();
});

describe('200 bodies from the index', () => {
  it('GET /v1/health', async () => {
    const res = await get('/v1/health');
    expect(documented(res, '/v1/health', 200)).toEqual({ status: 'ok', version: 'v1' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['content-length']).toBe(String(res.body.length));
    expectCommonHeaders(res);
  });

  it('GET /v1/catalog: every course in display order, with derived counts', async () => {
    const res = await get('/v1/catalog');
    const body = documented(res, '/v1/catalog', 200) as Catalog;
    expect(body.courses.map((c) => c.id)).toEqual([...SMALL_TREE.courses]);
    const lessons = body.courses.flatMap((c) => c.classes.flatMap((k) => k.lessons));
    expect(lessons).toHaveLength(SMALL_TREE.lessons);
    for (const c of body.courses) {
      expect(c).toHaveProperty('tagline');
      expect(c).toHaveProperty('blurb');
      expect(c.lessons_live).toBe(c.classes.reduce((n, k) => n + k.lessons_live, 0));
    }
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(res.headers.deprecation).toBeUndefined();
    expectCommonHeaders(res);
  });

  it('GET /v1/courses/{course_id} for every course equals its catalog entry', async () => {
    for (const course of catalog.courses) {
      const res = await get(`/v1/courses/${course.id}`);
      expect(documented(res, '/v1/courses/{course_id}', 200)).toEqual(course);
      expect(res.headers.etag).toBeDefined();
    }
  });

  it('GET /v1/lessons/{lesson_id} for every lesson: metadata only, steps a count', async () => {
    for (const lesson of catalog.courses.flatMap((c: Course) => c.classes.flatMap((k) => k.lessons))) {
      const res = await get(`/v1/lessons/${lesson.id}`);
      const body = documented(res, '/v1/lessons/{lesson_id}', 200);
      expect(body).toEqual(lesson);
      expect(Object.keys(body as object).sort()).toEqual(['blurb', 'class_id', 'course_id', 'id', 'lang', 'steps', 'title']);
    }
  });

  it('GET /v1/changelog: newest first', async () => {
    const body = documented(await get('/v1/changelog'), '/v1/changelog', 200) as Changelog;
    expect(body.entries).toHaveLength(SMALL_TREE.changelogEntries);
    const dates = body.entries.map((e) => e.date);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('GET /v1/roadmap carries the deprecation declared in the changelog (RFC 9745, RFC 8594)', async () => {
    const changelog = (await get('/v1/changelog')).json() as Changelog;
    const entry = changelog.entries.find((e) => e.deprecates.some((d) => d.path === '/v1/roadmap'))!;
    const sunset = entry.deprecates.find((d) => d.path === '/v1/roadmap')!.sunset;
    const res = await get('/v1/roadmap');
    const body = documented(res, '/v1/roadmap', 200) as { stages: Array<{ key: string; items: unknown[] }> };
    expect(body.stages.map((s) => s.key)).toEqual(['shipped', 'building', 'next', 'exploring']);
    expect(res.headers.deprecation).toBe(`@${Date.parse(`${entry.date}T00:00:00Z`) / 1000}`);
    expect(res.headers.sunset).toBe(new Date(`${sunset}T00:00:00Z`).toUTCString());
    expect(res.headers.link).toBe(`<${PUBLIC_BASE_URL}/changelog#${entry.id}>; rel="deprecation"`);
    // Errors on the deprecated route carry them too.
    const notAllowed = await send('POST', '/v1/roadmap');
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers.deprecation).toBe(res.headers.deprecation);
    // 304s as well.
    const notModified = await get('/v1/roadmap', { 'if-none-match': res.headers.etag! });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.sunset).toBe(res.headers.sunset);
  });
});

describe('/health', () => {
  it('GET: all-string values, status ok, the revision served, no-store', async () => {
    const res = await get('/health');
    expect(res.status).toBe(200);
    expect(api.check('/health', 'get', 200, res.json())).toEqual([]);
    const body = res.json() as Record<string, unknown>;
    expect(body.status).toBe('ok');
    for (const v of Object.values(body)) expect(typeof v).toBe('string');
    expect(body.revision).toBe(srv.server.holder.current.revision);
    expect(body).toHaveProperty('last_reload_error', '');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
    expectCommonHeaders(res);
  });

  it('HEAD: the GET headers, no body', async () => {
    const getRes = await get('/health');
    const res = await send('HEAD', '/health');
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
    expect(res.headers['content-length']).toBe(String(getRes.body.length));
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('other methods: 405 with Allow: GET, HEAD, OPTIONS', async () => {
    const res = await send('DELETE', '/health');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res.json()).toEqual({ detail: 'Method Not Allowed' });
  });
});

describe('404, 405', () => {
  it.each([
    ['/v1/courses/no-such-course', '/v1/courses/{course_id}', 'Course not found'],
    ['/v1/lessons/no-such-lesson', '/v1/lessons/{lesson_id}', 'Lesson not found'],
  ])('GET %s → 404 %s', async (path, route, detail) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ detail });
    expect(api.check(route, 'get', 404, res.json())).toEqual([]);
    expectCommonHeaders(res);
  });

  it.each(['/nope', '/v2/catalog', '/health/x'])('unknown path %s → 404 {"detail":"Not Found"}', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json()).toEqual({ detail: 'Not Found' });
  });

  it.each([
    ['/v1/courses/', '/v1/courses/{course_id}'],
    ['/v1/courses/python-basics/extra', '/v1/courses/{course_id}'],
    ['/v1//catalog', '/v1/catalog'],
  ])('unknown path %s → 404 {"detail":"Not Found"} naming the nearest route %s', async (path, nearest) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json()).toEqual({ detail: 'Not Found', nearest_route: nearest });
  });

  it.each([
    ['POST', '/v1/catalog'],
    ['PUT', '/v1/courses/python-basics'],
    ['DELETE', '/v1/lessons/variables'],
    ['PATCH', '/v1/referrals/WELCOME-2026'],
    ['POST', '/v1/health'],
  ])('%s %s → 405 with Allow: GET, HEAD, OPTIONS', async (method, path) => {
    const res = await send(method, path);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res.json()).toEqual({ detail: 'Method Not Allowed' });
    expectCommonHeaders(res);
  });

  it('HEAD on a /v1 route answers as GET, without a body (RFC 9110 §9.3.2: `curl -I` works)', async () => {
    const full = await get('/v1/catalog');
    const res = await send('HEAD', '/v1/catalog');
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe(full.headers.etag);
    expect(res.headers['content-length']).toBe(String(full.body.length));
    expect(res.body.length).toBe(0);
    const missing = await send('HEAD', '/v1/lessons/no-such-lesson');
    expect([missing.status, missing.body.length]).toEqual([404, 0]);
  });

  it('a 405 is answered before validating the parameter', async () => {
    const res = await send('POST', '/v1/courses/NOT%20VALID');
    expect(res.status).toBe(405);
  });
});

describe('422 in the FastAPI / Pydantic v2 shape', () => {
  const cases: Array<[string, string, string, unknown]> = [
    [
      `/v1/courses/${'a'.repeat(65)}`,
      '/v1/courses/{course_id}',
      'string_too_long',
      {
        type: 'string_too_long',
        loc: ['path', 'course_id'],
        msg: 'String should have at most 64 characters',
        input: 'a'.repeat(65),
        ctx: { max_length: 64 },
      },
    ],
    [
      '/v1/courses/Python-Basics',
      '/v1/courses/{course_id}',
      'string_pattern_mismatch',
      {
        type: 'string_pattern_mismatch',
        loc: ['path', 'course_id'],
        msg: `String should match pattern '${ID_PATTERN}'`,
        input: 'Python-Basics',
        ctx: { pattern: ID_PATTERN },
      },
    ],
    [
      '/v1/lessons/a--b',
      '/v1/lessons/{lesson_id}',
      'string_pattern_mismatch',
      {
        type: 'string_pattern_mismatch',
        loc: ['path', 'lesson_id'],
        msg: `String should match pattern '${ID_PATTERN}'`,
        input: 'a--b',
        ctx: { pattern: ID_PATTERN },
      },
    ],
    [
      '/v1/referrals/abc',
      '/v1/referrals/{code}',
      'string_too_short',
      { type: 'string_too_short', loc: ['path', 'code'], msg: 'String should have at least 4 characters', input: 'abc', ctx: { min_length: 4 } },
    ],
    [
      `/v1/referrals/${'A'.repeat(65)}`,
      '/v1/referrals/{code}',
      'string_too_long',
      {
        type: 'string_too_long',
        loc: ['path', 'code'],
        msg: 'String should have at most 64 characters',
        input: 'A'.repeat(65),
        ctx: { max_length: 64 },
      },
    ],
    [
      '/v1/referrals/not%20a%20code',
      '/v1/referrals/{code}',
      'string_pattern_mismatch (percent-decoded first)',
      {
        type: 'string_pattern_mismatch',
        loc: ['path', 'code'],
        msg: `String should match pattern '${CODE_PATTERN}'`,
        input: 'not a code',
        ctx: { pattern: CODE_PATTERN },
      },
    ],
    [
      '/v1/courses/%ZZ',
      '/v1/courses/{course_id}',
      'invalid percent-encoding kept literally',
      {
        type: 'string_pattern_mismatch',
        loc: ['path', 'course_id'],
        msg: `String should match pattern '${ID_PATTERN}'`,
        input: '%ZZ',
        ctx: { pattern: ID_PATTERN },
      },
    ],
    [
      '/v1/lessons/ab%C3',
      '/v1/lessons/{lesson_id}',
      'invalid UTF-8 replaced',
      {
        type: 'string_pattern_mismatch',
        loc: ['path', 'lesson_id'],
        msg: `String should match pattern '${ID_PATTERN}'`,
        input: 'ab\uFFFD',
        ctx: { pattern: ID_PATTERN },
      },
    ],
    [
      '/v1/courses/a%2Fb',
      '/v1/courses/{course_id}',
      'an encoded slash stays in the parameter',
      {
        type: 'string_pattern_mismatch',
        loc: ['path', 'course_id'],
        msg: `String should match pattern '${ID_PATTERN}'`,
        input: 'a/b',
        ctx: { pattern: ID_PATTERN },
      },
    ],
  ];

  it.each(cases)('GET %s → 422 (%s: %s)', async (path, route, _what, error) => {
    const res = await get(path);
    expect(res.status).toBe(422);
    expect(documented(res, route, 422)).toEqual({ detail: [error] });
    expectCommonHeaders(res);
  });

  it('checks min length, then max length, then pattern: one error per parameter', async () => {
    const tooLongAndBad = await get(`/v1/courses/${'X'.repeat(70)}`);
    expect((tooLongAndBad.json() as { detail: Array<{ type: string }> }).detail.map((d) => d.type)).toEqual(['string_too_long']);
    const tooShortAndBad = await get('/v1/referrals/a!');
    expect((tooShortAndBad.json() as { detail: Array<{ type: string }> }).detail.map((d) => d.type)).toEqual(['string_too_short']);
  });

  it('a percent-encoded valid id is decoded and found', async () => {
    const res = await get('/v1/courses/python%2Dbasics');
    expect(res.status).toBe(200);
    expect((res.json() as Course).id).toBe('python-basics');
    const lesson = catalog.courses.flatMap((c: Course) => c.classes.flatMap((k) => k.lessons)).find((l) => l.id.includes('-'))!;
    const plain = await get(`/v1/lessons/${lesson.id}`);
    const encoded = await get(`/v1/lessons/${lesson.id.replaceAll('-', '%2D')}`);
    expect([plain.status, encoded.status]).toEqual([200, 200]);
    expect(encoded.text).toBe(plain.text);
  });
});

describe('referrals', () => {
  it.each(TEST_REFERRAL_CODES)('a valid code %s → {"valid":true}', async (code) => {
    const res = await get(`/v1/referrals/${code}`);
    expect(documented(res, '/v1/referrals/{code}', 200)).toEqual({ valid: true });
    expect(res.text).toBe('{"valid":true}');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it.each(['welcome-2026', 'NOT-A-CODE', 'WELCOME-2025'])('an unknown code %s → {"valid":false} and nothing else', async (code) => {
    const res = await get(`/v1/referrals/${code}`);
    expect(documented(res, '/v1/referrals/{code}', 200)).toEqual({ valid: false });
    expect(res.text).toBe('{"valid":false}');
  });
});

describe('conditional requests (RFC 9110 §13.1.2)', () => {
  it.each([
    ['the tag itself', (t: string) => t],
    ['the weak form', (t: string) => `W/${t}`],
    ['a list containing it', (t: string) => `"nope", ${t}`],
    ['*', () => '*'],
  ])('If-None-Match with %s → 304 without a body', async (_what, header) => {
    const first = await get('/v1/catalog');
    const res = await get('/v1/catalog', { 'if-none-match': header(first.headers.etag!) });
    expect(res.status).toBe(304);
    expect(res.body.length).toBe(0);
    expect(res.headers.etag).toBe(first.headers.etag);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['content-type']).toBeUndefined();
    expectCommonHeaders(res);
  });

  it('each content coding has its own strong tag (RFC 9110 §8.8.3), and a tag of any coding revalidates', async () => {
    const identity = await get('/v1/catalog', { 'accept-encoding': 'identity' });
    const gzip = await get('/v1/catalog', { 'accept-encoding': 'gzip' });
    const br = await get('/v1/catalog', { 'accept-encoding': 'br' });
    expect([identity, gzip, br].map((r) => r.headers['content-encoding'])).toEqual([undefined, 'gzip', 'br']);
    const tags = [identity, gzip, br].map((r) => r.headers.etag!);
    expect(new Set(tags).size).toBe(3);
    for (const tag of tags) expect(tag).toMatch(/^"[A-Za-z0-9_.-]+"$/);
    for (const held of tags) {
      const res = await get('/v1/catalog', { 'accept-encoding': 'br', 'if-none-match': held });
      expect(res.status).toBe(304);
      expect(res.headers.etag).toBe(br.headers.etag); // the tag of the form this request would have been sent
    }
  });

  it('a referral check (no-store) carries no validator, and If-None-Match does not apply to it', async () => {
    const res = await get('/v1/referrals/WELCOME-2026');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
    const star = await get('/v1/referrals/WELCOME-2026', { 'if-none-match': '*' });
    expect(star.status).toBe(200);
    expect(star.json()).toEqual({ valid: true });
  });

  it('a different tag → 200', async () => {
    const res = await get('/v1/catalog', { 'if-none-match': '"something-else", W/"x"' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
  });

  it('ETags differ between resources and are stable across requests', async () => {
    const a = await get('/v1/courses/python-basics');
    const b = await get('/v1/courses/sql-basics');
    expect(a.headers.etag).not.toBe(b.headers.etag);
    expect((await get('/v1/courses/python-basics')).headers.etag).toBe(a.headers.etag);
  });
});

describe('content coding (Accept-Encoding with q-values)', () => {
  it.each([
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.4, gzip;q=0.9', 'gzip'],
    ['identity', undefined],
    ['gzip;q=0, br;q=0', undefined],
  ])('Accept-Encoding: %s → %s', async (accept, coding) => {
    const plain = await get('/v1/catalog');
    const res = await get('/v1/catalog', { 'accept-encoding': accept });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(coding);
    expect(res.headers.vary).toBe('Accept-Encoding');
    // Each coding is its own representation with its own strong tag: the identity tag plus `.gz` or `.br`.
    const suffix = coding === 'gzip' ? '.gz' : coding === 'br' ? '.br' : '';
    expect(res.headers.etag).toBe(plain.headers.etag!.replace(/"$/, `${suffix}"`));
    const decoded = coding === 'gzip' ? gunzipSync(res.body) : coding === 'br' ? brotliDecompressSync(res.body) : res.body;
    expect(decoded.equals(plain.body)).toBe(true);
    if (coding) expect(res.body.length).toBeLessThan(plain.body.length);
  });

  it('a body under 1 KiB is sent as is, whatever the client accepts', async () => {
    const res = await get('/v1/health', { 'accept-encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.json()).toEqual({ status: 'ok', version: 'v1' });
  });

  it('without Accept-Encoding the body is identity', async () => {
    const res = await get('/v1/catalog');
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});

describe('CORS', () => {
  it('a preflight is answered 204 with the allowed methods', async () => {
    const res = await send('OPTIONS', '/v1/catalog', {
      origin: 'https://app.example',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'if-none-match',
    });
    expect(res.status).toBe(204);
    expect(res.body.length).toBe(0);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    expect(res.headers['access-control-allow-headers']).toBe('*');
    expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
  });

  it('a preflight reports the read budget, like every response, without spending it', async () => {
    const preflight = () => send('OPTIONS', '/v1/catalog', { origin: 'https://app.example', 'access-control-request-method': 'GET' });
    const first = await preflight();
    expect(first.headers['ratelimit-policy']).toMatch(/^\d+;w=60$/);
    const second = await preflight();
    expect(second.headers['ratelimit-remaining']).toBe(first.headers['ratelimit-remaining']);
  });

  it('actual responses expose the ETag, RateLimit, Retry-After and deprecation headers', async () => {
    expectCommonHeaders(await get('/v1/catalog', { origin: 'https://app.example' }));
  });
});

describe('request id and access log', () => {
  it('echoes a well-formed X-Request-Id and logs it with the request', async () => {
    const res = await get('/v1/catalog', { 'x-request-id': 'trace-42.abc' });
    expect(res.headers['x-request-id']).toBe('trace-42.abc');
    const line = await srv.accessLine('trace-42.abc');
    const catalog = await get('/v1/catalog');
    expect(line).toMatchObject({
      msg: 'request',
      method: 'GET',
      path: '/v1/catalog',
      route: '/v1/catalog',
      status: 200,
      bytes: Number(catalog.headers['content-length']),
      client_address: '127.0.0.1',
      client_kind: 'anonymous',
      revision: JSON.parse((await get('/health')).body.toString()).revision,
    });
    expect(typeof line.duration_ms).toBe('number');
    expect(line.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/); // ISO 8601, UTC

    await get('/v1/courses/no-such-course', { 'x-request-id': 'trace-43', 'user-agent': 'curl/8.5.0' });
    expect(await srv.accessLine('trace-43')).toMatchObject({
      route: '/v1/courses/{course_id}',
      status: 404,
      user_agent: 'curl/8.5.0',
    });
    await get('/nothing/here', { 'x-request-id': 'trace-44' });
    expect(await srv.accessLine('trace-44')).not.toHaveProperty('route'); // unmatched: no template to name
  });

  it('replaces a malformed one with a fresh UUID', async () => {
    const res = await get('/v1/catalog', { 'x-request-id': 'bad id with spaces' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('gives every response its own id', async () => {
    const [a, b] = await Promise.all([get('/v1/health'), get('/v1/health')]);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});

describe('hostile requests never get a 500', () => {
  it.each([
    '/v1/courses/%',
    '/v1/courses/%E0%A4%A',
    '/v1/lessons/%00',
    `/v1/courses/${'%F0%9F%98%80'.repeat(70)}`,
    '/v1/referrals/%FF%FE%FD%FC',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/v1/catalog?x=%ZZ',
  ])('GET %s', async (path) => {
    const res = await get(path);
    expect(res.status).toBeLessThan(500);
    expect(res.text).not.toMatch(/at .*\(.*:\d+:\d+\)/);
  });

  it('an oversized request head is refused with 431, not a crash', async () => {
    const res = await get('/v1/catalog', { 'x-filler': 'a'.repeat(20_000) });
    expect(res.status).toBe(431);
  });
});

describe('other representations served from the index: /openapi.json, /docs, pages', () => {
  it('GET /openapi.json: OpenAPI 3.1 with ETag, compressible, 304 on If-None-Match', async () => {
    // Built by its first request, compressed after it.
    expect((await get('/openapi.json')).status).toBe(200);
    await vi.waitFor(async () => expect((await get('/openapi.json', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBe('gzip'));
    const res = await get('/openapi.json', { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect((JSON.parse(gunzipSync(res.body).toString('utf8')) as { openapi: string }).openapi).toBe('3.1.0');
    expect((await get('/openapi.json', { 'if-none-match': res.headers.etag! })).status).toBe(304);
    expectCommonHeaders(res);
  });

  it.each(['/openapi.json', '/docs', '/'])('HEAD %s: 200, the GET headers, no body', async (path) => {
    const full = await get(path);
    const res = await send('HEAD', path);
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
    expect(res.headers.etag).toBe(full.headers.etag);
    expect(res.headers['content-length']).toBe(String(full.body.length));
  });

  it.each(['/openapi.json', '/docs', '/changelog'])('POST %s → 405 with Allow: GET, HEAD, OPTIONS', async (path) => {
    const res = await send('POST', path);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('GET /docs is HTML', async () => {
    const res = await get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});

describe('the schema check itself', () => {
  it('rejects a body that breaks its schema (so the checks above can fail)', () => {
    expect(schemaProblems('Catalog', { courses: [{ id: 'x' }] }).length).toBeGreaterThan(0);
    expect(schemaProblems('ReferralCheck', { valid: true, owner: 'someone' }).length).toBeGreaterThan(0);
    expect(api.check('/v1/lessons/{lesson_id}', 'get', 200, { id: 'x' }).length).toBeGreaterThan(0);
  });
});
