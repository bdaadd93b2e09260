/**
 * Keeps the rival apps of the benchmark honest (bench/rivals/): each, started on a spec captured from the real
 * service, must send the raw baseline's bytes and header fields, its 304, the contract's 404 and 422 bodies, and
 * the RateLimit fields of its plugin at the service's budget. Nothing here measures or asserts a timing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateContent } from '../bench/generate-content.js';
import { RIVALS, rivalSpecPaths, sameContent, startRivals, type RivalName } from '../bench/http.js';
import { buildBundles, repoRoot, type Bundles } from '../bench/lib/build.js';
import { captureSpec, headerOf, rawGet, type BaselineSpec } from '../bench/lib/capture.js';
import { RAISED_LIMITS, startBaseline, startServerProcess, waitUntilCompressed, type ServerProcess } from '../bench/lib/servers.js';
import { renderMarkdown, runInfo } from '../bench/report.js';
import { ID_MAX_LENGTH } from '../src/contract/params.js';

const UA = { 'User-Agent': 'bench-agent/1.0 (+https://bench.example)' };
const outdir = join(repoRoot, 'bench', 'out', `smoke-rivals-${process.pid}`);

let work: string;
let bundles: Bundles;
let ours: ServerProcess;
let baseline: ServerProcess;
let spec: BaselineSpec;
let rivals: Record<RivalName, ServerProcess>;
let course: string;
let lesson: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'syllabus-bench-rivals-'));
  bundles = await buildBundles(outdir);
  const tree = join(work, 'content');
  await generateContent(tree, { lessons: 12 });
  ours = await startServerProcess(bundles.server, [], { env: { CONTENT_DIR: tree } });
  await waitUntilCompressed(ours.url, '/v1/catalog');
  const catalog = JSON.parse((await rawGet(`${ours.url}/v1/catalog`, UA)).bytes.toString()) as {
    courses: { id: string; classes: { lessons: { id: string }[] }[] }[];
  };
  const withLesson = catalog.courses.find((c) => c.classes.some((k) => k.lessons.length > 0))!;
  course = withLesson.id;
  lesson = withLesson.classes.find((k) => k.lessons.length > 0)!.lessons[0]!.id;
  spec = await captureSpec(ours.url, rivalSpecPaths(course, lesson), UA);
  baseline = await startBaseline(bundles.baseline, spec, join(work, 'spec.json'), '/v1/catalog');
  rivals = await startRivals(bundles, spec, join(work, 'rivals.json'));
}, 120_000);

afterAll(async () => {
  await Promise.all([ours?.child.stop(), baseline?.child.stop(), ...Object.values(rivals ?? {}).map((r) => r.child.stop())]);
  await rm(outdir, { recursive: true, force: true });
  if (work) await rm(work, { recursive: true, force: true });
});

describe.each(RIVALS)('the %s rival', (name) => {
  const get = (path: string, headers: Record<string, string> = {}) => rawGet(rivals[name].url + path, { ...UA, ...headers });
  const fromBaseline = (path: string, headers: Record<string, string> = {}) => rawGet(baseline.url + path, { ...UA, ...headers });

  it("answers /v1/catalog with the baseline spec's body bytes, ETag and header fields, plain and gzip", async () => {
    const plain = await get('/v1/catalog');
    expect(plain.status).toBe(200);
    expect(plain.bytes.equals(Buffer.from(spec.routes['/v1/catalog']!.plain.body, 'base64'))).toBe(true);
    expect(headerOf(plain, 'etag')).toBe(spec.routes['/v1/catalog']!.etag);
    expect(sameContent(plain, await fromBaseline('/v1/catalog'))).toBe(true);

    const gzip = await get('/v1/catalog', { 'Accept-Encoding': 'gzip' });
    expect(headerOf(gzip, 'content-encoding')).toBe('gzip');
    expect(sameContent(gzip, await fromBaseline('/v1/catalog', { 'Accept-Encoding': 'gzip' }))).toBe(true);
  });

  it('answers 304 to a matching If-None-Match, with the same fields as the baseline', async () => {
    const conditional = { 'If-None-Match': spec.routes['/v1/catalog']!.etag! };
    const answer = await get('/v1/catalog', conditional);
    expect(answer.status).toBe(304);
    expect(answer.bytes.byteLength).toBe(0);
    expect(sameContent(answer, await fromBaseline('/v1/catalog', conditional))).toBe(true);
  });

  it("sends its plugin's RateLimit fields at the service's budget, counting down per client, and an X-Request-Id", async () => {
    const first = await get('/v1/catalog');
    const second = await get('/v1/catalog');
    expect(headerOf(first, 'ratelimit-limit')).toBe(RAISED_LIMITS.RATE_LIMIT_DECLARED);
    expect(Number(headerOf(second, 'ratelimit-remaining'))).toBe(Number(headerOf(first, 'ratelimit-remaining')) - 1);
    expect(headerOf(first, 'x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(headerOf(first, 'x-request-id')).not.toBe(headerOf(second, 'x-request-id'));
  });

  it('serves every captured route as the baseline does: course, lesson, 404s, 422, health', async () => {
    for (const path of rivalSpecPaths(course, lesson)) {
      expect([path, sameContent(await get(path), await fromBaseline(path))]).toEqual([path, true]);
    }
  });

  it("builds a 422 for any invalid id as the service does (the contract's FastAPI body)", async () => {
    for (const path of ['/v1/courses/Bad%20Id', '/v1/lessons/a--b', `/v1/courses/${'a'.repeat(ID_MAX_LENGTH + 1)}`]) {
      const service = await rawGet(ours.url + path, UA);
      expect(service.status).toBe(422);
      expect([path, sameContent(await get(path), service)]).toEqual([path, true]);
    }
  });
});

describe('the rivals under a small budget', () => {
  it("refuse the client once the service's budget (from its RateLimit-Policy) is spent", async () => {
    const policed = structuredClone(spec);
    const catalog = policed.routes['/v1/catalog']!.plain;
    catalog.headers = catalog.headers.map(([n, v]): [string, string] => [n, n.toLowerCase() === 'ratelimit-policy' ? '3;w=60' : v]);
    const small = await startRivals(bundles, policed, join(work, 'small.json'));
    try {
      for (const name of RIVALS) {
        // The readiness probe spent one request of the address's budget.
        const statuses: number[] = [];
        for (let i = 0; i < 3; i++) statuses.push((await rawGet(`${small[name].url}/v1/catalog`, UA)).status);
        expect([name, statuses]).toEqual([name, [200, 200, 429]]);
      }
    } finally {
      await Promise.all(Object.values(small).map((r) => r.child.stop()));
    }
  });
});

describe('report', () => {
  it('renders the rivals next to the service, and the faster-than-both verdict per configuration and overall', () => {
    const sideOf = (requestsPerSecond: number) => ({ requestsPerSecond, p50Ms: 1, p99Ms: 2, rssMiB: 50, cpuUsPerRequest: 30, runs: [] });
    const rival = (requestsPerSecond: number) => ({
      side: sideOf(requestsPerSecond),
      rpsRatio: requestsPerSecond / 2000,
      p99Ratio: 1,
      cpuRatio: 1,
      sameContent: true,
    });
    const scenario = (name: string, fastify: number) => ({
      name,
      path: '/v1/catalog',
      client: 'declared',
      status: 200,
      classifiedAs: 'declared',
      bodyBytes: 100,
      baselineIdentical: true,
      ours: sideOf(1500),
      baseline: sideOf(2000),
      rpsRatio: 0.75,
      p99Ratio: 1,
      cpuRatio: 1,
      rivals: { fastify: rival(fastify), hono: rival(1000) },
    });
    const md = renderMarkdown(
      {
        run: runInfo(true, {}),
        http: { directoryFetches: 0, scenarios: [scenario('catalog', 1200), scenario('health', 1600)] },
        profiles: [],
      },
      '',
    );
    expect(md).toMatch(/\| catalog \|.*\| 0\.6× \(1,200; 30 µs\) \| 0\.5× \(1,000; 30 µs\) \| \*\*met\*\* \|/);
    expect(md).toMatch(/\| health \|.*\| 0\.8× \(1,600; 30 µs\) \| 0\.5× \(1,000; 30 µs\) \| \*\*missed\*\* \|/);
    expect(md).toContain('Faster than both Fastify and Hono: 1 of 2 configurations — **missed**. Less server CPU per request than both: 0 of 2.');
    expect(md).toMatch(/\| the same app on Fastify 5 and Hono 4 .*\| faster in 1 of 2 \(not in: health\) \| \*\*missed\*\* \|/);
  });
});
