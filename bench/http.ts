/**
 * HTTP throughput of the service against the raw `node:http` baseline, path by path and client by client, and
 * the HatTip handler on its two possible Node hosts. Every configuration runs `reps` times in alternating order
 * (ours, baseline, ours, baseline…), each measured run preceded by a warm-up; medians are reported.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureSpec, headerOf, rawGet } from './lib/capture.js';
import { cpuTimeUs, memoryOf } from './lib/proc.js';
import { kindOfPolicy, startBaseline, startServerProcess, waitUntilCompressed, type ServerProcess } from './lib/servers.js';
import { startBenchAgent } from './lib/signing.js';
import { median, mib, round } from './lib/stats.js';
import { runWrk, type WrkResult } from './lib/wrk.js';
import type { Bundles } from './lib/build.js';

/** Durations and repetitions of the HTTP runs. */
export interface HttpBenchOptions {
  bundles: Bundles;
  /** Content folder served (the repository's `content/`). */
  contentDir: string;
  /** Seconds of each warm-up run. */
  warmupS: number;
  /** Seconds of each measured run. */
  measureS: number;
  /** Measured runs per configuration and server (≥ 2). */
  reps: number;
  /** wrk connections. */
  connections: number;
  /** Progress lines. */
  log: (line: string) => void;
}

/** One side (ours or the baseline) of a configuration: medians over the measured runs. */
export interface SideResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Server RSS after the measured runs, MiB (median over runs). */
  rssMiB: number;
  /** Server CPU time (user + system) per request during the measured runs, microseconds (median over runs). */
  cpuUsPerRequest: number;
  /** Every measured run (requests/s, p50, p99), for the JSON. */
  runs: {
    requestsPerSecond: number;
    p50Ms: number;
    p99Ms: number;
    non2xx3xx: number;
    socketErrors: number;
    rssMiB: number;
    cpuUsPerRequest: number;
  }[];
}

/** One configuration: a path and a client, served by ours and by the baseline. */
export interface ScenarioResult {
  name: string;
  path: string;
  client: string;
  status: number;
  /** How the service classified the client (from RateLimit-Policy under the raised budgets). */
  classifiedAs: string;
  /** Response body size in bytes, as sent. */
  bodyBytes: number;
  /** Whether the baseline sent the same status, header fields and body bytes. */
  baselineIdentical: boolean;
  ours: SideResult;
  baseline: SideResult;
  /** ours / baseline requests per second. */
  rpsRatio: number;
  /** ours / baseline p99 latency. */
  p99Ratio: number;
  /** baseline / ours server CPU time per request: the throughput ratio an otherwise idle core would give. */
  cpuRatio: number;
}

/** The host comparison (same app, two hosts, and the baseline for scale). */
export interface HostsResult {
  path: string;
  hono: SideResult;
  hattip: SideResult;
  baseline: SideResult;
  honoRatio: number;
  hattipRatio: number;
}

const DECLARED_UA = 'bench-agent/1.0 (+https://bench.example)';
const FRESH_SIGNATURES_LUA = fileURLToPath(new URL('./fresh-signatures.lua', import.meta.url));

interface Scenario {
  name: string;
  path: string;
  client: 'declared' | 'anonymous' | 'verified';
  extraHeaders?: Record<string, string>;
  expectStatus: number;
  /** Served by a second service process at `LOG_LEVEL=info` (access log on, written to /dev/null). */
  accessLog?: boolean;
  /** A wrk script and its arguments, for both servers (e.g. another signature on every request). */
  wrkScript?: { script: string; scriptArgs: string[] };
}

function side(runs: SideResult['runs']): SideResult {
  return {
    requestsPerSecond: round(median(runs.map((r) => r.requestsPerSecond))),
    p50Ms: round(median(runs.map((r) => r.p50Ms)), 3),
    p99Ms: round(median(runs.map((r) => r.p99Ms)), 3),
    rssMiB: round(median(runs.map((r) => r.rssMiB)), 1),
    cpuUsPerRequest: round(median(runs.map((r) => r.cpuUsPerRequest)), 1),
    runs,
  };
}

/** A warm-up run then a measured run of wrk against `server`, with the server's RSS afterwards. */
async function measure(
  server: ServerProcess,
  path: string,
  headers: Record<string, string>,
  o: HttpBenchOptions,
  script?: Scenario['wrkScript'],
): Promise<SideResult['runs'][number]> {
  const url = server.url + path;
  await runWrk({ url, headers, durationS: o.warmupS, connections: o.connections, ...script });
  const cpuBefore = cpuTimeUs(server.child.pid);
  const r: WrkResult = await runWrk({ url, headers, durationS: o.measureS, connections: o.connections, ...script });
  const cpuUsed = cpuTimeUs(server.child.pid) - cpuBefore;
  return {
    requestsPerSecond: round(r.requestsPerSecond),
    p50Ms: round(r.p50Ms, 3),
    p99Ms: round(r.p99Ms, 3),
    non2xx3xx: r.non2xx3xx,
    socketErrors: r.socketErrors,
    rssMiB: mib(memoryOf(server.child.pid).rss),
    cpuUsPerRequest: r.requests > 0 ? round(cpuUsed / r.requests, 1) : 0,
  };
}

