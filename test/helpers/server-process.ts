/**
 * The real entry point as a subprocess (`node --import tsx src/server/main.ts`: the entry point `npm start` runs, from source), for
 * tests of signals, exit codes and start-up. Every process started is killed by {@link killServers}.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import getPort from 'get-port';

const ROOT = join(import.meta.dirname, '..', '..');
const children: ChildProcess[] = [];

/** A started server process and what it printed so far. */
export interface SpawnedServer {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (`null` when a signal ended it). */
  exited: Promise<number | null>;
}

/** How to start it: by default `node --import tsx src/server/main.ts` in the repository. */
export interface SpawnOptions {
  /** Program and arguments, e.g. `['npm', 'start']` or `[process.execPath, 'dist/server.js']`. */
  command?: readonly [string, ...string[]];
  cwd?: string;
}

/** Starts the server with `env` on top of a minimal environment (PATH, HOME, PORT=0; HOST is loopback by default). */
export function spawnServer(env: Record<string, string>, options: SpawnOptions = {}): SpawnedServer {
  const [program, ...args] = options.command ?? [process.execPath, '--import', 'tsx', 'src/server/main.ts'];
  const child = spawn(program, args, {
    cwd: options.cwd ?? ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Log lines (pino JSON on stdout) printed so far, parsed; other lines are skipped. */
export function logLines(s: SpawnedServer): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const line of s.stdout().split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // a line still being written
    }
  }
  return out;
}

/** Resolves with the URL from the "serving" log line. @throws when the process exits or 30 s pass first. */
export async function servingUrl(s: SpawnedServer): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const line = logLines(s).find((l) => l.msg === 'serving');
    if (line) return line.url as string;
    if (s.child.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${s.stderr()}\n${s.stdout()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Kills every process still running (for `afterAll`). */
export function killServers(): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}

/** A TCP port free on 127.0.0.1 right now (for a test that must know the port before the server says it). */
export function freePort(): Promise<number> {
  return getPort({ host: '127.0.0.1' });
}
