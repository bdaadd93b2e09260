/**
 * HTTP throughput of the service against the raw `node:http` baseline, path by path and client by client, with
 * the same answers served by a Fastify and a Hono app (`bench/rivals/`) on the paths they have, and the HatTip
 * handler on its two possible Node hosts. Every configuration runs `reps` times in alternating order (ours,
 * baseline, Fastify, Hono, ours…), each measured run preceded by a warm-up; medians are reported.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureSpec, headerOf, rawGet, type BaselineSpec } from './lib/capture.js';
import { cpuTimeUs, memoryOf } from './lib/proc.js';
import { kindOfPolicy, startBaseline, startServerProcess, waitUntilCompressed, type ServerProcess } from './lib/servers.js';
import { FRESH_SIGNATURES_LUA, writeFreshSignatures, type FreshSigner } from './lib/fresh-signatures.js';
import { startBenchAgent } from './lib/signing.js';
import { median, mib, round } from './lib/stats.js';
import { runWrk, type WrkResult } from './lib/wrk.js';
import { RIVAL_OWN_FIELD } from './rivals/spec.js';
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
  /** Names of the configurations to run (e.g. `catalog`); default all. */
  scenarios?: readonly string[];
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

/** The rival apps of `bench/rivals/`, by the name the report shows. */
export const RIVALS = ['fastify', 'hono'] as const;
/** One of {@link RIVALS}. */
export type RivalName = (typeof RIVALS)[number];

/** A rival app on one configuration. */
export interface RivalResult {
  side: SideResult;
  /** rival / baseline requests per second. */
  rpsRatio: number;
  /** rival / baseline p99 latency. */
  p99Ratio: number;
  /** baseline / rival server CPU time per request. */
  cpuRatio: number;
  /** Whether the rival sent the baseline's status, body bytes and header fields (see {@link sameContent}). */
  sameContent: boolean;
}

/** One configuration: a path and a client, served by ours and by the baseline (and the rivals, when they serve it). */
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
  /** The same answers from the rival apps (configurations of a declared client on the paths they serve). */
  rivals?: Record<RivalName, RivalResult>;
}

/** The host comparison (same app, two hosts, and the baseline for scale). */
export interface HostsResult {
  path: string;
  /** The production host (`node:http`, src/server/node-adapter.ts). */
  node: SideResult;
  /** The HatTip handler on `@hattip/adapter-node`. */
  hattip: SideResult;
  baseline: SideResult;
  nodeRatio: number;
  hattipRatio: number;
}

const DECLARED_UA = 'bench-agent/1.0 (+https://bench.example)';

/**
 * Signed lines written per second of a fresh-signature run: more verified requests than the service answers in a
 * second on this machine (about 5,000), so no line is sent twice.
 */
const FRESH_PER_SECOND = 15_000;

interface Scenario {
  name: string;
  path: string;
  client: 'declared' | 'anonymous' | 'verified';
  extraHeaders?: Record<string, string>;
  expectStatus: number;
  /**
   * Served by a second service process at `LOG_LEVEL=warn` (access log off). Every other scenario runs at the
   * default level, `info`: one access-log line per request, written to /dev/null.
   */
  accessLogOff?: boolean;
  /** Each request signed afresh, with a nonce of its own (`FreshSignaturePool`), instead of one replayed signature. */
  freshSignatures?: boolean;
  /** Also measured on the rival apps (which neither classify clients nor verify signatures). */
  rivals?: boolean;
}

/** The configurations, for a course and a lesson of the catalog and the catalog's ETag. */
function scenariosFor(courseId: string, lessonId: string, etag: string): Scenario[] {
  return [
    { name: 'catalog', path: '/v1/catalog', client: 'declared', expectStatus: 200, rivals: true },
    { name: 'catalog gzip', path: '/v1/catalog', client: 'declared', extraHeaders: { 'Accept-Encoding': 'gzip' }, expectStatus: 200, rivals: true },
    { name: 'catalog 304', path: '/v1/catalog', client: 'declared', extraHeaders: { 'If-None-Match': etag }, expectStatus: 304, rivals: true },
    { name: 'course', path: `/v1/courses/${courseId}`, client: 'declared', expectStatus: 200, rivals: true },
    { name: 'lesson', path: `/v1/lessons/${lessonId}`, client: 'declared', expectStatus: 200, rivals: true },
    { name: '404', path: '/v1/lessons/no-such-lesson', client: 'declared', expectStatus: 404, rivals: true },
    { name: '422', path: '/v1/lessons/Not%20An%20Id', client: 'declared', expectStatus: 422, rivals: true },
    { name: 'health', path: '/health', client: 'declared', expectStatus: 200, rivals: true },
    { name: 'catalog, anonymous', path: '/v1/catalog', client: 'anonymous', expectStatus: 200 },
    { name: 'catalog, verified agent', path: '/v1/catalog', client: 'verified', expectStatus: 200, freshSignatures: true },
    { name: 'catalog, access log off', path: '/v1/catalog', client: 'declared', expectStatus: 200, accessLogOff: true, rivals: true },
  ];
}

