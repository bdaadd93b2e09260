/**
 * Content at scale, measured through the real service process, on two corpora: generated lessons
 * (`generate-content.ts`) and lesson-shaped Markdown (`real-corpus.ts`, the shared lesson corpus). Cold start
 * (wall time from process start to the first served `/v1/catalog`, files per second, RSS, steady-state RSS), against
 * a baseline process that only reads the same files and parses their frontmatter (`frontmatter-baseline.js`); and on
 * one size the incremental reload (one changed lesson file until its new title is served; a burst of changed files
 * until all are served, and how many rebuilds that took). Trees are written into a temporary folder and deleted
 * afterwards.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateContent, type GeneratedContent } from './generate-content.js';
import { repoRoot } from './lib/build.js';
import { memoryOf, startNode } from './lib/proc.js';
import type { ProfileSummary } from './lib/profile.js';
import { startServerProcess, waitUntilCompressed } from './lib/servers.js';
import { profileColdStart, withProfileDir } from './profiles.js';
import { median, mib, round } from './lib/stats.js';
import { buildRealCorpus, collectDocuments, summariseDocuments, type DocumentSet, type DocumentSummary } from './real-corpus.js';

/** The two corpora: generated lessons, and lessons whose bodies are documents of the shared lesson corpus. */
export type CorpusLabel = 'generated' | 'real';

/** What to measure on one corpus. */
export interface CorpusPlan {
  corpus: CorpusLabel;
  /** Tree sizes (lessons) for the cold start. */
  sizes: number[];
  /** The size on which reloads are measured (must be in `sizes`; undefined: none). */
  reloadSize?: number;
}

/** The wait after the compressed index is served before the steady-state RSS is read, milliseconds. */
const SETTLE_MS = 3000;

/** Options of {@link runContentBench}. */
export interface ContentBenchOptions {
  /** The bundled service entry. */
  serverBundle: string;
  /** The corpora, measured in this order. */
  corpora: CorpusPlan[];
  /**
   * Cold starts per size, each after a run of the frontmatter baseline; the tables report medians. Odd, so that the
   * median is one start: with two, one slow start (a noisy moment of the machine) moved the reported figure by half
   * its excess.
   */
  reps: number;
  /** Single-file reload trials. */
  singleTrials: number;
  /** Files changed in the burst. */
  burstFiles: number;
  /** Profile a cold start at a corpus's `reloadSize` when it misses this many milliseconds (undefined: never). */
  profileAboveMs?: number;
  /** Profile a single-file reload when its median misses this many milliseconds (undefined: never). */
  profileReloadAboveMs?: number;
  log: (line: string) => void;
}

/** One cold start. */
export interface ColdRun {
  /** Process start → first 200 from /v1/catalog, milliseconds. */
  wallMs: number;
  /** The service's own `startup_ms` (configuration read → watchers ready), when logged. */
  serviceStartupMs: number | null;
  /** RSS when the first request was served, MiB. */
  rssAtFirstServeMiB: number;
  /** RSS once the watchers are ready (the `serving` log line), MiB. */
  rssReadyMiB: number;
  /** Peak RSS of the process (VmHWM) up to the steady-state reading, compression included, MiB. */
  peakRssMiB: number;
  /** Process start → `/v1/catalog` served gzip-encoded (the compressed index swapped in), milliseconds. */
  compressedMs: number;
  /** RSS a few seconds after the compressed index was served (the service exposes no GC trigger), MiB. */
  steadyRssMiB: number;
  /** The frontmatter baseline on the same tree, run just before: process start → exit, milliseconds; its peak RSS. */
  baselineMs: number;
  baselinePeakRssMiB: number;
}

/** Cold starts at one size. */
export interface ColdResult {
  lessons: number;
  files: number;
  treeMiB: number;
  /** Medians over the runs. */
  wallMs: number;
  compressedMs: number;
  filesPerSecond: number;
  rssAtFirstServeMiB: number;
  rssReadyMiB: number;
  peakRssMiB: number;
  steadyRssMiB: number;
  /** The frontmatter baseline's medians, and the service's wall time ÷ the baseline's. */
  baselineMs: number;
  baselinePeakRssMiB: number;
  baselineRatio: number;
  runs: ColdRun[];
}