/**
 * Same status, same header fields (names and values, in order; the values of X-Request-Id and the per-request
 * RateLimit counters aside) and the same body bytes.
 */
export function sameAnswer(a: Awaited<ReturnType<typeof rawGet>>, b: Awaited<ReturnType<typeof rawGet>>): boolean {
  const norm = (h: [string, string][]) =>
    JSON.stringify(h.filter(([n]) => !/^(x-request-id|ratelimit-remaining|ratelimit-reset)$/i.test(n)).map(([n, v]) => [n.toLowerCase(), v]));
  return a.status === b.status && a.bytes.equals(b.bytes) && norm(a.headers) === norm(b.headers);
}

/** Runs the path × client matrix. */
export async function runHttpBench(o: HttpBenchOptions): Promise<{ scenarios: ScenarioResult[]; directoryFetches: number }> {
  const agent = await startBenchAgent();
  const specDir = mkdtempSync(join(tmpdir(), 'syllabus-bench-spec-'));
  const ours = await startServerProcess(o.bundles.server, [], {
    env: { CONTENT_DIR: o.contentDir, KEY_DIRECTORY_ALLOW_INSECURE: '1' },
  });
  try {
    await waitUntilCompressed(ours.url, '/v1/catalog');
    const catalog = JSON.parse((await rawGet(`${ours.url}/v1/catalog`, { 'User-Agent': DECLARED_UA })).bytes.toString()) as {
      courses: { id: string; status: string; classes: { lessons: { id: string }[] }[] }[];
    };
    const course = catalog.courses.find((c) => c.classes.some((k) => k.lessons.length > 0));
    if (course === undefined) throw new Error('the catalog has no course with a lesson');
    const lesson = course.classes.find((k) => k.lessons.length > 0)!.lessons[0]!;
    const etag = headerOf(await rawGet(`${ours.url}/v1/catalog`, { 'User-Agent': DECLARED_UA }), 'etag') ?? '';
    // Valid for the whole run (under 24 h), no nonce; the directory is cached. wrk sends another of 50,000 signatures
    // with every request (far more than the service keeps check results for): each request costs a public-key check.
    const signed = await agent.sign(`${ours.url}/v1/catalog`, 3600);
    const signaturesFile = join(specDir, 'signatures.tsv');
    writeFileSync(signaturesFile, await agent.signMany(`${ours.url}/v1/catalog`, 50_000));
    const freshSignatures = { script: FRESH_SIGNATURES_LUA, scriptArgs: [signaturesFile] };
    const scenarios: Scenario[] = [
      { name: 'catalog', path: '/v1/catalog', client: 'declared', expectStatus: 200 },
      { name: 'catalog gzip', path: '/v1/catalog', client: 'declared', extraHeaders: { 'Accept-Encoding': 'gzip' }, expectStatus: 200 },
      { name: 'catalog 304', path: '/v1/catalog', client: 'declared', extraHeaders: { 'If-None-Match': etag }, expectStatus: 304 },
      { name: 'course', path: `/v1/courses/${course.id}`, client: 'declared', expectStatus: 200 },
      { name: 'lesson', path: `/v1/lessons/${lesson.id}`, client: 'declared', expectStatus: 200 },
      { name: '404', path: '/v1/lessons/no-such-lesson', client: 'declared', expectStatus: 404 },
      { name: '422', path: '/v1/lessons/Not%20An%20Id', client: 'declared', expectStatus: 422 },
      { name: 'health', path: '/health', client: 'declared', expectStatus: 200 },
      { name: 'catalog, anonymous', path: '/v1/catalog', client: 'anonymous', expectStatus: 200 },
      { name: 'catalog, verified agent', path: '/v1/catalog', client: 'verified', expectStatus: 200, wrkScript: freshSignatures },
      { name: 'catalog, access log on', path: '/v1/catalog', client: 'declared', expectStatus: 200, accessLog: true },
    ];

    const results: ScenarioResult[] = [];
    let logging: ServerProcess | undefined;
    try {
      for (const s of scenarios) {
        if (s.accessLog && logging === undefined) {
          const started = await startServerProcess(o.bundles.server, [], {
            env: { CONTENT_DIR: o.contentDir, KEY_DIRECTORY_ALLOW_INSECURE: '1', LOG_LEVEL: 'info' },
            discardStdout: true,
          });
          logging = { child: started.child, url: started.url };
          await waitUntilCompressed(logging.url, '/v1/catalog');
        }
        const server = s.accessLog ? logging! : ours;
        const headers: Record<string, string> = {
          ...(s.client === 'anonymous' ? {} : { 'User-Agent': DECLARED_UA }),
          ...(s.client === 'verified' ? signed : {}),
          ...s.extraHeaders,
        };
        const probe = await rawGet(server.url + s.path, headers);
        const classifiedAs = kindOfPolicy(headerOf(probe, 'ratelimit-policy'));
        if (probe.status !== s.expectStatus) throw new Error(`${s.name}: expected ${s.expectStatus}, got ${probe.status} from ${s.path}`);
        if (classifiedAs !== s.client) o.log(`  warning: ${s.name}: the service classified the client as ${classifiedAs}, not ${s.client}`);

        const spec = await captureSpec(server.url, [s.path.split('?')[0]!], headers);
        const baseline = await startBaseline(o.bundles.baseline, spec, join(specDir, `${results.length}.json`), s.path);
        try {
          const fromBaseline = await rawGet(baseline.url + s.path, headers);
          const fromOurs = await rawGet(server.url + s.path, headers);
          const oursRuns: SideResult['runs'] = [];
          const baseRuns: SideResult['runs'] = [];
          for (let rep = 0; rep < o.reps; rep++) {
            oursRuns.push(await measure(server, s.path, headers, o, s.wrkScript));
            baseRuns.push(await measure(baseline, s.path, headers, o, s.wrkScript));
          }
          const oursSide = side(oursRuns);
          const baseSide = side(baseRuns);
          const result: ScenarioResult = {
            name: s.name,
            path: s.path,
            client: s.client,
            status: probe.status,
            classifiedAs,
            bodyBytes: probe.bytes.byteLength,
            baselineIdentical: sameAnswer(fromOurs, fromBaseline),
            ours: oursSide,
            baseline: baseSide,
            rpsRatio: round(oursSide.requestsPerSecond / baseSide.requestsPerSecond, 2),
            p99Ratio: round(oursSide.p99Ms / baseSide.p99Ms, 2),
            cpuRatio: oursSide.cpuUsPerRequest > 0 ? round(baseSide.cpuUsPerRequest / oursSide.cpuUsPerRequest, 2) : 0,
          };
          const after = await rawGet(server.url + s.path, headers);
          if (after.status === 429) throw new Error(`${s.name}: the service answered 429 despite the raised budgets`);
          results.push(result);
          o.log(
            `  ${s.name.padEnd(26)} ours ${result.ours.requestsPerSecond} req/s p99 ${result.ours.p99Ms} ms | baseline ${result.baseline.requestsPerSecond} req/s p99 ${result.baseline.p99Ms} ms | ×${result.rpsRatio} (CPU/request ${result.ours.cpuUsPerRequest} vs ${result.baseline.cpuUsPerRequest} µs: ×${result.cpuRatio})`,
          );
        } finally {
          await baseline.child.stop();
        }
      }
    } finally {
      await logging?.child.stop();
    }
    return { scenarios: results, directoryFetches: agent.directoryHits() };
  } finally {
    await ours.child.stop();
    await agent.close();
    rmSync(specDir, { recursive: true, force: true });
  }
}