/**
 * The paths whose answers the rival apps need (`bench/rivals/spec.ts`): those of the configurations they are
 * measured on, and a course that does not exist (their course 404).
 */
export function rivalSpecPaths(courseId: string, lessonId: string): string[] {
  const paths = scenariosFor(courseId, lessonId, '')
    .filter((s) => s.rivals)
    .map((s) => s.path);
  return [...new Set([...paths, '/v1/courses/no-such-course'])];
}

/**
 * Writes `spec` to `specFile` and starts both rivals serving it, pinned and configured as the other servers.
 * @param options.env extra environment (LOG_LEVEL); `discardStdout` for rivals logging every request.
 */
export async function startRivals(
  bundles: Bundles,
  spec: BaselineSpec,
  specFile: string,
  options: { env?: Record<string, string>; discardStdout?: boolean } = {},
): Promise<Record<RivalName, ServerProcess>> {
  writeFileSync(specFile, JSON.stringify(spec));
  const start = async (script: string): Promise<ServerProcess> => {
    const { child, url } = await startServerProcess(script, [specFile], options);
    return { child, url };
  };
  const fastify = await start(bundles.fastifyApp);
  try {
    return { fastify, hono: await start(bundles.honoApp) };
  } catch (error) {
    await fastify.child.stop();
    throw error;
  }
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
  fresh?: { file: string; signer?: FreshSigner },
): Promise<SideResult['runs'][number]> {
  const url = server.url + path;
  const run = (durationS: number): Promise<WrkResult> => {
    // Without a signer (the baseline, which reads no signature) the lines of the last run are sent again.
    if (fresh?.signer) writeFreshSignatures(fresh.file, fresh.signer, url, durationS * FRESH_PER_SECOND);
    const script = fresh && { script: FRESH_SIGNATURES_LUA, scriptArgs: [fresh.file] };
    return runWrk({ url, headers, durationS, connections: o.connections, ...script });
  };
  await run(o.warmupS);
  const cpuBefore = cpuTimeUs(server.child.pid);
  const r: WrkResult = await run(o.measureS);
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

/**
 * What a rival must match: the same status and body bytes, the same header fields and values in any order
 * (names case-insensitive) apart from X-Request-Id and the RateLimit fields, which the rival must send too but
 * writes the way its framework and rate-limit plugin do.
 */
export function sameContent(rival: Awaited<ReturnType<typeof rawGet>>, reference: Awaited<ReturnType<typeof rawGet>>): boolean {
  const fields = (h: [string, string][]) =>
    h
      .filter(([n]) => !RIVAL_OWN_FIELD.test(n))
      .map(([n, v]) => `${n.toLowerCase()}: ${v}`)
      .sort()
      .join('\n');
  const has = (h: [string, string][], re: RegExp) => h.some(([n]) => re.test(n));
  return (
    rival.status === reference.status &&
    rival.bytes.equals(reference.bytes) &&
    fields(rival.headers) === fields(reference.headers) &&
    has(rival.headers, /^x-request-id$/i) &&
    has(rival.headers, /^ratelimit-remaining$/i)
  );
}

/** Runs the path × client matrix. */
export async function runHttpBench(o: HttpBenchOptions): Promise<{ scenarios: ScenarioResult[]; directoryFetches: number }> {
  const agent = await startBenchAgent();
  const specDir = mkdtempSync(join(tmpdir(), 'syllabus-bench-spec-'));
  // The production default LOG_LEVEL (info): every request writes its access-log line.
  const ours = await startServerProcess(o.bundles.server, [], {
    env: { CONTENT_DIR: o.contentDir, KEY_DIRECTORY_ALLOW_INSECURE: '1', LOG_LEVEL: 'info' },
    discardStdout: true,
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
    const scenarios = scenariosFor(course.id, lesson.id, etag).filter((s) => o.scenarios === undefined || o.scenarios.includes(s.name));
    const rivalPaths = rivalSpecPaths(course.id, lesson.id);
    // The probe's and the capture's signature: one, replayed (no nonce); the measured runs sign every request.
    const signed = await agent.sign(`${ours.url}/v1/catalog`, 3600);

    const results: ScenarioResult[] = [];
    let quiet: ServerProcess | undefined;
    // Every route the rivals declare, as a declared agent gets it from the service process measured.
    const rivalRoutes = async (url: string) => (await captureSpec(url, rivalPaths, { 'User-Agent': DECLARED_UA })).routes;
    const rivalBase = { ours: await rivalRoutes(ours.url), quiet: {} as BaselineSpec['routes'] };
    try {
      for (const s of scenarios) {
        if (s.accessLogOff && quiet === undefined) {
          const started = await startServerProcess(o.bundles.server, [], {
            env: { CONTENT_DIR: o.contentDir, KEY_DIRECTORY_ALLOW_INSECURE: '1', LOG_LEVEL: 'warn' },
          });
          quiet = { child: started.child, url: started.url };
          await waitUntilCompressed(quiet.url, '/v1/catalog');
          rivalBase.quiet = await rivalRoutes(quiet.url);
        }
        const server = s.accessLogOff ? quiet! : ours;
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
        // The rivals replay the baseline's very capture on the measured path (the health report's clock moves),
        // with their request log on as the service's access log is (off in the "access log off" row).
        let rivalsHere: Record<RivalName, ServerProcess> | undefined;
        try {
          if (s.rivals) {
            rivalsHere = await startRivals(
              o.bundles,
              { routes: { ...(s.accessLogOff ? rivalBase.quiet : rivalBase.ours), ...spec.routes } },
              join(specDir, `${results.length}-rivals.json`),
              s.accessLogOff ? {} : { env: { LOG_LEVEL: 'info' }, discardStdout: true },
            );
          }
          const fromBaseline = await rawGet(baseline.url + s.path, headers);
          const fromOurs = await rawGet(server.url + s.path, headers);
          const rivalSame: Partial<Record<RivalName, boolean>> = {};
          for (const name of RIVALS) {
            if (rivalsHere) rivalSame[name] = sameContent(await rawGet(rivalsHere[name].url + s.path, headers), fromBaseline);
          }
          const oursRuns: SideResult['runs'] = [];
          const baseRuns: SideResult['runs'] = [];
          const fresh = s.freshSignatures ? { file: join(specDir, 'signatures.txt'), signer: agent.signer } : undefined;
          if (fresh) {
            // One line made as the runs' lines are, sent once: the service must verify it.
            writeFreshSignatures(fresh.file, fresh.signer, server.url + s.path, 1);
            const [input, signature] = readFileSync(fresh.file, 'utf8').split('\n', 1)[0]!.split('\t');
            const first = await rawGet(server.url + s.path, { ...headers, 'Signature-Input': input!, Signature: signature! });
            if (kindOfPolicy(headerOf(first, 'ratelimit-policy')) !== 'verified') throw new Error(`${s.name}: a fresh signature was not verified`);
          }
          const rivalRuns: Record<RivalName, SideResult['runs']> = { fastify: [], hono: [] };
          for (let rep = 0; rep < o.reps; rep++) {
            oursRuns.push(await measure(server, s.path, headers, o, fresh));
            // Signed lines keep the baseline's requests the same size as ours.
            baseRuns.push(await measure(baseline, s.path, headers, o, fresh && { file: fresh.file }));
            for (const name of RIVALS) if (rivalsHere) rivalRuns[name].push(await measure(rivalsHere[name], s.path, headers, o));
          }
          const oursSide = side(oursRuns);
          const baseSide = side(baseRuns);
          const versus = (name: RivalName): RivalResult => {
            const r = side(rivalRuns[name]);
            return {
              side: r,
              rpsRatio: round(r.requestsPerSecond / baseSide.requestsPerSecond, 2),
              p99Ratio: round(r.p99Ms / baseSide.p99Ms, 2),
              cpuRatio: r.cpuUsPerRequest > 0 ? round(baseSide.cpuUsPerRequest / r.cpuUsPerRequest, 2) : 0,
              sameContent: rivalSame[name] ?? false,
            };
          };
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
            ...(rivalsHere ? { rivals: { fastify: versus('fastify'), hono: versus('hono') } } : {}),
          };
          const after = await rawGet(server.url + s.path, headers);
          if (after.status === 429) throw new Error(`${s.name}: the service answered 429 despite the raised budgets`);
          for (const name of RIVALS) {
            if (rivalsHere && (await rawGet(rivalsHere[name].url + s.path, headers)).status === 429) {
              throw new Error(`${s.name}: ${name} answered 429 despite the service's budget`);
            }
          }
          results.push(result);
          const { rivals: measured } = result;
          const rivalLog = measured
            ? RIVALS.map((name) => ` | ${name} ${measured[name].side.requestsPerSecond} req/s ×${measured[name].rpsRatio}`).join('')
            : '';
          o.log(
            `  ${s.name.padEnd(26)} ours ${result.ours.requestsPerSecond} req/s p99 ${result.ours.p99Ms} ms | baseline ${result.baseline.requestsPerSecond} req/s p99 ${result.baseline.p99Ms} ms | ×${result.rpsRatio} (CPU/request ${result.ours.cpuUsPerRequest} vs ${result.baseline.cpuUsPerRequest} µs: ×${result.cpuRatio})${rivalLog}`,
          );
        } finally {
          await Promise.all([baseline, ...Object.values(rivalsHere ?? {})].map((p) => p.child.stop()));
        }
      }
    } finally {
      await quiet?.child.stop();
    }
    return { scenarios: results, directoryFetches: agent.directoryHits() };
  } finally {
    await ours.child.stop();
    await agent.close();
    rmSync(specDir, { recursive: true, force: true });
  }
}

/** The same app on the production Node host and as a HatTip handler on @hattip/adapter-node, with the baseline. */
export async function runHostsBench(o: HttpBenchOptions): Promise<HostsResult> {
  const path = '/v1/catalog';
  const headers = { 'User-Agent': DECLARED_UA };
  const specDir = mkdtempSync(join(tmpdir(), 'syllabus-bench-spec-'));
  const env = { CONTENT_DIR: o.contentDir };
  const node = await startServerProcess(o.bundles.hostsApp, ['node'], { env });
  const hattip = await startServerProcess(o.bundles.hostsApp, ['hattip'], { env });
  let baseline: ServerProcess | undefined;
  try {
    baseline = await startBaseline(o.bundles.baseline, await captureSpec(node.url, [path], headers), join(specDir, 'hosts.json'), path);
    const runs = { node: [] as SideResult['runs'], hattip: [] as SideResult['runs'], baseline: [] as SideResult['runs'] };
    for (let rep = 0; rep < o.reps; rep++) {
      runs.node.push(await measure(node, path, headers, o));
      runs.hattip.push(await measure(hattip, path, headers, o));
      runs.baseline.push(await measure(baseline, path, headers, o));
    }
    const result: HostsResult = {
      path,
      node: side(runs.node),
      hattip: side(runs.hattip),
      baseline: side(runs.baseline),
      nodeRatio: 0,
      hattipRatio: 0,
    };
    result.nodeRatio = round(result.node.requestsPerSecond / result.baseline.requestsPerSecond, 2);
    result.hattipRatio = round(result.hattip.requestsPerSecond / result.baseline.requestsPerSecond, 2);
    o.log(
      `  node ${result.node.requestsPerSecond} req/s (×${result.nodeRatio}, ${result.node.cpuUsPerRequest} µs CPU/request) | hattip adapter-node ${result.hattip.requestsPerSecond} req/s (×${result.hattipRatio}, ${result.hattip.cpuUsPerRequest} µs) | baseline ${result.baseline.requestsPerSecond} req/s (${result.baseline.cpuUsPerRequest} µs)`,
    );
    return result;
  } finally {
    await Promise.all([node.child.stop(), hattip.child.stop(), baseline?.child.stop()]);
    rmSync(specDir, { recursive: true, force: true });
  }
}
