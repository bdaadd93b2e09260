/**
 * Child processes for the benchmark: every server runs in its own Node process, pinned to one core with
 * `taskset` (when available) so that the load generator, pinned to another core, does not compete with it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import getPort from 'get-port';

/** Whether `taskset` can pin processes here (util-linux). */
export const canPin: boolean = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return getPort({ host: '127.0.0.1' });
}

/** Prefixes a command with `taskset -c <cpu>` when pinning is possible. */
export function pinned(cpu: number | undefined, command: string, args: string[]): [string, string[]] {
  return cpu !== undefined && canPin ? ['taskset', ['-c', String(cpu), command, ...args]] : [command, args];
}

/** A running child process with its output kept for error messages. */
export interface Child {
  process: ChildProcess;
  /** Process id (taskset execs the command, so this is the server's own pid). */
  pid: number;
  /** Everything written to stdout and stderr so far (the last 64 KB). */
  output(): string;
  /** Lines written to stdout, observed as they arrive. */
  onLine(listener: (line: string) => void): void;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Children still running, killed if the benchmark itself is interrupted or fails. */
const live = new Set<ChildProcess>();
let cleanupInstalled = false;
function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const child of live) child.kill('SIGKILL');
      process.exit(130);
    });
  }
}

/**
 * Starts `node <args>` (pinned to `cpu` when given).
 * @param options.discardStdout send stdout to /dev/null (e.g. a busy access log that this process should not
 *   spend CPU reading); `output()` and `onLine` then see stderr only.
 * @param options.onLine a listener of stdout lines attached before the process starts, so it sees the first line.
 */
export function startNode(
  args: string[],
  options: { cpu?: number; env?: Record<string, string>; cwd?: string; discardStdout?: boolean; onLine?: (line: string) => void } = {},
): Child {
  const [command, argv] = pinned(options.cpu, process.execPath, args);
  const child = spawn(command, argv, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', options.discardStdout ? 'ignore' : 'pipe', 'pipe'],
  });
  let out = '';
  let partial = '';
  // A listener given at start sees every line; output() keeps only the last 64 KB (a busy log pushes out the first).
  const listeners: ((line: string) => void)[] = options.onLine ? [options.onLine] : [];
  const keep = (chunk: Buffer): void => {
    out = (out + chunk.toString()).slice(-65536);
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    keep(chunk);
    partial += chunk.toString();
    const lines = partial.split('\n');
    partial = lines.pop()!;
    for (const line of lines) for (const l of listeners) l(line);
  });
  child.stderr!.on('data', keep);
  installCleanup();
  live.add(child);
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => {
      live.delete(child);
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  const stop = async (graceMs = 5000): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  return { process: child, pid: child.pid!, output: () => out, onLine: (l) => listeners.push(l), exited, stop };
}

/** Resident set size and its peak (VmRSS, VmHWM) of a process, in bytes; Linux only (0 elsewhere). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

const CLOCK_TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/**
 * CPU time a process has used so far (user + system, /proc/<pid>/stat), in microseconds; Linux only (0
 * elsewhere). Resolution: one clock tick (usually 10 ms). Unlike throughput, CPU time per request barely
 * depends on what else runs on the machine.
 */
export function cpuTimeUs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at ")"; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND) * 1e6;
  } catch {
    return 0;
  }
}

/**
 * Polls `url` until it answers with `status` (any status when omitted), the child exits, or `timeoutMs` passes.
 * @returns milliseconds (performance.now()) at which the first matching answer arrived.
 * @throws Error with the child's output when it exits first or the time runs out.
 */
export async function waitUntilServing(child: Child, url: string, timeoutMs: number, status?: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  let exited = false;
  void child.exited.then(() => (exited = true));
  for (;;) {
    if (exited) throw new Error(`server exited before serving ${url}:\n${child.output()}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (status === undefined || response.status === status) return performance.now();
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) throw new Error(`server did not serve ${url} within ${timeoutMs} ms:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
