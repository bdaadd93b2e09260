/**
 * `npm run bench:content`: generates a synthetic tree of 10,000 lessons (see generate-content.ts) in a
 * temporary folder, then loads it in a fresh Node process and reports the cold load time, files per second,
 * RSS and heap. Targets: under 1 s and under 150 MB RSS for 10k lessons. With `--real`, the lesson bodies are the
 * documents of the shared lesson corpus (real-corpus.ts) instead of generated Markdown.
 *
 *   npm run bench:content -- --lessons 50000 --runs 5 --keep
 *   npm run bench:content -- --real --lessons 10000
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { generateContent } from './generate-content.js';
import { buildRealCorpus, collectDocuments } from './real-corpus.js';

const TARGET_MS = 1_000;
const TARGET_RSS_MB = 150;

interface Measurement {
  coldMs: number;
  coldCpuMs: number;
  cachedReloadMs: number;
  warmFullMs: number;
  files: number;
  lessons: number;
  steps: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  peakRssMb: number;
  heapUsedMb: number;
  problems: number;
}

const mb = (bytes: number): number => Math.round((bytes / 1048576) * 10) / 10;

/** Runs in the child: one cold load, one reload from the cache, one full parse with a warm JIT. */
async function measure(dir: string): Promise<Measurement> {
  const { ContentLoader } = await import('../src/content/loader.js');
  // Imported, not yet run: the schemas are compiled inside the first load, as at a server's start.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const rssBefore = process.memoryUsage().rss;
  const loader = new ContentLoader(dir);
  let t = performance.now();
  const cpu = process.cpuUsage();
  const result = await loader.load();
  const coldMs = performance.now() - t;
  const cpuUsed = process.cpuUsage(cpu);
  const coldCpuMs = (cpuUsed.user + cpuUsed.system) / 1000;
  const files = loader.lastParsedCount;
  gc?.();
  const after = process.memoryUsage();
  t = performance.now();
  await loader.load();
  const cachedReloadMs = performance.now() - t;
  t = performance.now();
  await new ContentLoader(dir).load();
  const warmFullMs = performance.now() - t;
  const lessons = result.ok ? result.model.catalog.courses.reduce((n, c) => n + c.lessons_live, 0) : 0;
  const steps = result.ok ? result.model.catalog.courses.reduce((n, c) => n + c.classes.reduce((m, k) => m + k.exercises, 0), 0) : 0;
  if (!result.ok) for (const p of result.problems.slice(0, 10)) console.error(`${p.path}:${p.line}:${p.column}: ${p.message}`);
  return {
    coldMs,
    coldCpuMs,
    cachedReloadMs,
    warmFullMs,
    files,
    lessons,
    steps,
    rssBeforeMb: mb(rssBefore),
    rssAfterMb: mb(after.rss),
    peakRssMb: mb(process.resourceUsage().maxRSS * 1024),
    heapUsedMb: mb(after.heapUsed),
    problems: result.ok ? 0 : result.problems.length,
  };
}

async function measureInChild(bundle: string, dir: string): Promise<Measurement> {
  const child = spawn(process.execPath, ['--expose-gc', bundle, '--measure', dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`measuring process exited with ${code}`);
  return JSON.parse(out) as Measurement;
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      lessons: { type: 'string', default: '10000' },
      runs: { type: 'string', default: '3' },
      keep: { type: 'boolean', default: false },
      real: { type: 'boolean', default: false },
      measure: { type: 'string' },
    },
  });
  if (values.measure) {
    process.stdout.write(JSON.stringify(await measure(values.measure)));
    return;
  }
  const lessons = Number(values.lessons);
  const dir = await mkdtemp(join(tmpdir(), 'syllabus-bench-content-'));
  try {
    const t = performance.now();
    const generated = values.real ? await buildRealCorpus(dir, lessons, await collectDocuments()) : await generateContent(dir, { lessons });
    console.log(
      `generated ${generated.lessons} lessons, ${generated.files} files, ${mb(generated.bytes)} MB in ${Math.round(performance.now() - t)} ms (${dir})`,
    );
    // Measure compiled JavaScript in a plain Node process, as the server runs it: no TypeScript loader
    // thread skewing memory or start-up time.
    const bundle = fileURLToPath(new URL('./out/content-load.mjs', import.meta.url));
    await build({
      entryPoints: [fileURLToPath(import.meta.url)],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      target: 'node20',
      sourcemap: false,
      logLevel: 'warning',
    });
    const runs: Measurement[] = [];
    for (let i = 0; i < Number(values.runs); i++) runs.push(await measureInChild(bundle, dir));
    for (const m of runs) {
      if (m.problems > 0 || m.lessons !== generated.lessons || m.steps !== generated.steps) {
        throw new Error(
          `load disagrees with the generator: ${m.problems} problems, ${m.lessons}/${generated.lessons} lessons, ${m.steps}/${generated.steps} steps`,
        );
      }
    }
    const ms = (xs: number[]): string => `median ${Math.round(median(xs))} ms, best ${Math.round(Math.min(...xs))} ms`;
    const cold = runs.map((m) => m.coldMs);
    const files = runs[0]!.files;
    const rows: [string, string][] = [
      [`cold load, wall (${runs.length} fresh processes)`, ms(cold)],
      ['cold load, CPU time (user + system)', ms(runs.map((m) => m.coldCpuMs))],
      ['files parsed per cold load', `${files} (${Math.round(files / (median(cold) / 1000))} files/s at the median)`],
      ['full load again, warm JIT, empty cache', ms(runs.map((m) => m.warmFullMs))],
      ['reload with nothing changed (stat only)', ms(runs.map((m) => m.cachedReloadMs))],
      ['RSS before → after load (after GC)', `${median(runs.map((m) => m.rssBeforeMb))} → ${median(runs.map((m) => m.rssAfterMb))} MB (median)`],
      ['peak RSS of the process', `${Math.max(...runs.map((m) => m.peakRssMb))} MB (worst run)`],
      ['heap used after load (after GC)', `${median(runs.map((m) => m.heapUsedMb))} MB`],
      ['steps counted', `${runs[0]!.steps} (generator: ${generated.steps})`],
      [
        'machine',
        `${cpus().length} CPUs, load average ${loadavg()
          .map((x) => x.toFixed(1))
          .join(' ')}`,
      ],
    ];
    for (const [k, v] of rows) console.log(`${k.padEnd(44)} ${v}`);
    const timeOk = median(cold) < TARGET_MS;
    const rssOk = Math.max(...runs.map((m) => m.peakRssMb)) < TARGET_RSS_MB;
    console.log(
      `target < ${TARGET_MS} ms (median wall): ${timeOk ? 'met' : 'MISSED'}; target < ${TARGET_RSS_MB} MB peak RSS: ${rssOk ? 'met' : 'MISSED'}`,
    );
  } finally {
    if (!values.keep) await rm(dir, { recursive: true, force: true });
  }
}

await main();
