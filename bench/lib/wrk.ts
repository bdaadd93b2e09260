/**
 * Runs `wrk` (pinned to its own core) and reads its result as JSON, written by a Lua `done()` hook appended
 * to every script, instead of scraping wrk's human-readable output.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinned } from './proc.js';

/** Whether `wrk` is installed (`bench/setup.sh` installs it). */
export const hasWrk: boolean = spawnSync('wrk', ['--version']).error === undefined;

/** Options of {@link runWrk}. */
export interface WrkOptions {
  /** Full URL, loopback only. */
  url: string;
  /** Request header fields sent with every request. */
  headers?: Readonly<Record<string, string>>;
  /** Duration in seconds (whole seconds). */
  durationS: number;
  /** Open connections (default 32). */
  connections?: number;
  /** wrk threads (default 1). */
  threads?: number;
  /** Core to pin wrk to (default 1). */
  cpu?: number;
  /** Path of an extra Lua script (its `request()`/`init()`), e.g. `bench/flood.lua`. */
  script?: string;
  /** Arguments passed to the script's `init(args)` after `--`. */
  scriptArgs?: string[];
}

/** One wrk run. Latencies in milliseconds. */
export interface WrkResult {
  requests: number;
  durationS: number;
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  bytes: number;
  /** Responses whose status was not 2xx/3xx (wrk's `Non-2xx or 3xx responses`). */
  non2xx3xx: number;
  /** Socket errors: connect, read, write, timeout. */
  socketErrors: number;
}

const MARKER = '@@WRK_JSON@@';

/** The Lua `done()` hook: one JSON line after the run. */
const DONE_LUA = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('${MARKER}{"requests":%d,"duration_us":%d,"bytes":%d,"p50":%d,"p90":%d,"p99":%d,"max":%d,"status":%d,"socket":%d}\\n',
    summary.requests, summary.duration, summary.bytes, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max, e.status, e.connect + e.read + e.write + e.timeout))
end
`;

/** Parses the JSON line written by the `done()` hook. @throws Error when wrk printed none. */
export function parseWrkOutput(output: string): WrkResult {
  const line = output.split('\n').find((l) => l.startsWith(MARKER));
  if (line === undefined) throw new Error(`wrk printed no result:\n${output}`);
  const r = JSON.parse(line.slice(MARKER.length)) as Record<string, number>;
  const durationS = r.duration_us! / 1e6;
  return {
    requests: r.requests!,
    durationS,
    requestsPerSecond: r.requests! / durationS,
    p50Ms: r.p50! / 1000,
    p90Ms: r.p90! / 1000,
    p99Ms: r.p99! / 1000,
    maxMs: r.max! / 1000,
    bytes: r.bytes!,
    non2xx3xx: r.status!,
    socketErrors: r.socket!,
  };
}

/** Runs wrk once. @throws Error when wrk fails or prints no result. */
export async function runWrk(options: WrkOptions): Promise<WrkResult> {
  const url = new URL(options.url);
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost' && url.hostname !== '[::1]') {
    throw new Error(`wrk target must be loopback, not ${url.hostname}`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'syllabus-wrk-'));
  try {
    const script = join(dir, 'run.lua');
    writeFileSync(script, (options.script ? readFileSync(options.script, 'utf8') : '') + DONE_LUA);
    const args = [
      `-t${options.threads ?? 1}`,
      `-c${options.connections ?? 32}`,
      `-d${Math.max(1, Math.round(options.durationS))}s`,
      '--timeout',
      '5s',
      '--latency',
      '-s',
      script,
    ];
    for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
    args.push(options.url);
    if (options.scriptArgs?.length) args.push('--', ...options.scriptArgs);
    const [command, argv] = pinned(options.cpu ?? 1, 'wrk', args);
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (code !== 0) throw new Error(`wrk exited with ${code}:\n${out}`);
    return parseWrkOutput(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
