/**
 * A stalled stdout (a pipe nobody reads): the logger's buffer stays bounded, dropped lines are counted, and SIGTERM
 * still ends the process within SHUTDOWN_TIMEOUT instead of hanging in the logger's exit hook.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import getPort from 'get-port';
import { describe, expect, it } from 'vitest';
import { eventually } from './helpers/eventually.js';

const ROOT = join(import.meta.dirname, '..');

/** Spawns `args` with stdout a pipe that is never read (it fills, then every write would block). */
function spawnStalled(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pause(); // never read
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, stderr: () => stderr };
}

describe('a stalled stdout', () => {
  it('keeps the log buffer bounded and counts what it drops', async () => {
    const flood = spawnStalled(['test/fixtures/logger/flood.ts'], { LINES: '100000', BOUND: String(256 * 1024) });
    const { code } = await flood.exited;
    expect(code).toBe(0);
    const report = JSON.parse(flood.stderr().trim().split('\n').at(-1)!) as { dropped: number; rssGrowthMiB: number };
    // ~40 MB of lines against a 256 KiB bound: nearly all dropped, and memory does not follow the lines.
    expect(report.dropped).toBeGreaterThan(90_000);
    expect(report.rssGrowthMiB).toBeLessThan(30);
  });

  it('does not keep SIGTERM from ending the server within SHUTDOWN_TIMEOUT', async () => {
    const port = await getPort({ host: '127.0.0.1' });
    const server = spawnStalled(['src/server/main.ts'], {
      PORT: String(port),
      HOST: '127.0.0.1',
      SHUTDOWN_TIMEOUT: '2',
      RATE_LIMIT_ANONYMOUS: '100000',
      MAX_CONNECTIONS_PER_ADDRESS: '1000',
    });
    const base = `http://127.0.0.1:${port}`;
    await eventually(async () => (await fetch(`${base}/health`).catch(() => undefined))?.status === 200, { what: 'the server', limitMs: 30_000 });
    // Far more access-log lines than the pipe holds: stdout is now full and every write would block.
    for (let batch = 0; batch < 40; batch++) {
      await Promise.all(Array.from({ length: 50 }, () => fetch(`${base}/v1/health`).then((r) => r.arrayBuffer())));
    }
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    const { code } = await server.exited;
    expect(code).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(2_000 + 3_000);
  });
});
