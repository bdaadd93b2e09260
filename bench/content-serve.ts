/**
 * Content at scale, measured through the real service process: cold start on generated trees (wall time from
 * process start to the first served `/v1/catalog`, files per second, RSS), and on the 10,000-lesson tree the
 * incremental reload (one changed lesson file until its new title is served; a burst of 1,000 changed files
 * until all are served, and how many rebuilds that took). Trees are written by `generate-content.ts` into a
 * temporary folder and deleted afterwards.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateContent } from './generate-content.js';
import { memoryOf } from './lib/proc.js';
import type { ProfileSummary } from './lib/profile.js';
import { startServerProcess, waitUntilCompressed } from './lib/servers.js';
import { profileColdStart, withProfileDir } from './profiles.js';
import { median, mib, round } from './lib/stats.js';

/** Options of {@link runContentBench}. */
export interface ContentBenchOptions {
  /** The bundled service entry. */
  serverBundle: string;
  /** Tree sizes (lessons) for the cold start. */
  sizes: number[];
  /** Cold starts per size (the largest size runs once when `reps` > 1, to bound the run). */
  reps: number;
  /** The size on which reloads are measured (must be in `sizes`). */
  reloadSize: number;
  /** Single-file reload trials. */
  singleTrials: number;
  /** Files changed in the burst. */
  burstFiles: number;
  /** Profile a cold start at `reloadSize` when it misses this many milliseconds (undefined: never). */
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
  /** Peak RSS of the process up to then (VmHWM), MiB. */
  peakRssMiB: number;
  /** Process start → `/v1/catalog` served gzip-encoded (the compressed index swapped in), milliseconds. */
  compressedMs: number;
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
  runs: ColdRun[];
}

/** Incremental reload on one tree. */
export interface ReloadResult {
  lessons: number;
  /** Write of one lesson file → its new title served, milliseconds, per trial. */
  singleMs: number[];
  singleMedianMs: number;
  singleMaxMs: number;
  burstFiles: number;
  /** Time spent writing the burst, milliseconds. */
  burstWriteMs: number;
  /** First write of the burst → every changed lesson served with its new title, milliseconds. */
  burstServedMs: number;
  /** Rebuilds the service logged for the burst (`content reloaded`), and the files they covered. */
  burstRebuilds: number;
  burstFilesReloaded: number;
}

