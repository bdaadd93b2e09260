/**
 * Writes the benchmark's results: `performance.json` (everything measured, every run) and `performance.md`
 * (tables with the machine, Node version and date, the targets and whether they were met, the profiles, and
 * the maintained analysis in bench/analysis.md).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, type as osType, release } from 'node:os';
import { spawnSync } from 'node:child_process';
import { CORPUS_NAMES, type CorpusResult } from './content-serve.js';
import type { FloodResult } from './flood.js';
import type { SignatureBenchResult } from './signatures.js';
import { RIVALS, type HostsResult, type RivalName, type ScenarioResult } from './http.js';
import type { ProfileSummary } from './lib/profile.js';
import { canPin } from './lib/proc.js';
import { thousands as n } from './lib/stats.js';
import { beatsRivals, contentCorpora, judgeTargets } from './targets.js';

/** Where and how the run was made. */
export interface RunInfo {
  date: string;
  quick: boolean;
  /** `git describe --always --dirty` of the measured tree (uncommitted work of others included when dirty). */
  commit: string;
  node: string;
  os: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  wrk: string;
  pinned: boolean;
  settings: Record<string, number | string>;
  /** Wall time of the whole run, seconds. */
  durationS?: number;
}

/** Everything one run measured. */
export interface BenchResults {
  run: RunInfo;
  http?: { scenarios: ScenarioResult[]; directoryFetches: number };
  hosts?: HostsResult;
  content?: { corpora: CorpusResult[] };
  flood?: FloodResult;
  signatures?: SignatureBenchResult;
  profiles: { name: string; what: string; summary: ProfileSummary }[];
}

/** Describes the machine and tools of this run. */
export function runInfo(quick: boolean, settings: RunInfo['settings']): RunInfo {
  const wrk = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  const git = spawnSync('git', ['describe', '--always', '--dirty'], { encoding: 'utf8', cwd: new URL('..', import.meta.url) });
  return {
    date: new Date().toISOString(),
    quick,
    commit: git.status === 0 ? git.stdout.trim() : 'unknown',
    node: process.version,
    os: `${osType()} ${release()}`,
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    wrk:
      (wrk.stdout || wrk.stderr || '')
        .split('\n')[0]
        ?.replace(/ Copyright.*/, '')
        .trim() || 'not installed',
    pinned: canPin,
    settings,
  };
}

const met = (ok: boolean): string => (ok ? '**met**' : '**missed**');

/** How the report names each rival app. */
const RIVAL_LABEL: Readonly<Record<RivalName, string>> = { fastify: 'Fastify', hono: 'Hono' };

/** The overall Fastify/Hono verdict under the HTTP table, and which rival answers differed from the baseline's. */
function rivalSummary(scenarios: readonly ScenarioResult[]): string[] {
  const compared = scenarios.filter((s) => s.rivals);
  if (compared.length === 0) return [];
  const differed = compared.flatMap((s) => RIVALS.filter((name) => !s.rivals![name].sameContent).map((name) => `${RIVAL_LABEL[name]} on ${s.name}`));
  const faster = compared.filter((s) => beatsRivals(s)).length;
  // CPU per request depends far less on the other load of a shared machine than requests/s do.
  const cheaper = compared.filter((s) => RIVALS.every((name) => s.ours.cpuUsPerRequest < s.rivals![name].side.cpuUsPerRequest)).length;
  return [
    differed.length === 0
      ? "Fastify and Hono sent the baseline's status, body bytes and header fields (X-Request-Id and their plugin's RateLimit fields aside) in every configuration they ran."
      : `A rival's answer differed from the baseline's: ${differed.join(', ')}.`,
    `Faster than both Fastify and Hono: ${faster} of ${compared.length} configurations — ${met(faster === compared.length)}. Less server CPU per request than both: ${cheaper} of ${compared.length}.`,
  ];
}

