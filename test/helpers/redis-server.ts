/**
 * A real, throw-away `redis-server` for tests (Debian's package; `scripts/setup-test-deps.sh` installs it):
 * a free loopback port, no persistence, killed by {@link RedisServer.stop}.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import getPort from 'get-port';

/** A running redis-server. */
export interface RedisServer {
  /** Its port on 127.0.0.1 (kept across {@link RedisServer.restart}). */
  port: number;
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  /** Kills it at once (SIGKILL), like a crash. */
  kill(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open, nothing is answered. */
  pause(): void;
  /** Thaws it (SIGCONT). */
  resume(): void;
  /** Starts it again on the same port (empty: nothing persisted). */
  restart(): Promise<void>;
  /** Stops it for good. */
  stop(): Promise<void>;
}

async function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start on ${port}:\n${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
  child.stdout.resume();
  child.stderr.resume();
  return child;
}

async function killChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** Starts a redis-server on a free loopback port. */
export async function startRedis(): Promise<RedisServer> {
  for (let attempt = 0; ; attempt++) {
    const port = await getPort({ host: '127.0.0.1' });
    let child: ChildProcess;
    try {
      child = await launch(port);
    } catch (error) {
      if (attempt < 3) continue; // the port was taken in between
      throw error;
    }
    const server: RedisServer = {
      port,
      url: `redis://127.0.0.1:${port}`,
      kill: () => killChild(child),
      pause: () => void child.kill('SIGSTOP'),
      resume: () => void child.kill('SIGCONT'),
      restart: async () => {
        await killChild(child);
        child = await launch(port);
      },
      stop: () => killChild(child),
    };
    return server;
  }
}