interface LogLine {
  msg?: string;
  startup_ms?: number;
  changed?: number;
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

/** Starts the service on `dir`, measuring the cold start; leaves it running. */
async function coldStart(serverBundle: string, dir: string) {
  const lines: LogLine[] = [];
  const server = await startServerProcess(serverBundle, [], {
    env: { CONTENT_DIR: dir, LOG_LEVEL: 'info' },
    readyPath: '/v1/catalog',
    timeoutMs: 300_000,
  });
  const firstServe = memoryOf(server.child.pid);
  const compressedAt = await waitUntilCompressed(server.url, '/v1/catalog', 300_000);
  server.child.onLine((line) => {
    try {
      lines.push(JSON.parse(line) as LogLine);
    } catch {
      // not a log line
    }
  });
  // Lines written before the listener was attached are in the output buffer.
  for (const line of server.child.output().split('\n')) {
    try {
      lines.push(JSON.parse(line) as LogLine);
    } catch {
      // partial or not JSON
    }
  }
  const deadline = performance.now() + 120_000;
  while (!lines.some((l) => l.msg === 'serving') && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const ready = memoryOf(server.child.pid);
  const run: ColdRun = {
    wallMs: round(server.servingAt - server.startedAt, 1),
    compressedMs: round(compressedAt - server.startedAt, 1),
    serviceStartupMs: lines.find((l) => l.msg === 'serving')?.startup_ms ?? null,
    rssAtFirstServeMiB: mib(firstServe.rss),
    rssReadyMiB: mib(ready.rss),
    peakRssMiB: mib(ready.peak),
  };
  return { server, run, lines };
}

/** Runs the cold starts at every size, and the reloads on `reloadSize`. */
export async function runContentBench(
  o: ContentBenchOptions,
): Promise<{ cold: ColdResult[]; reload: ReloadResult | null; coldProfile: ProfileSummary | null; reloadProfile: ProfileSummary | null }> {
  const cold: ColdResult[] = [];
  let reload: ReloadResult | null = null;
  let coldProfile: ProfileSummary | null = null;
  let reloadProfile: ProfileSummary | null = null;
  const largest = Math.max(...o.sizes);
  for (const lessons of o.sizes) {
    const dir = await mkdtemp(join(tmpdir(), `syllabus-bench-tree-${lessons}-`));
    try {
      const generated = await generateContent(dir, { lessons });
      const runs: ColdRun[] = [];
      const reps = lessons === largest && o.sizes.length > 1 ? 1 : o.reps;
      for (let rep = 0; rep < reps; rep++) {
        const { server, run, lines } = await coldStart(o.serverBundle, dir);
        runs.push(run);
        try {
          if (lessons === o.reloadSize && rep === reps - 1) reload = await measureReload(server.url, dir, lines, o);
        } finally {
          await server.child.stop();
        }
      }
      const wallMs = median(runs.map((r) => r.wallMs));
      const result: ColdResult = {
        lessons: generated.lessons,
        files: generated.files,
        treeMiB: mib(generated.bytes),
        wallMs: round(wallMs, 1),
        compressedMs: round(median(runs.map((r) => r.compressedMs)), 1),
        filesPerSecond: round(generated.files / (wallMs / 1000)),
        rssAtFirstServeMiB: round(median(runs.map((r) => r.rssAtFirstServeMiB)), 1),
        rssReadyMiB: round(median(runs.map((r) => r.rssReadyMiB)), 1),
        peakRssMiB: round(median(runs.map((r) => r.peakRssMiB)), 1),
        runs,
      };
      cold.push(result);
      if (lessons === o.reloadSize && o.profileAboveMs !== undefined && result.wallMs > o.profileAboveMs) {
        coldProfile = await profileColdStart(o.serverBundle, dir);
      }
      if (reload !== null && lessons === o.reloadSize && o.profileReloadAboveMs !== undefined && reload.singleMedianMs > o.profileReloadAboveMs) {
        reloadProfile = await profileReload(o.serverBundle, dir);
      }
      o.log(
        `  ${lessons} lessons (${generated.files} files, ${result.treeMiB} MiB): first request served after ${result.wallMs} ms (compressed after ${result.compressedMs} ms), ${result.filesPerSecond} files/s, RSS ${result.rssReadyMiB} MiB (peak ${result.peakRssMiB})`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return { cold, reload, coldProfile, reloadProfile };
}

async function measureReload(url: string, dir: string, lines: LogLine[], o: ContentBenchOptions): Promise<ReloadResult> {
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
  const burstWriteMs = round(performance.now() - t0, 1);
  let served = 0;
  for (const id of [burst[burst.length - 1]!, burst[0]!, ...burst.filter((_, i) => i % 50 === 25)]) {
    served = Math.max(served, await servedWithTitle(url, id, `Burst ${stamp} ${id}`, 60_000));
  }
  await new Promise((r) => setTimeout(r, 2500)); // let any further rebuild of the same burst show in the log
  const reloads = lines.slice(linesBefore).filter((l) => l.msg === 'content reloaded');
  const result: ReloadResult = {
    lessons: ids.length,
    singleMs,
    singleMedianMs: median(singleMs),
    singleMaxMs: Math.max(...singleMs),
    burstFiles: burst.length,
    burstWriteMs,
    burstServedMs: round(served - t0, 1),
    burstRebuilds: reloads.length,
    burstFilesReloaded: reloads.reduce((n, l) => n + (l.changed ?? 0), 0),
  };
  o.log(
    `  reload on ${ids.length} lessons: one file served after ${result.singleMedianMs} ms (median of ${singleMs.length}, max ${result.singleMaxMs}); burst of ${burst.length} written in ${burstWriteMs} ms, all served after ${result.burstServedMs} ms, ${result.burstRebuilds} rebuild(s)`,
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
