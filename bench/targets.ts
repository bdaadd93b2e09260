/**
 * The targets of issue 18, stated once: each names its goal and judges a run's results. `report.ts` renders them
 * as the table at the top of docs/performance.md (measured value and met or missed), and `run.ts` profiles
 * what a missed target points at.
 */
import { RIVALS, type ScenarioResult } from './http.js';
import type { CorpusResult } from './content-serve.js';
import type { FloodSample } from './flood.js';
import type { BenchResults } from './report.js';
import { median, round, thousands as n } from './lib/stats.js';

/** The goals, as numbers. Ratios are ours ÷ the raw `node:http` baseline of the same run unless said otherwise. */
export const GOALS = {
  /** `/v1/catalog` requests/s, every middleware on, access log at the default level. */
  catalogRpsRatio: 0.85,
  /** `/v1/catalog` p99 latency. */
  catalogP99Ratio: 1.5,
  /** `/v1/catalog` server CPU per request. */
  catalogCpuRatio: 1.2,
  /** Every other route of the HTTP table, requests/s. */
  otherRpsRatio: 0.8,
  /** A verified agent signing every request afresh (Ed25519), requests/s. */
  verifiedRpsRatio: 0.6,
  /** Cold start to the first served request on 10,000 lessons, milliseconds. */
  coldMs10k: 1000,
  /** Peak RSS of that cold start, MiB. */
  coldPeakMiB10k: 150,
  /** Cold start ÷ reading the same files and parsing their frontmatter alone (judged on lesson-shaped Markdown). */
  coldBaselineRatio: 2,
  /** Cold start on 50,000 lessons, milliseconds. */
  coldMs50k: 4000,
  /** Peak RSS of that cold start, MiB. */
  coldPeakMiB50k: 500,
  /** One changed lesson served after the write (median), milliseconds. */
  singleReloadMs: 150,
  /** A burst of changed files: reloads. */
  burstReloads: 1,
  /** A burst of changed files served after the last write, milliseconds. */
  burstServedAfterLastWriteMs: 1500,
  /** Address flood: CPU per request in the last third of the chunks ÷ the first third, medians (bucket cost flat). */
  floodCpuGrowth: 1.25,
} as const;

/** The HTTP scenarios held to {@link GOALS.otherRpsRatio} (names of `bench/http.ts`). */
export const OTHER_ROUTES = ['catalog gzip', 'catalog 304', 'course', 'lesson', '404', '422', 'health', 'catalog, anonymous'] as const;

/** Whether the service served more requests/s (medians) than every rival; undefined where the rivals did not run. */
export function beatsRivals(s: ScenarioResult): boolean | undefined {
  const { rivals } = s;
  return rivals && RIVALS.every((name) => s.ours.requestsPerSecond > rivals[name].side.requestsPerSecond);
}

/** One row of the target table. */
export interface TargetRow {
  target: string;
  goal: string;
  measured: string;
  met: boolean;
}

/** The rows this run measured (a section left out of the run gives none). */
export function judgeTargets(r: BenchResults): TargetRow[] {
  const rows: TargetRow[] = [];
  const scenario = (name: string) => r.http?.scenarios.find((s) => s.name === name);

  const catalog = scenario('catalog');
  if (catalog) {
    const cpu = round(catalog.ours.cpuUsPerRequest / catalog.baseline.cpuUsPerRequest, 2);
    rows.push(
      {
        target: '`/v1/catalog` requests/s (every step on, access log at `info`)',
        goal: `≥ ${GOALS.catalogRpsRatio}× raw`,
        measured: `${catalog.rpsRatio}× (${n(catalog.ours.requestsPerSecond)} vs ${n(catalog.baseline.requestsPerSecond)})`,
        met: catalog.rpsRatio >= GOALS.catalogRpsRatio,
      },
      {
        target: '`/v1/catalog` p99',
        goal: `≤ ${GOALS.catalogP99Ratio}× raw`,
        measured: `${catalog.p99Ratio}× (${catalog.ours.p99Ms} vs ${catalog.baseline.p99Ms} ms)`,
        met: catalog.p99Ratio <= GOALS.catalogP99Ratio,
      },
      {
        target: '`/v1/catalog` server CPU per request',
        goal: `≤ ${GOALS.catalogCpuRatio}× raw`,
        measured: `${cpu}× (${catalog.ours.cpuUsPerRequest} vs ${catalog.baseline.cpuUsPerRequest} µs)`,
        met: cpu <= GOALS.catalogCpuRatio,
      },
    );
  }
  for (const name of OTHER_ROUTES) {
    const s = scenario(name);
    if (s)
      rows.push({
        target: `${name} (\`${s.path}\`) requests/s`,
        goal: `≥ ${GOALS.otherRpsRatio}× raw`,
        measured: `${s.rpsRatio}×`,
        met: s.rpsRatio >= GOALS.otherRpsRatio,
      });
  }
  const verified = scenario('catalog, verified agent');
  if (verified)
    rows.push({
      target: 'verified agent (Ed25519, a fresh signature each request) requests/s',
      goal: `≥ ${GOALS.verifiedRpsRatio}× raw`,
      measured: `${verified.rpsRatio}× (${n(verified.ours.requestsPerSecond)} vs ${n(verified.baseline.requestsPerSecond)})`,
      met: verified.rpsRatio >= GOALS.verifiedRpsRatio,
    });

  const compared = r.http?.scenarios.filter((s) => s.rivals) ?? [];
  if (compared.length > 0) {
    const missed = compared.filter((s) => !beatsRivals(s)).map((s) => s.name);
    rows.push({
      target: 'the same app on Fastify 5 and Hono 4 with their usual rate-limit plugin, same bytes: requests/s',
      goal: 'faster than both in every configuration',
      measured: `faster in ${compared.length - missed.length} of ${compared.length}${missed.length ? ` (not in: ${missed.join(', ')})` : ''}`,
      met: missed.length === 0,
    });
  }

  for (const corpus of contentCorpora(r)) rows.push(...contentRows(corpus));

  const flood = r.flood;
  const thirds = flood && floodThirds(flood.samples);
  if (flood && thirds) {
    const { first, last } = thirds;
    const growth = round(last / first, 2);
    const bounded = flood.firstAddressRemaining === flood.freshRemaining && flood.lastAddressRemaining < flood.freshRemaining;
    rows.push({
      target: `${n(flood.addresses)} distinct client addresses: RSS bounded, bucket cost per request flat`,
      goal: `oldest buckets evicted; CPU/request, last third of the chunks ÷ first third (medians) ≤ ${GOALS.floodCpuGrowth}`,
      measured: `RSS ${flood.rssBeforeMiB} → ${flood.rssAfterMiB} MiB (peak ${flood.peakRssMiB}), ${bounded ? 'oldest evicted' : 'oldest **not** evicted'}; CPU ${first} → ${last} µs (×${growth})`,
      met: bounded && growth <= GOALS.floodCpuGrowth,
    });
  }
  return rows;
}