/** A number, or a dash where an older results file has none. */
const num = (v: number | undefined, unit = ''): string => (v === undefined ? '—' : `${n(v)}${unit}`);

function side(s: { requestsPerSecond: number; p50Ms: number; p99Ms: number; rssMiB: number; cpuUsPerRequest: number }): string {
  return `${n(s.requestsPerSecond)} | ${s.p50Ms} | ${s.p99Ms} | ${s.cpuUsPerRequest} | ${s.rssMiB}`;
}

function profileTable(p: BenchResults['profiles'][number]): string[] {
  const lines = [
    `#### ${p.name}`,
    '',
    p.what,
    '',
    `Sampled ${n(p.summary.totalMs)} ms. Self time by file or package:`,
    '',
    '| File / package | Self ms | Share |',
    '|---|--:|--:|',
  ];
  for (const row of p.summary.byFile) lines.push(`| ${row.label} | ${n(row.selfMs)} | ${row.percent} % |`);
  lines.push('', 'Top functions by self time:', '', '| Function — location | Self ms | Share |', '|---|--:|--:|');
  for (const row of p.summary.byFunction) lines.push(`| ${row.label.replace(/\|/g, '\\|')} | ${n(row.selfMs)} | ${row.percent} % |`);
  lines.push(
    '',
    'Charged to the nearest function of our own code on the stack (including what it called: zlib, JSON, dependencies):',
    '',
    '| Our function — location | ms | Share |',
    '|---|--:|--:|',
  );
  for (const row of p.summary.byOwnCode) lines.push(`| ${row.label.replace(/\|/g, '\\|')} | ${n(row.selfMs)} | ${row.percent} % |`);
  lines.push('');
  return lines;
}

const CORPUS_INTROS: Record<CorpusResult['corpus'], string[]> = {
  generated: ['Synthetic valid trees (`bench/generate-content.ts`: a few KB of Markdown per lesson, code blocks, 2–8 steps).'],
  real: [
    'The layout and frontmatter of the generated trees, but each lesson body is a document of the shared lesson corpus',
    '(`../shared/corpus`: real teaching material, four Exercism tracks; `bench/real-corpus.ts`): deduplicated by content, in the',
    'order of their SHA-256, reused cyclically when the tree has more lessons than there are documents.',
  ],
};

function documentsNote(c: CorpusResult): string[] {
  const d = c.documents;
  if (!d) return [];
  const lines = [
    `${n(d.documents)} distinct documents (${(d.bytes / 1048576).toFixed(1)} MiB) from ${n(d.scanned)} \`*.md\` files (${n(d.duplicates)} duplicates; skipped:`,
    `${d.skipped.notUtf8} not UTF-8, ${d.skipped.forbiddenCharacter} holding a character content forbids).`,
    `${d.headingAdded} had no level-2 heading and were given a first line \`## Overview\`; ${d.lineBreaksFixed} had lone carriage returns turned into line feeds.`,
    `${n(d.fastPath)} of ${n(d.documents)} have their steps counted by the loader's line scanner alone (\`src/content/steps.ts\`).`,
  ];
  const largest = Math.max(0, ...c.cold.map((x) => x.lessons));
  if (largest > d.documents)
    lines.push(`The corpus holds fewer documents than lessons: each is used about ${(largest / d.documents).toFixed(1)} times in the largest tree.`);
  return lines;
}

