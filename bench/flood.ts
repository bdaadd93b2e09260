/**
 * Memory under an address flood: the service trusts the loopback as its proxy (`TRUST_PROXY=127.0.0.1`) and
 * wrk sends every request with a new client address in `X-Forwarded-For` (bench/flood.lua), until `total`
 * distinct addresses have been counted. RSS is sampled after each chunk: a bounded bucket store levels off.
 */
import { fileURLToPath } from 'node:url';
import { headerOf, rawGet } from './lib/capture.js';
import { cpuTimeUs, memoryOf } from './lib/proc.js';
import { RAISED_LIMITS, startServerProcess, waitUntilCompressed } from './lib/servers.js';
import { mib, round } from './lib/stats.js';
import { runWrk } from './lib/wrk.js';

/** Options of {@link runFloodBench}. */
export interface FloodBenchOptions {
  serverBundle: string;
  contentDir: string;
  /** Distinct client addresses to send (1,000,000 in the full run). */
  total: number;
  /** Seconds per wrk chunk (RSS is sampled between chunks). */
  chunkS: number;
  connections: number;
  log: (line: string) => void;
}

/** RSS after a number of distinct addresses. */
export interface FloodSample {
  addresses: number;
  rssMiB: number;
  /** Server CPU time per request during this chunk, µs (flat while buckets are added and evicted). */
  cpuUsPerRequest: number;
}

/** The flood's outcome. */
export interface FloodResult {
  path: string;
  addresses: number;
  requestsPerSecond: number;
  rssBeforeMiB: number;
  rssAfterMiB: number;
  peakRssMiB: number;
  samples: FloodSample[];
  /**
   * `RateLimit-Remaining` for the flood's first address asked again afterwards, and for its last: the first
   * was forgotten (a fresh budget) when the store is bounded below the flood, the last is still counted.
   */
  firstAddressRemaining: number;
  lastAddressRemaining: number;
  freshRemaining: number;
}

const FLOOD_LUA = fileURLToPath(new URL('./flood.lua', import.meta.url));

/** The address bench/flood.lua sends for number `n` (the first request sent with offset 0 is number 1). */
export function floodAddress(n: number): string {
  const v = n + 0x0b000000;
  return [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join('.');
}

/** Runs the flood against a fresh service process. */
export async function runFloodBench(o: FloodBenchOptions): Promise<FloodResult> {
  const path = '/v1/health';
  const server = await startServerProcess(o.serverBundle, [], { env: { CONTENT_DIR: o.contentDir, TRUST_PROXY: '127.0.0.1' } });
  try {
    await waitUntilCompressed(server.url, '/v1/catalog');
    const url = server.url + path;
    // Warm the process (one address) before the baseline reading.
    await runWrk({ url, durationS: 1, connections: o.connections, headers: { 'X-Forwarded-For': '198.51.100.1' } });
    const rssBefore = memoryOf(server.child.pid).rss;
    const samples: FloodSample[] = [];
    let sent = 0;
    let seconds = 0;
    let lastCompleted = 0;
    while (sent < o.total) {
      const cpuBefore = cpuTimeUs(server.child.pid);
      const r = await runWrk({ url, durationS: o.chunkS, connections: o.connections, script: FLOOD_LUA, scriptArgs: [String(sent)] });
      const cpuUs = cpuTimeUs(server.child.pid) - cpuBefore;
      lastCompleted = sent + r.requests; // requests complete in the order sent on each connection: close enough
      if (r.non2xx3xx > 0) throw new Error(`flood: ${r.non2xx3xx} responses were not 2xx/3xx (a 429 means the budgets were not raised)`);
      // Requests still in flight when wrk stopped used addresses too; skip past them so none repeats.
      sent += r.requests + o.connections;
      seconds += r.durationS;
      const sample = { addresses: sent, rssMiB: mib(memoryOf(server.child.pid).rss), cpuUsPerRequest: round(cpuUs / Math.max(1, r.requests), 1) };
      samples.push(sample);
      o.log(`  ${sent} addresses: RSS ${sample.rssMiB} MiB, CPU ${sample.cpuUsPerRequest} µs/request`);
    }
    const mem = memoryOf(server.child.pid);
    const remaining = async (address: string): Promise<number> =>
      Number(headerOf(await rawGet(url, { 'X-Forwarded-For': address }), 'ratelimit-remaining'));
    const result: FloodResult = {
      path,
      addresses: sent,
      requestsPerSecond: round(sent / seconds),
      rssBeforeMiB: mib(rssBefore),
      rssAfterMiB: mib(mem.rss),
      peakRssMiB: mib(mem.peak),
      samples,
      firstAddressRemaining: await remaining(floodAddress(1)),
      lastAddressRemaining: await remaining(floodAddress(lastCompleted - o.connections)),
      freshRemaining: await remaining('203.0.113.77'),
    };
    return result;
  } finally {
    await server.child.stop();
  }
}

/** The anonymous budget under the benchmark's raised limits (what a fresh address starts with). */
export const FLOOD_BUDGET = Number(RAISED_LIMITS.RATE_LIMIT_ANONYMOUS);