/**
 * The median CPU per request (µs) of the first and of the last third of a flood's chunks (at least one chunk each):
 * one chunk alone moved by ±30 % between runs of the same build (first ÷ last from ×0.75 to ×1.41).
 */
function floodThirds(samples: readonly FloodSample[]): { first: number; last: number } | undefined {
  if (samples.length === 0) return undefined;
  const third = Math.max(1, Math.floor(samples.length / 3));
  const cpu = (chunk: readonly FloodSample[]) => round(median(chunk.map((s) => s.cpuUsPerRequest)), 1);
  return { first: cpu(samples.slice(0, third)), last: cpu(samples.slice(-third)) };
}

/** The content results by corpus; a results file written before the real corpus holds generated lessons only. */
export function contentCorpora(r: BenchResults): CorpusResult[] {
  const content = r.content as BenchResults['content'] | Pick<CorpusResult, 'cold' | 'reload'> | undefined;
  if (content === undefined) return [];
  return 'corpora' in content ? content.corpora : [{ corpus: 'generated', documents: null, ...content }];
}

/** `10,000 generated lessons`, `10,000 lessons of lesson-shaped Markdown`. */
const CORPUS_SIZES: Record<CorpusResult['corpus'], (lessons: number) => string> = {
  generated: (lessons) => `${n(lessons)} generated lessons`,
  real: (lessons) => `${n(lessons)} lessons of lesson-shaped Markdown`,
};

/** The content targets on one corpus: cold starts at 10k and 50k, the frontmatter-baseline ratio, reloads. */
function contentRows(c: CorpusResult): TargetRow[] {
  const rows: TargetRow[] = [];
  const sizeOf = CORPUS_SIZES[c.corpus];
  const sized = [
    { lessons: 10_000, ms: GOALS.coldMs10k, rss: GOALS.coldPeakMiB10k },
    { lessons: 50_000, ms: GOALS.coldMs50k, rss: GOALS.coldPeakMiB50k },
  ];
  for (const { lessons, ms, rss } of sized) {
    const cold = c.cold.find((x) => x.lessons === lessons);
    if (!cold) continue;
    const size = sizeOf(lessons);
    rows.push(
      { target: `cold start to first served request, ${size}`, goal: `≤ ${n(ms)} ms`, measured: `${n(cold.wallMs)} ms`, met: cold.wallMs <= ms },
      {
        target: `peak RSS, ${size} (steady state: a few seconds after the compressed index was served)`,
        goal: `≤ ${rss} MiB, steady state reported`,
        measured: `${cold.peakRssMiB} MiB (steady ${cold.steadyRssMiB === undefined ? '—' : `${cold.steadyRssMiB} MiB`})`,
        met: cold.peakRssMiB <= rss,
      },
    );
  }
  if (c.corpus === 'real') {
    for (const cold of c.cold) {
      if (cold.baselineRatio === undefined) continue;
      rows.push({
        target: `cold start ÷ reading the files and parsing their frontmatter alone, ${sizeOf(cold.lessons)}`,
        goal: `≤ ${GOALS.coldBaselineRatio}×`,
        measured: `${cold.baselineRatio}× (${n(cold.wallMs)} vs ${n(cold.baselineMs)} ms)`,
        met: cold.baselineRatio <= GOALS.coldBaselineRatio,
      });
    }
  }
  const rl = c.reload;
  if (rl) {
    const size = sizeOf(rl.lessons);
    rows.push({
      target: `one changed lesson served after the write, ${size} (median)`,
      goal: `≤ ${GOALS.singleReloadMs} ms`,
      measured: `${n(rl.singleMedianMs)} ms (first reload of the process ${n(rl.singleMs[0]!)}, max ${n(rl.singleMaxMs)})`,
      met: rl.singleMedianMs <= GOALS.singleReloadMs,
    });
    const after = rl.burstServedAfterLastWriteMs ?? Math.max(0, rl.burstServedMs - rl.burstWriteMs);
    rows.push({
      target: `a burst of ${n(rl.burstFiles)} changed files, ${size}: reloads, and all served after the last write`,
      goal: `${GOALS.burstReloads} reload, ≤ ${n(GOALS.burstServedAfterLastWriteMs)} ms`,
      measured: `${rl.burstRebuilds} reload${rl.burstRebuilds === 1 ? '' : 's'}, ${n(after)} ms`,
      met: rl.burstRebuilds === GOALS.burstReloads && after <= GOALS.burstServedAfterLastWriteMs,
    });
  }
  return rows;
}
