/**
 * `npm run bench`: HTTP throughput against a raw node:http baseline, the two HatTip hosts, content cold start and
 * reload at scale (generated lessons and lesson-shaped Markdown), memory under an address flood; writes docs/performance.md
 * and docs/performance.json.
 *
 *   npm run bench                     the full run (about half an hour; run it on an otherwise idle machine)
 *   npm run bench -- --quick          a smoke run in a few minutes, 1,000 lessons of each corpus (written to bench/out/
 *                                     unless --out is given)
 *   npm run bench -- --only http,content   some sections only: http, hosts, content, flood, signatures
 *   npm run bench -- --only http --scenarios catalog --scenarios "catalog, verified agent"
 *                                     some HTTP configurations only, by name (repeated: names hold commas)
 *   npm run bench -- --only content --corpus real --out bench/out/real   the content section on one corpus only
 *                                     (generated or real: the shared lesson corpus, ../shared/corpus)
 *   npm run bench -- --out path/base  write <base>.md and <base>.json
 *   npm run bench -- --render         re-render docs/performance.md from docs/performance.json (after editing
 *                                     bench/analysis.md), measuring nothing
 *
 * Servers run in their own processes pinned to core 0 and wrk to core 1 (taskset), on 127.0.0.1 only.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runContentBench, type CorpusLabel, type CorpusPlan } from './content-serve.js';
import { runFloodBench } from './flood.js';
import { runSignatureBench } from './signatures.js';
import { runHostsBench, runHttpBench, type HttpBenchOptions } from './http.js';
import { buildBundles, repoRoot } from './lib/build.js';
import { hasWrk } from './lib/wrk.js';
import { hasLessonCorpus, LESSON_CORPUS } from './real-corpus.js';
import { profileServing } from './profiles.js';
import { runInfo, writeResults, type BenchResults } from './report.js';
import { GOALS } from './targets.js';

const SECTIONS = ['http', 'hosts', 'content', 'flood', 'signatures'] as const;

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    scenarios: { type: 'string', multiple: true },
    corpus: { type: 'string' },
    out: { type: 'string' },
    render: { type: 'boolean', default: false },
  },
});
const quick = values.quick;
const only = new Set(values.only ? values.only.split(',').map((s) => s.trim()) : SECTIONS);
for (const s of only)
  if (!(SECTIONS as readonly string[]).includes(s)) throw new Error(`--only: unknown section ${s} (known: ${SECTIONS.join(', ')})`);
if (!hasWrk && (only.has('http') || only.has('hosts') || only.has('flood') || only.has('signatures'))) {
  throw new Error('wrk is not installed: run bench/setup.sh (npm run bench does) or use --only content');
}
const CORPORA: readonly CorpusLabel[] = ['generated', 'real'];
const corpusOnly = values.corpus as CorpusLabel | undefined;
if (corpusOnly !== undefined && !CORPORA.includes(corpusOnly))
  throw new Error(`--corpus: unknown corpus ${corpusOnly} (known: ${CORPORA.join(', ')})`);
const out = values.out ?? (quick ? `${repoRoot}bench/out/performance` : `${repoRoot}docs/performance`);
if (values.render) {
  const saved = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as BenchResults;
  writeResults(out, saved, `${repoRoot}bench/analysis.md`);
  process.stdout.write(`re-rendered ${out}.md from ${out}.json\n`);
  process.exit(0);
}

const settings = quick
  ? {
      warmupS: 1,
      measureS: 1,
      reps: 2,
      coldReps: 1,
      connections: 32,
      sizes: [1000],
      reloadSize: 1000,
      realSizes: [1000],
      realReloadSize: 1000,
      singleTrials: 2,
      burstFiles: 100,
      floodTotal: 20_000,
      floodChunkS: 2,
    }
  : {
      warmupS: 1,
      measureS: 4,
      reps: 3,
      coldReps: 3,
      connections: 32,
      sizes: [1000, 10_000, 50_000],
      reloadSize: 10_000,
      realSizes: [10_000, 50_000],
      realReloadSize: 10_000,
      // Eleven: the median falls past the first reloads of the process, which V8 has not yet optimised (reported apart).
      singleTrials: 11,
      burstFiles: 1000,
      floodTotal: 1_000_000,
      floodChunkS: 4,
    };

const log = (line: string): void => void process.stdout.write(`${line}\n`);
const started = performance.now();
const contentDir = `${repoRoot}content`;
log(`building the service (${quick ? 'quick' : 'full'} run; results → ${out}.md)`);
const bundles = await buildBundles();
const results: BenchResults = {
  run: runInfo(quick, {
    'wrk connections': settings.connections,
    'warm-up s': settings.warmupS,
    'measured s': settings.measureS,
    'runs per HTTP configuration': settings.reps,
    'cold starts per size': settings.coldReps,
  }),
  profiles: [],
};
const httpOptions: HttpBenchOptions = {
  bundles,
  contentDir,
  ...settings,
  log,
  ...(values.scenarios !== undefined && { scenarios: values.scenarios.map((s) => s.trim()) }),
};

if (only.has('http')) {
  log('HTTP: service vs raw baseline');
  results.http = await runHttpBench(httpOptions);
  const catalog = results.http.scenarios.find((s) => s.name === 'catalog');
  if (catalog && (catalog.rpsRatio < GOALS.catalogRpsRatio || catalog.p99Ratio > GOALS.catalogP99Ratio)) {
    log('  /v1/catalog below target: profiling it');
    results.profiles.push({
      name: 'Serving /v1/catalog under load',
      what: `The service process while wrk (${settings.connections} connections) requested \`/v1/catalog\` as a declared agent for ${quick ? 2 : 5} s after a 1 s warm-up.`,
      summary: await profileServing(
        bundles.server,
        contentDir,
        '/v1/catalog',
        { 'User-Agent': 'bench-agent/1.0 (+https://bench.example)' },
        quick ? 2 : 5,
        settings.connections,
      ),
    });
  }
}
if (only.has('hosts')) {
  log('Hosts: the node:http adapter vs HatTip on @hattip/adapter-node');
  results.hosts = await runHostsBench(httpOptions);
}
if (only.has('content')) {
  log('Content: cold start and reload, on generated lessons and on lesson-shaped Markdown');
  if (!hasLessonCorpus) log(`  no lesson corpus at ${LESSON_CORPUS}: its rows are left out`);
  const content = await runContentBench({
    serverBundle: bundles.server,
    corpora: (
      [
        { corpus: 'generated', sizes: settings.sizes, reloadSize: settings.reloadSize },
        { corpus: 'real', sizes: settings.realSizes, reloadSize: settings.realReloadSize },
      ] satisfies CorpusPlan[]
    ).filter((plan) => (corpusOnly === undefined || plan.corpus === corpusOnly) && (plan.corpus !== 'real' || hasLessonCorpus)),
    reps: settings.coldReps,
    singleTrials: settings.singleTrials,
    burstFiles: settings.burstFiles,
    profileAboveMs: GOALS.coldMs10k,
    profileReloadAboveMs: GOALS.singleReloadMs,
    log,
  });
  results.content = { corpora: content.corpora };
  results.profiles.push(...content.profiles);
}
if (only.has('flood')) {
  log(`Flood: ${settings.floodTotal.toLocaleString('en-US')} distinct client addresses`);
  results.flood = await runFloodBench({
    serverBundle: bundles.server,
    contentDir,
    total: settings.floodTotal,
    chunkS: settings.floodChunkS,
    connections: settings.connections,
    log,
  });
}
if (only.has('signatures')) {
  log('Signatures: verified agents, and an attacker sending signatures that cannot verify');
  results.signatures = await runSignatureBench({
    serverBundle: bundles.server,
    contentDir,
    measureS: settings.measureS,
    reps: settings.reps,
    connections: settings.connections,
    attackerKeyBits: [4096, 8192],
    log,
  });
}
results.run.durationS = (performance.now() - started) / 1000;
writeResults(out, results, `${repoRoot}bench/analysis.md`);
log(`wrote ${out}.md and ${out}.json in ${Math.round(results.run.durationS)} s`);