/** Incremental reload on one tree. */
export interface ReloadResult {
  lessons: number;
  /**
   * Write of one lesson file → its new title served, milliseconds, per trial in order. The first is the first reload
   * of the process: V8 has not yet optimised the reload's code for it (the next two or three are slower too).
   */
  singleMs: number[];
  singleMedianMs: number;
  singleMaxMs: number;
  burstFiles: number;
  /** Time spent writing the burst, milliseconds. */
  burstWriteMs: number;
  /** First write of the burst → every changed lesson served with its new title, milliseconds. */
  burstServedMs: number;
  /** Last write of the burst → every changed lesson served with its new title, milliseconds. */
  burstServedAfterLastWriteMs: number;
  /** Rebuilds the service logged for the burst (`content reloaded`), and the files they covered. */
  burstRebuilds: number;
  burstFilesReloaded: number;
}

interface LogLine {
  msg?: string;
  startup_ms?: number;
  /** Files the reload parsed again (`content reloaded`, src/server/start.ts). */
  changed_files?: number;
}

/** Finds `<id>.md` files of the generated lessons: id → absolute path. */
async function lessonFiles(dir: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const rel of await readdir(dir, { recursive: true })) {
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    if (/^lesson-\d+\.md$/.test(name)) found.set(name.slice(0, -3), join(dir, rel));
  }
  return found;
}

/** Replaces the frontmatter title of a lesson file. */
async function retitle(path: string, title: string): Promise<void> {
  const text = await readFile(path, 'utf8');
  await writeFile(path, text.replace(/^title: .*$/m, `title: ${title}`));
}

