/**
 * The served `/openapi.json` against the real server: it is the built document, and every answer of every
 * endpoint (200, 304, 404, 422, 429) has a documented status, the documented required headers, and a body
 * that validates (ajv) against the schema in the served document.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/server/openapi-document.js';
import { OpenApiResponses } from './helpers/openapi.js';
import { startTestServer, TEST_REFERRAL_CODES, type TestServer } from './helpers/server.js';

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const UA = { 'User-Agent': 'syllabus-openapi-contract-test/1.0 (+https://syllabus.example/test)' };

let server: TestServer;
let doc: Record<string, any>;
let responses: OpenApiResponses;

beforeAll(async () => {
  server = await startTestServer();
  const res = await fetch(`${server.url}/openapi.json`, { headers: UA });
  expect(res.status).toBe(200);
  doc = (await res.json()) as Record<string, any>;
  responses = new OpenApiResponses(doc);
});

afterAll(async () => {
  await server?.close();
});

/** Fetches `path` and checks the answer against what the served document says of `route` and that status. */
async function checkAgainstDocument(
  path: string,
  route: string,
  expectedStatus: number,
  init: RequestInit = {},
): Promise<{ res: Response; body: unknown }> {
  const method = (init.method ?? 'GET').toLowerCase();
  const res = await fetch(`${server.url}${path}`, { ...init, headers: { ...UA, ...(init.headers as Record<string, string>) } });
  expect(res.status, `${method} ${path}`).toBe(expectedStatus);
  for (const [name, required] of responses.headers(route, method, res.status)) {
    if (required) expect(res.headers.get(name), `${method} ${path} ${res.status} header ${name}`).not.toBeNull();
  }
  const text = await res.text();
  if (method === 'head' || res.status === 304) {
    expect(text).toBe('');
    return { res, body: undefined };
  }
  expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
  const body = JSON.parse(text) as unknown;
  expect(responses.check(route, method, res.status, body), `${method} ${path} ${res.status}`).toEqual([]);
  return { res, body };
}

describe('served /openapi.json', () => {
  it('is the document built from schemas/, same-origin, JSON with an ETag and the RateLimit headers', async () => {
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument({ version, rateLimits: server.config.rateLimits }))));
    expect(doc.servers).toEqual([{ url: '/', description: 'This service' }]);
    const res = await fetch(`${server.url}/openapi.json`, { headers: UA });
    expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy']) {
      expect(res.headers.get(name), name).not.toBeNull();
    }
  });
});

describe('every endpoint answers as documented', () => {
  it('GET and HEAD /health', async () => {
    const { body } = await checkAgainstDocument('/health', '/health', 200);
    expect(Object.values(body as object).every((v) => typeof v === 'string')).toBe(true);
    await checkAgainstDocument('/health', '/health', 200, { method: 'HEAD' });
  });

  it('the fixed /v1 routes, with ETag and a documented 304', async () => {
    for (const route of ['/v1/health', '/v1/catalog', '/v1/changelog', '/v1/roadmap']) {
      const { res } = await checkAgainstDocument(route, route, 200);
      const etag = res.headers.get('etag');
      expect(etag, route).toMatch(/^"[^"]+"$/);
      await checkAgainstDocument(route, route, 304, { headers: { 'If-None-Match': etag! } });
    }
  });

  it('every course and lesson of the catalog, and their 404 and 422', async () => {
    const catalog = (await (await fetch(`${server.url}/v1/catalog`, { headers: UA })).json()) as {
      courses: Array<{ id: string; classes: Array<{ lessons: Array<{ id: string }> }> }>;
    };
    expect(catalog.courses.length).toBeGreaterThan(0);
    let lessons = 0;
    for (const course of catalog.courses) {
      await checkAgainstDocument(`/v1/courses/${course.id}`, '/v1/courses/{course_id}', 200);
      for (const lesson of course.classes.flatMap((k) => k.lessons).slice(0, 2)) {
        await checkAgainstDocument(`/v1/lessons/${lesson.id}`, '/v1/lessons/{lesson_id}', 200);
        lessons++;
      }
    }
    expect(lessons).toBeGreaterThan(0);

    const course404 = await checkAgainstDocument('/v1/courses/no-such-course', '/v1/courses/{course_id}', 404);
    expect(course404.body).toEqual({ detail: 'Course not found' });
    const lesson404 = await checkAgainstDocument('/v1/lessons/no-such-lesson', '/v1/lessons/{lesson_id}', 404);
    expect(lesson404.body).toEqual({ detail: 'Lesson not found' });

    const tooLong = await checkAgainstDocument(`/v1/courses/${'a'.repeat(65)}`, '/v1/courses/{course_id}', 422);
    expect((tooLong.body as any).detail[0]).toMatchObject({ type: 'string_too_long', loc: ['path', 'course_id'], ctx: { max_length: 64 } });
    const pattern = await checkAgainstDocument('/v1/lessons/Not%20An%20Id', '/v1/lessons/{lesson_id}', 422);
    const spec = doc.paths['/v1/lessons/{lesson_id}'].parameters[0].schema;
    expect((pattern.body as any).detail[0]).toMatchObject({
      type: 'string_pattern_mismatch',
      loc: ['path', 'lesson_id'],
      msg: `String should match pattern '${spec.pattern}'`,
      ctx: { pattern: spec.pattern },
    });
  });

  it('referral checks: 200 {valid} and the 422s of a too short or malformed code', async () => {
    const { body } = await checkAgainstDocument('/v1/referrals/NOT-A-REAL-CODE-123', '/v1/referrals/{code}', 200);
    expect(body).toEqual({ valid: false });
    const valid = await checkAgainstDocument(`/v1/referrals/${TEST_REFERRAL_CODES[0]}`, '/v1/referrals/{code}', 200);
    expect(valid.body).toEqual({ valid: true });
    const short = await checkAgainstDocument('/v1/referrals/abc', '/v1/referrals/{code}', 422);
    expect((short.body as any).detail[0]).toMatchObject({ type: 'string_too_short', ctx: { min_length: 4 } });
    await checkAgainstDocument('/v1/referrals/bad%20code', '/v1/referrals/{code}', 422);
  });

  it('429 with Retry-After and {"detail":"Too Many Requests"} once the budget is spent', async () => {
    // A server of its own with a tiny anonymous budget; requests without User-Agent spend it.
    const limited = await startTestServer({ env: { RATE_LIMIT_ANONYMOUS: '2' } });
    try {
      const anonymous = { 'User-Agent': '' };
      const statuses: number[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${limited.url}/v1/health`, { headers: anonymous });
        statuses.push(res.status);
        await res.arrayBuffer();
      }
      expect(statuses).toEqual([200, 200]);
      const res = await fetch(`${limited.url}/v1/roadmap`, { headers: anonymous });
      expect(res.status).toBe(429);
      for (const [name, required] of responses.headers('/v1/roadmap', 'get', 429)) {
        if (required) expect(res.headers.get(name), name).not.toBeNull();
      }
      const body = (await res.json()) as unknown;
      expect(body).toMatchObject({ detail: 'Too Many Requests', retry_after_seconds: expect.any(Number) });
      expect(responses.check('/v1/roadmap', 'get', 429, body)).toEqual([]);
      expect(res.headers.get('retry-after')).toBe(res.headers.get('ratelimit-reset'));
      // /openapi.json and /docs are never refused.
      expect((await fetch(`${limited.url}/openapi.json`, { headers: anonymous })).status).toBe(200);
      expect((await fetch(`${limited.url}/docs`, { headers: anonymous })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