function contentSection(c: CorpusResult): string[] {
  const title = CORPUS_NAMES[c.corpus];
  const out = [
    `## Content: cold start on ${title}`,
    '',
    ...CORPUS_INTROS[c.corpus],
    ...documentsNote(c),
    'In a temporary folder. Wall time from spawning the service process to its first 200 on `/v1/catalog` (configuration,',
    'content load and validation, index build, pages, listening). Files per second = files in the tree ÷ that time. RSS when the',
    'first request was served, once the watchers are ready, the peak, and at steady state (a few seconds after the compressed',
    'index was served; the service exposes no GC trigger). The service serves identity bodies first and swaps their gzip/br forms',
    'in when compressed: "compressed" is when `/v1/catalog` was first served gzip-encoded. Baseline: a process that only reads',
    'every file of the same tree and parses its frontmatter with gray-matter (`bench/frontmatter-baseline.js`), timed from its',
    'spawn to its exit, run before each cold start; ratio = service ÷ baseline.',
    '',
    '| Lessons | Files | Tree MiB | First request served (ms) | Files/s | Compressed (ms) | RSS at first request | RSS ready | Peak RSS | Steady RSS | Baseline (ms) | Baseline peak RSS | Ratio | Runs (ms) |',
    '|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|',
  ];
  for (const x of c.cold) {
    out.push(
      `| ${n(x.lessons)} | ${n(x.files)} | ${x.treeMiB} | ${n(x.wallMs)} | ${n(x.filesPerSecond)} | ${n(x.compressedMs)} | ${x.rssAtFirstServeMiB} | ${x.rssReadyMiB} | ${x.peakRssMiB} | ${num(x.steadyRssMiB)} | ${num(x.baselineMs)} | ${num(x.baselinePeakRssMiB)} | ${x.baselineRatio === undefined ? '—' : `${x.baselineRatio}×`} | ${x.runs.map((y) => n(y.wallMs)).join(', ')} |`,
    );
  }
  out.push('');
  const rl = c.reload;
  if (rl) {
    out.push(
      `## Content: incremental reload on ${title}`,
      '',
      `On the ${n(rl.lessons)}-lesson tree, with the service watching it. Time from writing a lesson file (its title changed) until`,
      '`/v1/lessons/{id}` serves the new title (polled); then a burst of changed files, until every polled lesson of the burst serves',
      'its new title.',
      '',
      '| Measure | Value |',
      '|---|---|',
      `| one changed file → served (median, max) | ${n(rl.singleMedianMs)} ms, ${n(rl.singleMaxMs)} ms (trials: ${rl.singleMs.map(n).join(', ')}) |`,
      `| burst of ${n(rl.burstFiles)} changed files: writing them | ${n(rl.burstWriteMs)} ms |`,
      `| burst: first write → all served | ${n(rl.burstServedMs)} ms |`,
      `| burst: last write → all served | ${num(rl.burstServedAfterLastWriteMs, ' ms')} |`,
      `| burst: rebuilds logged (files they covered) | ${rl.burstRebuilds} (${n(rl.burstFilesReloaded)}) |`,
      '',
    );
  }
  return out;
}