/** The same HatTip app on @hono/node-server's getRequestListener and on @hattip/adapter-node, with the baseline. */
export async function runHostsBench(o: HttpBenchOptions): Promise<HostsResult> {
  const path = '/v1/catalog';
  const headers = { 'User-Agent': DECLARED_UA };
  const specDir = mkdtempSync(join(tmpdir(), 'syllabus-bench-spec-'));
  const env = { CONTENT_DIR: o.contentDir };
  const hono = await startServerProcess(o.bundles.hostsApp, ['hono'], { env });
  const hattip = await startServerProcess(o.bundles.hostsApp, ['hattip'], { env });
  let baseline: ServerProcess | undefined;
  try {
    baseline = await startBaseline(o.bundles.baseline, await captureSpec(hono.url, [path], headers), join(specDir, 'hosts.json'), path);
    const runs = { hono: [] as SideResult['runs'], hattip: [] as SideResult['runs'], baseline: [] as SideResult['runs'] };
    for (let rep = 0; rep < o.reps; rep++) {
      runs.hono.push(await measure(hono, path, headers, o));
      runs.hattip.push(await measure(hattip, path, headers, o));
      runs.baseline.push(await measure(baseline, path, headers, o));
    }
    const result: HostsResult = {
      path,
      hono: side(runs.hono),
      hattip: side(runs.hattip),
      baseline: side(runs.baseline),
      honoRatio: 0,
      hattipRatio: 0,
    };
    result.honoRatio = round(result.hono.requestsPerSecond / result.baseline.requestsPerSecond, 2);
    result.hattipRatio = round(result.hattip.requestsPerSecond / result.baseline.requestsPerSecond, 2);
    o.log(
      `  hono ${result.hono.requestsPerSecond} req/s (×${result.honoRatio}, ${result.hono.cpuUsPerRequest} µs CPU/request) | hattip adapter-node ${result.hattip.requestsPerSecond} req/s (×${result.hattipRatio}, ${result.hattip.cpuUsPerRequest} µs) | baseline ${result.baseline.requestsPerSecond} req/s (${result.baseline.cpuUsPerRequest} µs)`,
    );
    return result;
  } finally {
    await Promise.all([hono.child.stop(), hattip.child.stop(), baseline?.child.stop()]);
    rmSync(specDir, { recursive: true, force: true });
  }
}
