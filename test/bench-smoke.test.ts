/**
 * Keeps the benchmark harness from rotting: its pieces run on tiny inputs against real processes. Nothing here
 * asserts a timing; the wrk parts are skipped when wrk is not installed (bench/setup.sh installs it).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floodAddress } from '../bench/flood.js';
import { generateContent } from '../bench/generate-content.js';
import { sameAnswer } from '../bench/http.js';
import { buildBundles, repoRoot, type Bundles } from '../bench/lib/build.js';
import { captureSpec, headerOf, rawGet } from '../bench/lib/capture.js';
import { FRESH_SIGNATURES_LUA, writeFreshSignatures } from '../bench/lib/fresh-signatures.js';
import { summariseProfile } from '../bench/lib/profile.js';
import { memoryOf } from '../bench/lib/proc.js';
import { kindOfPolicy, RAISED_LIMITS, startBaseline, startServerProcess, waitUntilCompressed, type ServerProcess } from '../bench/lib/servers.js';
import { startBenchAgent, type BenchAgent } from '../bench/lib/signing.js';
import { hasWrk, runWrk } from '../bench/lib/wrk.js';
import { renderMarkdown, runInfo } from '../bench/report.js';
import { attackerDirectory, GARBAGE_LUA } from '../bench/signatures.js';

const UA = { 'User-Agent': 'bench-agent/1.0 (+https://bench.example)' };
const ANONYMOUS_BUDGET = Number(RAISED_LIMITS.RATE_LIMIT_ANONYMOUS);

let work: string;
let bundles: Bundles;
let agent: BenchAgent;
let ours: ServerProcess;
let baseline: ServerProcess;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'syllabus-bench-smoke-'));
  const outdir = join(repoRoot, 'bench', 'out', `smoke-${process.pid}`);
  bundles = await buildBundles(outdir);
  const tree = join(work, 'content');
  await generateContent(tree, { lessons: 12 });
  agent = await startBenchAgent();
  ours = await startServerProcess(bundles.server, [], {
    env: { CONTENT_DIR: tree, KEY_DIRECTORY_ALLOW_INSECURE: '1', TRUST_PROXY: '127.0.0.1' },
  });
  await waitUntilCompressed(ours.url, '/v1/catalog');
  const spec = await captureSpec(ours.url, ['/v1/catalog'], UA);
  baseline = await startBaseline(bundles.baseline, spec, join(work, 'spec.json'), '/v1/catalog');
});

afterAll(async () => {
  await Promise.all([ours?.child.stop(), baseline?.child.stop(), agent?.close()]);
  await rm(join(repoRoot, 'bench', 'out', `smoke-${process.pid}`), { recursive: true, force: true });
  if (work) await rm(work, { recursive: true, force: true });
});

describe('raw baseline', () => {
  it('serves the same status, header fields and bytes as the service for /v1/catalog: plain, gzip and 304', async () => {
    const plainOurs = await rawGet(`${ours.url}/v1/catalog`, UA);
    const plainBase = await rawGet(`${baseline.url}/v1/catalog`, UA);
    expect(plainOurs.status).toBe(200);
    expect(plainOurs.bytes.byteLength).toBeGreaterThan(100);
    expect(plainBase.bytes.equals(plainOurs.bytes)).toBe(true);
    expect(sameAnswer(plainOurs, plainBase)).toBe(true);

    const gzip = { ...UA, 'Accept-Encoding': 'gzip' };
    const gzOurs = await rawGet(`${ours.url}/v1/catalog`, gzip);
    const gzBase = await rawGet(`${baseline.url}/v1/catalog`, gzip);
    expect(headerOf(gzBase, 'content-encoding')).toBe('gzip');
    expect(sameAnswer(gzOurs, gzBase)).toBe(true);

    const etag = headerOf(plainOurs, 'etag')!;
    const cond = { ...UA, 'If-None-Match': etag };
    const nmOurs = await rawGet(`${ours.url}/v1/catalog`, cond);
    const nmBase = await rawGet(`${baseline.url}/v1/catalog`, cond);
    expect([nmOurs.status, nmBase.status]).toEqual([304, 304]);
    expect(sameAnswer(nmOurs, nmBase)).toBe(true);
  });

  it('answers 404 for a path it was not given', async () => {
    expect((await rawGet(`${baseline.url}/v1/lessons/other`)).status).toBe(404);
  });
});

describe('clients as the service classifies them under the raised budgets', () => {
  it('declared, anonymous, and a verified agent whose directory is fetched once and then cached', async () => {
    // Each probe from an address of its own (the server trusts loopback as its proxy): a fresh address reports its
    // kind's budget, not the per-address ceiling that the requests of earlier tests have drawn on.
    let probe = 0;
    const policy = async (headers: Record<string, string>) =>
      kindOfPolicy(headerOf(await rawGet(`${ours.url}/v1/catalog`, { ...headers, 'X-Forwarded-For': `198.51.100.${++probe}` }), 'ratelimit-policy'));
    expect(await policy(UA)).toBe('declared');
    expect(await policy({})).toBe('anonymous');
    const signed = await agent.sign(`${ours.url}/v1/catalog`, 600);
    expect(await policy({ ...UA, ...signed })).toBe('verified');
    expect(await policy({ ...UA, ...signed })).toBe('verified'); // the same fields replayed, as wrk sends them
    expect(agent.directoryHits()).toBe(1);
  });

  it('reads the process memory of a server', () => {
    expect(memoryOf(ours.child.pid).rss).toBeGreaterThan(10 * 1024 * 1024);
  });
});

describe.skipIf(!hasWrk)('wrk', () => {
  it('measures a server and reports requests, latency percentiles and non-2xx counts', async () => {
    const r = await runWrk({ url: `${baseline.url}/v1/catalog`, headers: UA, durationS: 1, connections: 4 });
    expect(r.requests).toBeGreaterThan(0);
    expect(r.non2xx3xx).toBe(0);
    expect(r.p99Ms).toBeGreaterThanOrEqual(r.p50Ms);
    const notFound = await runWrk({ url: `${baseline.url}/nowhere`, durationS: 1, connections: 2 });
    expect(notFound.non2xx3xx).toBe(notFound.requests);
  });

  it('floods with a new X-Forwarded-For address per request (bench/flood.lua)', async () => {
    const r = await runWrk({
      url: `${ours.url}/v1/health`,
      durationS: 1,
      connections: 2,
      script: join(repoRoot, 'bench', 'flood.lua'),
      scriptArgs: ['0'],
    });
    expect(r.requests).toBeGreaterThan(2);
    const remaining = async (address: string) =>
      Number(headerOf(await rawGet(`${ours.url}/v1/health`, { 'X-Forwarded-For': address }), 'ratelimit-remaining'));
    // Seen once by the flood, once now: two spent. A never-seen address: one spent.
    expect(await remaining(floodAddress(1))).toBe(ANONYMOUS_BUDGET - 2);
    expect(await remaining(floodAddress(2))).toBe(ANONYMOUS_BUDGET - 2);
    expect(await remaining('203.0.113.9')).toBe(ANONYMOUS_BUDGET - 1);
  });
});

describe.skipIf(!hasWrk)('fresh signatures (bench/fresh-signatures.lua)', () => {
  it('sends each written line once: the lines verify, and a line wrk sent is then refused as replayed', async () => {
    const file = join(work, 'signatures.txt');
    const count = 20_000; // more than two connections send in two seconds, so the last line stays unsent
    writeFreshSignatures(file, agent.signer, `${ours.url}/v1/catalog`, count);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(new Set(lines).size).toBe(count);
    const signed = { ...UA, 'Signature-Agent': `sig1="${agent.origin}"` };
    const r = await runWrk({
      url: `${ours.url}/v1/catalog`,
      headers: signed,
      durationS: 2,
      connections: 2,
      script: FRESH_SIGNATURES_LUA,
      scriptArgs: [file],
    });
    expect(r.requests).toBeGreaterThan(0); // a loaded CI machine may answer only a few in the run
    expect(r.requests).toBeLessThan(count);
    let probe = 0;
    const kindWith = async (line: string) => {
      const [input, signature] = line.split('\t');
      const headers = { ...signed, 'Signature-Input': input!, Signature: signature! };
      return kindOfPolicy(
        headerOf(await rawGet(`${ours.url}/v1/catalog`, { ...headers, 'X-Forwarded-For': `198.51.100.${100 + ++probe}` }), 'ratelimit-policy'),
      );
    };
    // wrk calls request() once before sending and drops that request: line 1 is the first sent, and verified then
    // (a nonce is recorded only for a signature that verified).
    expect(await kindWith(lines[1]!)).toBe('declared');
    expect(await kindWith(lines[count - 1]!)).toBe('verified'); // never sent
  });
});

describe('report', () => {
  it('summarises a CPU profile by function and file', async () => {
    const dir = join(work, 'prof');
    const busy = 'function busyLoop(){let x=0;for(let i=0;i<3e7;i++)x+=Math.sqrt(i);return x}busyLoop()';
    expect(spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, '-e', busy]).status).toBe(0);
    const file = (await readdir(dir)).find((f) => f.endsWith('.cpuprofile'))!;
    const summary = summariseProfile(join(dir, file));
    expect(summary.totalMs).toBeGreaterThan(0);
    expect(summary.byFunction.some((row) => row.label.startsWith('busyLoop'))).toBe(true);
  });

  it('names the functions of a minified bundle and their source files through its linked source map', async () => {
    const dir = join(work, 'prof-bundle');
    await mkdir(join(dir, 'src'), { recursive: true });
    const source = join(dir, 'src', 'busy.ts');
    await writeFile(
      source,
      'function countSquareRoots(n: number): number {\n  let x = 0;\n  for (let i = 0; i < n; i++) x += Math.sqrt(i);\n  return x;\n}\nconsole.log(countSquareRoots(3e7));\n',
    );
    await build({
      entryPoints: [source],
      outfile: join(dir, 'out.js'),
      bundle: true,
      minify: true,
      sourcemap: 'linked',
      platform: 'node',
      logLevel: 'silent',
    });
    expect(readFileSync(join(dir, 'out.js'), 'utf8')).not.toContain('countSquareRoots'); // renamed
    expect(spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${join(dir, 'prof')}`, join(dir, 'out.js')]).status).toBe(0);
    const file = (await readdir(join(dir, 'prof'))).find((f) => f.endsWith('.cpuprofile'))!;
    const summary = summariseProfile(join(dir, 'prof', file));
    expect(summary.byFunction.map((row) => row.label)).toContainEqual(expect.stringMatching(/^countSquareRoots — src\/busy\.ts:1$/));
    expect(summary.byFile.map((row) => row.label)).toContain('src/busy.ts');
    expect(summary.byOwnCode.map((row) => row.label)).toContainEqual(expect.stringMatching(/^countSquareRoots — src\/busy\.ts/));
  });

  it('renders the machine, Node version, date and a row per measured configuration', async () => {
    const plain = await rawGet(`${ours.url}/v1/catalog`, UA);
    const sideOf = { requestsPerSecond: 1000, p50Ms: 1, p99Ms: 2, rssMiB: 50, cpuUsPerRequest: 30, runs: [] };
    const md = renderMarkdown(
      {
        run: runInfo(true, { 'wrk connections': 4 }),
        http: {
          directoryFetches: 1,
          scenarios: [
            {
              name: 'catalog',
              path: '/v1/catalog',
              client: 'declared',
              status: plain.status,
              classifiedAs: 'declared',
              bodyBytes: plain.bytes.byteLength,
              baselineIdentical: true,
              ours: sideOf,
              baseline: sideOf,
              rpsRatio: 1,
              p99Ratio: 1,
              cpuRatio: 1,
            },
          ],
        },
        profiles: [],
      },
      'Analysis text.',
    );
    expect(md).toContain(`| Node.js | ${process.version} |`);
    expect(md).toContain(new Date().toISOString().slice(0, 10));
    expect(md).toMatch(/\| catalog \| `\/v1\/catalog` \| declared \| 200 \|/);
    expect(md).toContain('**met**');
    expect(md.trimEnd().endsWith('Analysis text.')).toBe(true);
  });
});

describe('the garbage-signature attacker (bench/garbage-signatures.lua)', () => {
  it.skipIf(!hasWrk)('sends well-formed requests, each with 3 signatures the service parses and refuses, never a 5xx', async () => {
    const directory = await attackerDirectory(2048);
    try {
      const r = await runWrk({
        url: `${ours.url}/v1/catalog`,
        durationS: 1,
        connections: 2,
        headers: { ...UA, 'X-Forwarded-For': '203.0.113.66' },
        script: GARBAGE_LUA,
        scriptArgs: ['3', '256', directory.keyid, directory.origin, new URL(ours.url).host],
      });
      expect(r.requests).toBeGreaterThan(0);
      expect(r.socketErrors).toBe(0);
      expect(r.non2xx3xx).toBe(0); // raised budgets: served as a declared agent, never verified
    } finally {
      await directory.close();
    }
  });
});
