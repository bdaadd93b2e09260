/**
 * Starting the processes under test: the service (the bundled `src/server/main.ts`), the host-comparison app
 * and the raw baseline, each alone in its process on core 0, listening on 127.0.0.1.
 */
import { writeFileSync } from 'node:fs';
import { PROCESS_ENVIRONMENT } from '../../src/server/process-environment.js';
import { repoRoot } from './build.js';
import { freePort, startNode, waitUntilServing, type Child } from './proc.js';
import { headerOf, rawGet, type BaselineSpec } from './capture.js';

/**
 * Budgets raised far beyond what a run can spend (1e9 per minute, the configuration's maximum), so no 429
 * occurs while the bucket logic stays on the request path. Each kind gets a different value so that
 * `RateLimit-Policy` shows how a request was classified.
 */
export const RAISED_LIMITS: Readonly<Record<string, string>> = {
  RATE_LIMIT_VERIFIED: '1000000000',
  RATE_LIMIT_DECLARED: '999999999',
  RATE_LIMIT_BROWSER: '999999998',
  RATE_LIMIT_ANONYMOUS: '999999997',
  RATE_LIMIT_REFERRALS: '1000000000',
};

/** The client kind a `RateLimit-Policy` value reveals under {@link RAISED_LIMITS}. */
export function kindOfPolicy(policy: string | undefined): string {
  const limit = policy?.split(';', 1)[0];
  const kinds: Record<string, string> = { '1000000000': 'verified', '999999999': 'declared', '999999998': 'browser', '999999997': 'anonymous' };
  return (limit !== undefined && kinds[limit]) || `unknown (${policy ?? 'no RateLimit-Policy'})`;
}

/** A started server process. */
export interface ServerProcess {
  child: Child;
  /** `http://127.0.0.1:<port>` */
  url: string;
}

/** Options of {@link startService}. */
export interface ServiceOptions {
  /** Extra environment (CONTENT_DIR, LOG_LEVEL, TRUST_PROXY, …). */
  env?: Record<string, string>;
  /** Core to pin to (default 0). */
  cpu?: number;
  /** Path polled until it answers 200 (default `/health`). */
  readyPath?: string;
  /** Status the ready path must answer (default 200; `'any'`: any answer). */
  readyStatus?: number | 'any';
  /** Give up after this many milliseconds (default 120 000). */
  timeoutMs?: number;
  /** Extra Node flags (e.g. `--cpu-prof`). */
  nodeFlags?: string[];
  /** Send the process's stdout (its log) to /dev/null. */
  discardStdout?: boolean;
  /** Called with every stdout line from the first (`output()` keeps only the last 64 KB). */
  onLine?: (line: string) => void;
}

/**
 * Starts a Node script as a server on a free loopback port (`PORT`, `HOST=127.0.0.1`), in the deployment's process
 * environment (`src/server/process-environment.ts`), and waits until it serves.
 * @returns the process, its URL and `startedAt`/`servingAt` (performance.now() milliseconds).
 */
export async function startServerProcess(
  script: string,
  args: string[],
  options: ServiceOptions = {},
): Promise<ServerProcess & { startedAt: number; servingAt: number }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Every server measured runs in the process environment the deployment files give the service.
  const env = {
    ...PROCESS_ENVIRONMENT,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    ...RAISED_LIMITS,
    ...options.env,
    PORT: String(port),
    HOST: '127.0.0.1',
  };
  const startedAt = performance.now();
  const child = startNode([...(options.nodeFlags ?? []), script, ...args], {
    cpu: options.cpu ?? 0,
    env,
    cwd: repoRoot,
    discardStdout: options.discardStdout,
    onLine: options.onLine,
  });
  try {
    const servingAt = await waitUntilServing(
      child,
      url + (options.readyPath ?? '/health'),
      options.timeoutMs ?? 120_000,
      options.readyStatus === 'any' ? undefined : (options.readyStatus ?? 200),
    );
    return { child, url, startedAt, servingAt };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

/**
 * Waits until `path` is served gzip-encoded to a client accepting gzip. The service serves a new index as soon
 * as its bodies are serialised and swaps the compressed forms in afterwards; measuring before that would
 * measure identity bodies.
 * @returns performance.now() of the first compressed answer.
 * @throws Error after `timeoutMs`.
 */
export async function waitUntilCompressed(url: string, path: string, timeoutMs = 120_000): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const answer = await rawGet(url + path, { 'Accept-Encoding': 'gzip', 'User-Agent': 'bench-agent/1.0 (+https://bench.example)' });
    if (headerOf(answer, 'content-encoding') === 'gzip') return performance.now();
    if (performance.now() > deadline) throw new Error(`${path} was not served compressed within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Writes the baseline's spec to `specFile` and starts the raw baseline serving it. */
export async function startBaseline(baselineScript: string, spec: BaselineSpec, specFile: string, readyPath: string): Promise<ServerProcess> {
  writeFileSync(specFile, JSON.stringify(spec));
  const { child, url } = await startServerProcess(baselineScript, [specFile], { readyPath, readyStatus: 'any' });
  return { child, url };
}