/** Renders performance.md. `analysis` is the maintained commentary (bench/analysis.md), appended as is. */
export function renderMarkdown(r: BenchResults, analysis: string): string {
  const { run } = r;
  const out: string[] = [
    '# Performance',
    '',
    `Generated by \`npm run bench\`${run.quick ? ' **with --quick (smoke run: short, small, not representative)**' : ''} on ${run.date.slice(0, 10)} (${run.date}). Do not edit the tables by hand: run the benchmark again. The commentary at the end comes from \`bench/analysis.md\`.`,
    '',
    '| Machine | |',
    '|---|---|',
    `| CPU | ${run.cpu}, ${run.cores} cores |`,
    `| Memory | ${run.memoryGiB} GiB |`,
    `| OS | ${run.os} |`,
    `| Node.js | ${run.node} |`,
    `| Code measured | \`${run.commit}\` (compiled from the working tree) |`,
    `| Load generator | ${run.wrk} |`,
    `| Pinning | ${run.pinned ? 'server on core 0, wrk on core 1 (`taskset`)' : 'none (taskset unavailable)'} |`,
    `| Settings | ${Object.entries(run.settings)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')} |`,
    ...(run.durationS !== undefined ? [`| Run time | ${Math.round(run.durationS)} s |`] : []),
    '',
    '## Targets',
    '',
    '| Target | Goal | Measured | |',
    '|---|---|---|---|',
    ...judgeTargets(r).map((t) => `| ${t.target} | ${t.goal} | ${t.measured} | ${met(t.met)} |`),
    '',
  ];

  if (r.http) {
    out.push(
      '## HTTP: the service against a raw `node:http` server writing the same bytes',
      '',
      'Each row: one path and client, served by the service (`dist/server.js`, the production bundle, at the default',
      '`LOG_LEVEL=info`: one access-log line per request, written to /dev/null — except the "access log off" row, `LOG_LEVEL=warn`;',
      'the verified agent signs every request afresh, with a nonce of its own; budgets raised to',
      '10⁹ per minute so the rate-limit step runs but never refuses) and by `bench/raw-baseline.js` replaying the response captured',
      'from the service (same status, header fields and body bytes). Medians of the measured runs; latency in ms; RSS in MiB after',
      "the runs. CPU = the server process's user + system time per request during the measured runs, in µs (from /proc; it",
      'depends far less on other load than requests/s do). Ratios: req/s and p99 ours ÷ baseline; CPU baseline ÷ ours (the',
      'throughput ratio one idle core would give).',
      '',
      'Fastify and Hono: the same answers from `bench/rivals/fastify-app.ts` (Fastify 5, `@fastify/rate-limit`) and',
      '`bench/rivals/hono-app.ts` (Hono 4 on `@hono/node-server`, `hono-rate-limiter`), each replaying the spec the baseline',
      'replays, with a route per path (`:id` params validated against the contract), the RateLimit fields of its plugin (in-memory',
      "store, keyed by client address, the service's budget and window), a UUID X-Request-Id, and its usual logger at the same",
      'level as the service (request log on in the "access log on" row only). Their cells: req/s ratio to the baseline (req/s;',
      'CPU µs per request). Faster than both: ours served more requests/s than each of them (medians of alternating runs).',
      '',
      '| Configuration | Path | Client (classified as) | Status | Body bytes | Ours req/s | p50 | p99 | CPU µs | RSS | Baseline req/s | p50 | p99 | CPU µs | RSS | req/s ratio | p99 ratio | CPU ratio | Fastify | Hono | Faster than both |',
      '|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|',
    );
    for (const s of r.http.scenarios) {
      const { rivals } = s;
      const rivalCells = RIVALS.map((name) =>
        rivals ? `${rivals[name].rpsRatio}× (${n(rivals[name].side.requestsPerSecond)}; ${rivals[name].side.cpuUsPerRequest} µs)` : '—',
      ).join(' | ');
      const beats = beatsRivals(s);
      out.push(
        `| ${s.name} | \`${s.path}\` | ${s.client}${s.classifiedAs === s.client ? '' : ` (**${s.classifiedAs}**)`} | ${s.status} | ${n(s.bodyBytes)} | ${side(s.ours)} | ${side(s.baseline)} | ${s.rpsRatio} | ${s.p99Ratio} | ${s.cpuRatio} | ${rivalCells} | ${beats === undefined ? '—' : met(beats)} |`,
      );
    }
    const notIdentical = r.http.scenarios.filter((s) => !s.baselineIdentical).map((s) => s.name);
    out.push(
      '',
      notIdentical.length === 0
        ? 'The baseline sent the same status, header fields and body bytes as the service in every configuration (checked before measuring).'
        : `The baseline's answer differed from the service's in: ${notIdentical.join(', ')}.`,
      `The verified agent's key directory was fetched ${r.http.directoryFetches} time(s) for the whole run (cached afterwards).`,
      ...rivalSummary(r.http.scenarios),
      '',
    );
  }

  // A run saved before the Node adapter measured other hosts: its rows are left out rather than mislabelled.
  if (r.hosts?.node) {
    const h = r.hosts;
    out.push(
      '## The app on two Node hosts',
      '',
      `The same app (\`bench/hosts-app.ts\`, composed as \`src/server/start.ts\` composes it) serving \`${h.path}\` to a declared agent.`,
      '',
      '| Host | req/s | p50 | p99 | CPU µs/request | RSS | req/s ratio to raw |',
      '|---|--:|--:|--:|--:|--:|--:|',
      `| \`node:http\` adapter (in production) | ${side(h.node)} | ${h.nodeRatio} |`,
      `| HatTip handler on \`@hattip/adapter-node\` | ${side(h.hattip)} | ${h.hattipRatio} |`,
      `| raw \`node:http\` | ${side(h.baseline)} | 1 |`,
      '',
    );
  }

  for (const c of contentCorpora(r)) out.push(...contentSection(c));

  if (r.flood) {
    const f = r.flood;
    out.push(
      '## Memory under an address flood',
      '',
      `\`TRUST_PROXY=127.0.0.1\`; every request to \`${f.path}\` carries a new client address in \`X-Forwarded-For\` (\`bench/flood.lua\`),`,
      `${n(f.addresses)} distinct addresses in all, at ${n(f.requestsPerSecond)} requests/s.`,
      '',
      '| Addresses sent | RSS (MiB) |',
      '|--:|--:|',
      `| 0 (after warm-up) | ${f.rssBeforeMiB} |`,
      ...f.samples.map((s) => `| ${n(s.addresses)} | ${s.rssMiB} |`),
      '',
      `Peak RSS ${f.peakRssMiB} MiB. Asked again afterwards, the flood's first address had \`RateLimit-Remaining: ${f.firstAddressRemaining}\``,
      `and its last ${f.lastAddressRemaining}, while a never-seen address starts at ${f.freshRemaining}: ${
        f.firstAddressRemaining === f.freshRemaining && f.lastAddressRemaining < f.freshRemaining
          ? 'the oldest buckets were forgotten and the newest kept — the store is bounded.'
          : 'see the analysis.'
      }`,
      '',
    );
  }

  if (r.signatures) {
    const g = r.signatures;
    out.push(
      '## Verified agents, and signatures that cannot verify',
      '',
      `\`/v1/catalog\` with one pre-signed Ed25519 signature: ${n(g.verifiedRps)} requests/s, against ${n(g.anonymousRps)} unsigned (×${g.verifiedRatio}).`,
      '',
      'Other clients (a new address per request) alone, then while one attacker address on 8 connections sends requests',
      'carrying 3 signatures of random bytes, naming its own key directory with an RSA key (`bench/garbage-signatures.lua`):',
      '',
      "| Attacker | Others alone (req/s) | Others attacked (req/s) | Ratio | Attacker (req/s) | Attacker refused (429) | Others' requests lost per attacker request |",
      '|--|--:|--:|--:|--:|--:|--:|',
      ...g.attacks.map(
        (a) =>
          `| ${a.keyBits === 0 ? 'no signature (reference)' : `RSA-${a.keyBits} signatures`} | ${n(a.aloneRps)} | ${n(a.attackedRps)} | ×${a.ratio} | ${n(a.attackerRps)} | ${Math.round(a.attackerRefusedShare * 100)} % | ${a.costInRequests} |`,
      ),
      '',
    );
  }

  if (r.profiles.length > 0) {
    out.push('## Profiles (`node --cpu-prof`)', '', 'Taken in this run where a target was missed.', '');
    for (const p of r.profiles) out.push(...profileTable(p));
  }

  if (analysis.trim() !== '') out.push(analysis.trim(), '');
  return out.join('\n');
}

/** Writes `<base>.json` and `<base>.md`. */
export function writeResults(base: string, results: BenchResults, analysisFile: string): void {
  writeFileSync(`${base}.json`, `${JSON.stringify(results, null, 2)}\n`);
  const analysis = existsSync(analysisFile) ? readFileSync(analysisFile, 'utf8') : '';
  writeFileSync(`${base}.md`, renderMarkdown(results, analysis));
}
