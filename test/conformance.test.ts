/**
 * The conformance matrix: the app served by its two adapters, the HatTip handler on `@hattip/adapter-node` and the
 * production Node host (`src/server/node-adapter.ts`), built alike from the production wiring (`composeApp`,
 * `indexBuilder`), gets the same requests (routes × methods × conditional and encoding fields × error cases, every
 * client kind, a budget running out, behind `TRUST_PROXY`) and both must send the same status, header fields and
 * body bytes (`comparable`), write the same access-log lines and count the same metrics. Each adapter has its own
 * budget store on the same frozen clock, so the RateLimit fields agree to the second.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_COMPRESSIBLE_BYTES } from '../src/index/representation.js';
import { codeDigest } from '../src/referrals/digests.js';
import { loadConfig } from '../src/server/config.js';
import { ServiceMetrics } from '../src/server/metrics.js';
import {
  generateAgentKey,
  jwksHandler,
  signRequest,
  startDirectoryServer,
  type AgentKey,
  type DirectoryServer,
} from './fixtures/signatures/agent.js';
import { comparable, startBothAdapters, type AdapterKind, type Served } from './helpers/both-adapters.js';
import { writeContentFixture } from './helpers/content-fixture.js';
import { eventually } from './helpers/eventually.js';
import { rawRequest, type RawResponse } from './helpers/http.js';

const PUBLIC = 'https://catalog.example';
const DECLARED_UA = 'acme-sync/2.1 (+https://acme.example/bot)';
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0';
/** Small enough for an anonymous client to run out in the budget test. */
const ANONYMOUS_LIMIT = 3;

interface Adapter {
  served: Served;
  logs: Array<Record<string, unknown>>;
  metrics: ServiceMetrics;
}

let root: string;
let key: AgentKey;
let directory: DirectoryServer;
const adapters = {} as Record<AdapterKind, Adapter>;
/** `RateLimit-Policy` of a verified agent. */
let verifiedPolicy: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'syllabus-conformance-'));
  const contentDir = await writeContentFixture(join(root, 'content'));
  const referralsFile = join(root, 'referrals.txt');
  await writeFile(referralsFile, `${codeDigest('WELCOME-2026')}\n`);
  key = await generateAgentKey();
  directory = await startDirectoryServer(jwksHandler([key.publicJwk], { 'cache-control': 'max-age=300' }));
  const config = loadConfig(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      CONTENT_DIR: contentDir,
      REFERRALS_FILE: referralsFile,
      LOG_LEVEL: 'info',
      TRUST_PROXY: 'loopback',
      KEY_DIRECTORY_ALLOW_INSECURE: '1',
      SIGNATURE_AUTHORITIES: 'catalog.example',
      RATE_LIMIT_ANONYMOUS: String(ANONYMOUS_LIMIT),
      RATE_LIMIT_BROWSER: String(ANONYMOUS_LIMIT + 1),
    },
    root,
  );
  verifiedPolicy = `${config.rateLimits.verified};w=60`;
  const made = {} as Record<AdapterKind, Omit<Adapter, 'served'>>;
  const served = await startBothAdapters(config, contentDir, (kind) => {
    const logs: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') logs.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const metrics = new ServiceMetrics();
    made[kind] = { logs, metrics };
    return { sink, observers: [metrics.observeRequest] };
  });
  adapters.hattip = { served: served.hattip, ...made.hattip };
  adapters.node = { served: served.node, ...made.node };
});

afterAll(async () => {
  await Promise.all([adapters.hattip?.served.close(), adapters.node?.served.close(), directory?.close()]);
  await rm(root, { recursive: true, force: true });
});

/** Sends the same request to both adapters (HatTip first) and returns both answers (every request goes to both, so
 * that their logs and metrics stay comparable). */
async function both(method: string, target: string, headers: Record<string, string>): Promise<Record<AdapterKind, RawResponse>> {
  const hattip = await rawRequest(adapters.hattip.served.url, target, { method, headers });
  const node = await rawRequest(adapters.node.served.url, target, { method, headers });
  return { hattip, node };
}

let nextClient = 0;
/** A client address of its own behind the trusted proxy, so that no budget of the matrix runs out. */
function client(): Record<string, string> {
  nextClient++;
  return {
    'x-forwarded-for': `203.0.${Math.floor(nextClient / 250)}.${(nextClient % 250) + 1}`,
    'x-forwarded-proto': 'https',
    'x-forwarded-host': 'catalog.example',
  };
}

let nextRequest = 0;
/** Sends `method target` with `headers` from a new client to both adapters and expects the same answer. */
async function expectSame(method: string, target: string, headers: Record<string, string>): Promise<Record<AdapterKind, RawResponse>> {
  const answers = await both(method, target, { ...client(), ...headers, 'x-request-id': `matrix-${nextRequest++}` });
  expect(comparable(answers.node), `${method} ${target} ${JSON.stringify(headers)}`).toEqual(comparable(answers.hattip));
  return answers;
}

/** A course with a lesson, from the catalog. */
async function someLesson(): Promise<{ course: string; lesson: string }> {
  const catalog = (await both('GET', '/v1/catalog', { ...client(), 'user-agent': DECLARED_UA })).node.json() as {
    courses: Array<{ id: string; classes: Array<{ lessons: Array<{ id: string }> }> }>;
  };
  const course = catalog.courses.find((c) => c.classes.some((k) => k.lessons.length > 0))!;
  return { course: course.id, lesson: course.classes.find((k) => k.lessons.length > 0)!.lessons[0]!.id };
}

