/**
 * The shared store end to end: real server processes (`src/server/main.ts`, as `npm start` runs it) and a real
 * redis-server. Two processes, or two WORKERS, give one budget per client; killing Redis mid-traffic loses no
 * request; the service reports the outage on /health and recovers when Redis returns.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from './helpers/redis-server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** Parsed JSON log lines so far. */
  logs: Array<Record<string, unknown>>;
  stderr: () => string;
}

const children: ChildProcess[] = [];
let redis: RedisServer;

/** Starts `main.ts` with `env` and resolves once it logs that it is serving (once per worker). */
async function service(env: Record<string, string>, servingLines = 1): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    // A generous Redis reply timeout, so that a loaded test machine does not fall back to local counting.
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', RATE_LIMIT_STORE_TIMEOUT_MS: '5000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const logs: Array<Record<string, unknown>> = [];
  let err = '';
  let buffered = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${err}`)), 30_000);
    let serving = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (entry.msg === 'serving' && ++serving === servingLines) {
          clearTimeout(timer);
          resolve(String(entry.url));
        }
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      // A start-up failure is the log's fatal line.
      reject(new Error(`service exited with ${code}:\n${err}${logs.map((l) => JSON.stringify(l)).join('\n')}`));
    });
  });
  return { child, url, logs, stderr: () => err };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** GET on a fresh connection (no keep-alive), so that cluster workers take turns. */
function getFresh(url: string, path: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { agent: false, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await Promise.all(children.map(stop));
  await redis?.stop();
});

describe('RATE_LIMIT_STORE=redis://… across processes', () => {
  it('two server processes sharing one Redis enforce one budget', async () => {
    const env = { RATE_LIMIT_STORE: `${redis.url}/1`, RATE_LIMIT_ANONYMOUS: '4' };
    const [a, b] = await Promise.all([service(env), service(env)]);
    const statuses = [];
    const remaining = [];
    for (const target of [a, b, a, b, a, b]) {
      const res = await getFresh(target.url, '/v1/catalog');
      statuses.push(res.status);
      remaining.push(res.headers['ratelimit-remaining']);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(remaining).toEqual(['3', '2', '1', '0', '0', '0']);
    const health = JSON.parse((await getFresh(a.url, '/health')).body) as Record<string, string>;
    expect(health).toMatchObject({ rate_limit_store: 'redis', rate_limit_store_status: 'ok' });
    await Promise.all([stop(a.child), stop(b.child)]);
  });

  it('WORKERS=2 share one budget through Redis', async () => {
    const svc = await service({ WORKERS: '2', RATE_LIMIT_STORE: `${redis.url}/2`, RATE_LIMIT_ANONYMOUS: '6' }, 2);
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await getFresh(svc.url, '/v1/catalog')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    // Both workers counted: each has its own Redis connection (on db 2), and each one's last command ran the script.
    const admin = createClient({ url: redis.url });
    await admin.connect();
    const clients = await admin.sendCommand<string>(['CLIENT', 'LIST']);
    await admin.close();
    const workerConnections = clients.split('\n').filter((line) => / db=2 /.test(line));
    expect(workerConnections).toHaveLength(2);
    for (const line of workerConnections) expect(line).toMatch(/ cmd=(evalsha|eval) /);
    await stop(svc.child);
    expect(svc.child.exitCode).toBe(0);
  });

  it('WORKERS=2 without the Redis store refuses to start, saying why', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', WORKERS: '2', RATE_LIMIT_STORE: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.resume();
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(2);
    // The reason is the log's fatal line (JSON on stdout).
    const fatal = out
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; problems?: string[] })
      .find((line) => line.level === 60);
    expect(fatal?.problems).toEqual([expect.stringMatching(/^WORKERS: .*RATE_LIMIT_STORE=redis:\/\//)]);
  });

  it('killing Redis mid-traffic loses no request; the outage is logged once, shown on /health, and healed', async () => {
    const svc = await service({ RATE_LIMIT_STORE: `${redis.url}/3`, RATE_LIMIT_ANONYMOUS: '100000' });
    const statuses: number[] = [];
    let killed = false;
    const traffic = (async () => {
      for (let i = 0; i < 120; i++) {
        if (i === 40) {
          await redis.kill();
          killed = true;
        }
        const res = await getFresh(svc.url, '/v1/catalog');
        statuses.push(res.status);
        expect(res.headers['ratelimit-limit']).toBe('100000');
      }
    })();
    await traffic;
    expect(killed).toBe(true);
    expect(statuses).toHaveLength(120);
    expect(statuses.every((s) => s === 200)).toBe(true);

    const down = JSON.parse((await getFresh(svc.url, '/health')).body) as Record<string, string>;
    expect(down.status).toBe('ok');
    expect(down.rate_limit_store_status).toBe('unavailable');
    // The service writes its log in batches, flushed at least every 100 ms.
    await expect.poll(() => svc.logs.filter((l) => String(l.msg).startsWith('rate-limit store unreachable')).length).toBe(1);

    await redis.restart();
    const deadline = Date.now() + 15_000;
    let health: Record<string, string> = down;
    while (health.rate_limit_store_status !== 'ok' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      health = JSON.parse((await getFresh(svc.url, '/health')).body) as Record<string, string>;
    }
    expect(health.rate_limit_store_status).toBe('ok');
    await expect.poll(() => svc.logs.filter((l) => String(l.msg).startsWith('rate-limit store reachable again')).length).toBe(1);
    // Counting is in (the restarted, empty) Redis again.
    const after = await getFresh(svc.url, '/v1/catalog');
    expect(after.headers['ratelimit-remaining']).toBe('99999');
    await stop(svc.child);
  });
});