/** Polls `/v1/lessons/{id}` until its title is `title`. @returns performance.now() of the first such answer. */
async function servedWithTitle(url: string, id: string, title: string, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${url}/v1/lessons/${id}`, { headers: { 'User-Agent': 'bench-agent/1.0 (+https://bench.example)' } });
    const body = (await response.json()) as { title?: string };
    if (body.title === title) return performance.now();
    if (performance.now() > deadline) throw new Error(`lesson ${id} was not served with title ${JSON.stringify(title)} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** Time limits scaled to the tree, generous: a slow counter must still finish its run. */
const timeoutFor = (files: number): number => 300_000 + files * 20;

/**
 * Runs the frontmatter baseline on `dir`: process start → exit, and its peak RSS.
 * @throws Error when it fails or reads another number of files than `files`.
 */
export async function frontmatterBaseline(dir: string, files: number): Promise<{ ms: number; peakRssMiB: number }> {
  const startedAt = performance.now();
  const child = startNode([`${repoRoot}bench/frontmatter-baseline.js`, dir], { cpu: 0, cwd: repoRoot });
  const code = await child.exited;
  const ms = performance.now() - startedAt;
  const report = JSON.parse(child.output().trim().split('\n').pop() ?? '{}') as { files?: number; maxRssKiB?: number };
  if (code !== 0 || report.files !== files)
    throw new Error(`the frontmatter baseline failed (exit ${code}, ${report.files} files of ${files}):\n${child.output()}`);
  return { ms: round(ms, 1), peakRssMiB: mib((report.maxRssKiB ?? 0) * 1024) };
}

/** Starts the service on `dir`, measuring the cold start; leaves it running. */
async function coldStart(serverBundle: string, dir: string, files: number) {
  const timeoutMs = timeoutFor(files);
  const lines: LogLine[] = [];
  const server = await startServerProcess(serverBundle, [], {
    env: { CONTENT_DIR: dir, LOG_LEVEL: 'info' },
    readyPath: '/v1/catalog',
    timeoutMs,
    // From the first line: at 50,000 lessons the polls' access-log lines pushed `serving` out of output()'s 64 KB.
    onLine(line) {
      if (!line.startsWith('{') || line.includes('"msg":"request"')) return;
      try {
        lines.push(JSON.parse(line) as LogLine);
      } catch {
        // not a log line
      }
    },
  });
  const firstServe = memoryOf(server.child.pid);
  const compressedAt = await waitUntilCompressed(server.url, '/v1/catalog', timeoutMs);
  const deadline = performance.now() + timeoutMs;
  while (!lines.some((l) => l.msg === 'serving') && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const ready = memoryOf(server.child.pid);
  await new Promise((r) => setTimeout(r, Math.max(0, compressedAt + SETTLE_MS - performance.now())));
  const steady = memoryOf(server.child.pid);
  const run: Omit<ColdRun, 'baselineMs' | 'baselinePeakRssMiB'> = {
    wallMs: round(server.servingAt - server.startedAt, 1),
    compressedMs: round(compressedAt - server.startedAt, 1),
    serviceStartupMs: lines.find((l) => l.msg === 'serving')?.startup_ms ?? null,
    rssAtFirstServeMiB: mib(firstServe.rss),
    rssReadyMiB: mib(ready.rss),
    peakRssMiB: mib(steady.peak),
    steadyRssMiB: mib(steady.rss),
  };
  return { server, run, lines };
}

/** A profile taken where a target was missed, with what it covers. */
export interface NamedProfile {
  name: string;
  what: string;
  summary: ProfileSummary;
}

/** Everything measured on one corpus. */
export interface CorpusResult {
  corpus: CorpusLabel;
  /** For the real corpus: the documents its lessons were made of. */
  documents: DocumentSummary | null;
  cold: ColdResult[];
  reload: ReloadResult | null;
}

/** How the bench and its report name each corpus. */
export const CORPUS_NAMES: Record<CorpusLabel, string> = { generated: 'generated lessons', real: 'lesson-shaped Markdown' };

/** Runs, on every corpus, the cold starts at every size and the reloads on its `reloadSize`. */
export async function runContentBench(o: ContentBenchOptions): Promise<{ corpora: CorpusResult[]; profiles: NamedProfile[] }> {
  const corpora: CorpusResult[] = [];
  const profiles: NamedProfile[] = [];
  let documents: DocumentSet | undefined;
  for (const plan of o.corpora) {
    const result: CorpusResult = { corpus: plan.corpus, documents: null, cold: [], reload: null };
    corpora.push(result);
    if (plan.corpus === 'real') {
      documents ??= await collectDocuments();
      result.documents = summariseDocuments(documents);
      const d = result.documents;
      o.log(
        `  lesson-shaped Markdown: ${d.documents} distinct documents (${mib(d.bytes)} MiB) of ${d.scanned} *.md files in the lesson corpus (${d.duplicates} duplicates; skipped: ${d.skipped.notUtf8} not UTF-8, ${d.skipped.forbiddenCharacter} with a forbidden character); ${d.headingAdded} given a heading; ${d.fastPath} counted by the line scanner`,
      );
    }
    const label = CORPUS_NAMES[plan.corpus];
    for (const lessons of plan.sizes) {
      const dir = await mkdtemp(join(tmpdir(), `syllabus-bench-${plan.corpus}-${lessons}-`));
      try {
        const tree: GeneratedContent =
          plan.corpus === 'real' ? await buildRealCorpus(dir, lessons, documents!) : await generateContent(dir, { lessons });
        const runs: ColdRun[] = [];
        for (let rep = 0; rep < o.reps; rep++) {
          const baseline = await frontmatterBaseline(dir, tree.files);
          const { server, run, lines } = await coldStart(o.serverBundle, dir, tree.files);
          runs.push({ ...run, baselineMs: baseline.ms, baselinePeakRssMiB: baseline.peakRssMiB });
          try {
            if (lessons === plan.reloadSize && rep === o.reps - 1) result.reload = await measureReload(server.url, dir, lines, o, tree.files);
          } finally {
            await server.child.stop();
          }
        }
        const cold = coldResult(tree, runs);
        result.cold.push(cold);
        const size = `${lessons.toLocaleString('en-US')} lessons of ${label}`;
        if (lessons === plan.reloadSize && o.profileAboveMs !== undefined && cold.wallMs > o.profileAboveMs) {
          profiles.push({
            name: `Cold start on ${size}`,
            what: 'The service process from its start until the first `/v1/catalog` was served and the watchers were set up.',
            summary: await profileColdStart(o.serverBundle, dir, timeoutFor(tree.files)),
          });
        }
        const reload = result.reload;
        if (
          reload !== null &&
          lessons === plan.reloadSize &&
          o.profileReloadAboveMs !== undefined &&
          reload.singleMedianMs > o.profileReloadAboveMs
        ) {
          profiles.push({
            name: `Reload of one changed lesson on ${size}`,
            what: 'The service process from the write of one lesson file until its new title was served (polled every millisecond or so).',
            summary: await profileReload(o.serverBundle, dir),
          });
        }
        o.log(
          `  ${plan.corpus}, ${lessons} lessons (${tree.files} files, ${cold.treeMiB} MiB): first request served after ${cold.wallMs} ms (compressed after ${cold.compressedMs} ms), ${cold.filesPerSecond} files/s, RSS ${cold.rssReadyMiB} MiB (peak ${cold.peakRssMiB}, steady ${cold.steadyRssMiB}); frontmatter baseline ${cold.baselineMs} ms (peak ${cold.baselinePeakRssMiB} MiB): ×${cold.baselineRatio}`,
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  }
  return { corpora, profiles };
}

/** Medians over the cold starts on one tree. */
function coldResult(tree: GeneratedContent, runs: ColdRun[]): ColdResult {
  const med = (f: (r: ColdRun) => number, digits = 1): number => round(median(runs.map(f)), digits);
  const wallMs = med((r) => r.wallMs);
  const baselineMs = med((r) => r.baselineMs);
  return {
    lessons: tree.lessons,
    files: tree.files,
    treeMiB: mib(tree.bytes),
    wallMs,
    compressedMs: med((r) => r.compressedMs),
    filesPerSecond: round(tree.files / (wallMs / 1000)),
    rssAtFirstServeMiB: med((r) => r.rssAtFirstServeMiB),
    rssReadyMiB: med((r) => r.rssReadyMiB),
    peakRssMiB: med((r) => r.peakRssMiB),
    steadyRssMiB: med((r) => r.steadyRssMiB),
    baselineMs,
    baselinePeakRssMiB: med((r) => r.baselinePeakRssMiB),
    baselineRatio: round(wallMs / baselineMs, 2),
    runs,
  };
}

async function measureReload(url: string, dir: string, lines: LogLine[], o: ContentBenchOptions, treeFiles: number): Promise<ReloadResult> {
  const files = await lessonFiles(dir);
  const ids = [...files.keys()].sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)));
  const pause = () => new Promise((r) => setTimeout(r, 600));
  await pause();

  const singleMs: number[] = [];
  for (let trial = 0; trial < o.singleTrials; trial++) {
    const id = ids[Math.floor(((trial + 0.5) * ids.length) / o.singleTrials)]!;
    const title = `Reload probe ${trial} ${Date.now()}`;
    const t0 = performance.now();
    await retitle(files.get(id)!, title);
    singleMs.push(round((await servedWithTitle(url, id, title, 30_000)) - t0, 1));
    await pause();
  }

  const step = Math.max(1, Math.floor(ids.length / o.burstFiles));
  const burst = ids.filter((_, i) => i % step === 0).slice(0, o.burstFiles);
  const linesBefore = lines.length;
  const stamp = Date.now();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < burst.length) {
        const id = burst[next++]!;
        await retitle(files.get(id)!, `Burst ${stamp} ${id}`);
      }
    }),
  );
  const lastWrite = performance.now();
  const burstWriteMs = round(lastWrite - t0, 1);
  let served = 0;
  for (const id of [burst[burst.length - 1]!, burst[0]!, ...burst.filter((_, i) => i % 50 === 25)]) {
    served = Math.max(served, await servedWithTitle(url, id, `Burst ${stamp} ${id}`, timeoutFor(treeFiles)));
  }
  await new Promise((r) => setTimeout(r, 2500)); // let any further rebuild of the same burst show in the log
  const reloads = lines.slice(linesBefore).filter((l) => l.msg === 'content reloaded');
  const result: ReloadResult = {
    lessons: ids.length,
    singleMs,
    singleMedianMs: round(median(singleMs), 1),
    singleMaxMs: Math.max(...singleMs),
    burstFiles: burst.length,
    burstWriteMs,
    burstServedMs: round(served - t0, 1),
    burstServedAfterLastWriteMs: round(served - lastWrite, 1),
    burstRebuilds: reloads.length,
    burstFilesReloaded: reloads.reduce((n, l) => n + (l.changed_files ?? 0), 0),
  };
  o.log(
    `  reload on ${ids.length} lessons: one file served after ${result.singleMedianMs} ms (median of ${singleMs.length}, max ${result.singleMaxMs}); burst of ${burst.length} written in ${burstWriteMs} ms, all served after ${result.burstServedMs} ms (${result.burstServedAfterLastWriteMs} ms after the last write), ${result.burstRebuilds} rebuild(s)`,
  );
  return result;
}

/**
 * Profiles one single-file reload: the service process from the write of one lesson file until its new title
 * is served (the samples of that window only; the polling requests are in it too).
 */
function profileReload(serverBundle: string, dir: string): Promise<ProfileSummary> {
  return withProfileDir(async (profileDir) => {
    const server = await startServerProcess(serverBundle, [], {
      env: { CONTENT_DIR: dir, LOG_LEVEL: 'info' },
      readyPath: '/v1/catalog',
      timeoutMs: 300_000,
      nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
    });
    const deadline = performance.now() + 120_000;
    while (!server.child.output().includes('"msg":"serving"') && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    // As the timed trials do: the start's compression of the whole index would otherwise fill the profile.
    await waitUntilCompressed(server.url, '/v1/catalog', 300_000);
    await new Promise((r) => setTimeout(r, 600));
    const files = await lessonFiles(dir);
    const id = [...files.keys()][Math.floor(files.size / 3)]!;
    const title = `Profiled reload ${Date.now()}`;
    const written = performance.now();
    await retitle(files.get(id)!, title);
    const served = await servedWithTitle(server.url, id, title, 60_000);
    await server.child.stop(30_000);
    const stopped = performance.now();
    return { skipEndMs: stopped - served, lengthMs: served - written };
  });
}