describe('the HatTip handler on @hattip/adapter-node and the production Node host', () => {
  it('answer every request of the matrix alike', async () => {
    const { course, lesson } = await someLesson();
    // A page or a lesson body is made by its first request and compressed in the background after it, and both
    // adapters serve one index: made and compressed first, so that no answer depends on how far that went.
    for (const target of [`/courses/${course}`, `/v1/lessons/${lesson}`, '/']) {
      await eventually(
        async () => {
          const answers = await both('GET', target, { ...client(), accept: 'text/html', 'accept-encoding': 'gzip' });
          return Object.values(answers).every((res) => res.headers['content-encoding'] === 'gzip' || res.body.byteLength < MIN_COMPRESSIBLE_BYTES);
        },
        { what: `the compressed forms of ${target}` },
      );
    }
    const targets = [
      '/v1/catalog',
      '/v1/catalog?view=full',
      `/v1/courses/${course}`,
      `/v1/courses/%${course.charCodeAt(0).toString(16)}${course.slice(1)}`,
      `/v1/lessons/${lesson}`,
      '/v1/lessons/no-such-lesson',
      '/v1/lessons/Not%20An%20Id',
      // A 422 body is text, encoded as it is written: two-, three- and four-byte characters, and invalid UTF-8.
      '/v1/lessons/caf%C3%A9-%E2%82%AC-%F0%9F%98%80',
      '/v1/lessons/%FF%D8x',
      '/v1/lessons/a%zz',
      '/v1/lessons/%2e%2e/%2E',
      '/v1/lessons/../catalog',
      '/v1/referrals/WELCOME-2026',
      '/v1/referrals/no',
      '/health',
      '/',
      `/courses/${course}`,
      '/courses/no-such-course',
      '/openapi.json',
      '/no-such-path',
    ];
    const methods = ['GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE'];
    for (const target of targets) {
      const first = await expectSame('GET', target, { 'user-agent': DECLARED_UA });
      const etag = first.node.headers.etag;
      const variants: Array<Record<string, string>> = [
        {},
        { 'accept-encoding': 'gzip' },
        { 'accept-encoding': 'br, gzip' },
        { accept: 'text/html' },
        { 'if-none-match': '"other"' },
        ...(etag === undefined ? [] : [{ 'if-none-match': etag }, { 'if-none-match': `W/"x", ${etag}`, 'accept-encoding': 'gzip' }]),
      ];
      for (const method of methods) {
        for (const variant of variants) await expectSame(method, target, { 'user-agent': DECLARED_UA, ...variant });
      }
    }
  });

  it('classify every client kind alike, a verified agent included', async () => {
    const { lesson } = await someLesson();
    const kinds: Record<string, (target: string) => Promise<Record<string, string>>> = {
      anonymous: () => Promise.resolve({}),
      declared: () => Promise.resolve({ 'user-agent': DECLARED_UA }),
      browser: () => Promise.resolve({ 'user-agent': BROWSER_UA, accept: 'text/html' }),
      verified: async (target) => ({ 'user-agent': DECLARED_UA, ...(await signRequest(`${PUBLIC}${target}`, { key, agent: directory.origin })) }),
    };
    for (const [kind, headersFor] of Object.entries(kinds)) {
      for (const target of ['/v1/catalog', `/v1/lessons/${lesson}`, '/', '/v1/lessons/no-such-lesson']) {
        const { node } = await expectSame('GET', target, await headersFor(target));
        if (kind === 'verified') expect(node.headers['ratelimit-policy']).toBe(verifiedPolicy);
      }
    }
  });

  it('refuse a client over its budget alike: 429 with Retry-After and the RateLimit fields', async () => {
    for (const [target, extra] of [
      ['/v1/catalog', {}],
      ['/', { 'user-agent': BROWSER_UA, accept: 'text/html' }],
    ] as const) {
      const headers = { ...client(), ...extra };
      let last: RawResponse | undefined;
      for (let i = 0; i <= ANONYMOUS_LIMIT + 1 && last?.status !== 429; i++) {
        const answers = await both('GET', target, { ...headers, 'x-request-id': `budget-${i}` });
        expect(comparable(answers.node)).toEqual(comparable(answers.hattip));
        last = answers.node;
      }
      expect(last!.status).toBe(429);
      expect(last!.headers['retry-after']).toMatch(/^\d+$/);
    }
  });

  it('make an id for a request without one, and echo a well-formed one', async () => {
    const made = await both('GET', '/v1/catalog', client());
    expect(made.node.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.hattip.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await both('GET', '/v1/catalog', { ...client(), 'x-request-id': 'kept-1' });
    expect([kept.node.headers['x-request-id'], kept.hattip.headers['x-request-id']]).toEqual(['kept-1', 'kept-1']);
  });

  it("the production host states the body's length on a HEAD answer as on the GET", async () => {
    for (const target of ['/health', '/', '/openapi.json']) {
      const get = (await both('GET', target, client())).node;
      const head = (await both('HEAD', target, client())).node;
      expect(head.status, target).toBe(200);
      expect(head.headers['content-length'], target).toBe(String(get.body.byteLength));
    }
  });

  it('write the same access-log lines and count the same metrics', async () => {
    const lines = (a: Adapter) =>
      a.logs
        .filter((l) => l.msg === 'request' && typeof l.request_id === 'string' && !/^[0-9a-f-]{36}$/.test(l.request_id))
        .map((line) => {
          // When it was written and how long it took are the only fields that may differ.
          const rest = { ...line };
          delete rest.time;
          delete rest.duration_ms;
          return rest;
        });
    expect(lines(adapters.node).length).toBeGreaterThan(500);
    expect(lines(adapters.node)).toEqual(lines(adapters.hattip));
    const requestCounts = async (a: Adapter) =>
      (await a.metrics.render()).body.split('\n').filter((l) => l.startsWith('syllabus_http_requests_total{'));
    expect(await requestCounts(adapters.node)).toEqual(await requestCounts(adapters.hattip));
  });
});
