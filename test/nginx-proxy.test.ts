/**
 * The shipped reverse-proxy recipe (deploy/nginx/nginx.conf) with Debian's nginx in front of two instances that
 * share their budgets in a real redis-server: the client's address reaches the rate limiter through TRUST_PROXY,
 * ETag revalidation works through the cache, and no client ever sees another client's RateLimit values.
 * Clients are told apart by their loopback source address (127.0.0.2, 127.0.0.3), as nginx sees them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './helpers/eventually.js';
import { rawRequest, type RawResponse } from './helpers/http.js';
import { startRedis, type RedisServer } from './helpers/redis-server.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const ROOT = join(import.meta.dirname, '..');
/** Debian installs it in /usr/sbin, which a non-root PATH may lack. */
const NGINX = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
const LIMIT = 40;
const A = '127.0.0.2';
const B = '127.0.0.3';
const RATE_LIMIT_FIELDS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy'];

let redis: RedisServer;
let instances: TestServer[];
let nginx: ChildProcess;
let nginxErr = '';
let dir: string;
let proxy: string;

/** One request through nginx from a client address. */
const get = (from: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> =>
  rawRequest(proxy, path, { headers, localAddress: from });

const remaining = (res: RawResponse): number => Number(res.headers['ratelimit-remaining']);

beforeAll(async () => {
  redis = await startRedis();
  const env = { RATE_LIMIT_STORE: redis.url, TRUST_PROXY: '1', RATE_LIMIT_ANONYMOUS: String(LIMIT) };
  instances = [await startTestServer({ env }), await startTestServer({ env })];

  dir = await mkdtemp(join(tmpdir(), 'syllabus-nginx-'));
  await chmod(dir, 0o777); // the worker processes run as nobody
  const port = await getPort({ host: '127.0.0.1' });
  proxy = `http://127.0.0.1:${port}`;
  const [one, two] = instances.map((i) => new URL(i.url).host);
  const shipped = await readFile(join(ROOT, 'deploy/nginx/nginx.conf'), 'utf8');
  const rendered = shipped
    .replace('server catalog-1:8080;', `server ${one};`)
    .replace('server catalog-2:8080;', `server ${two};`)
    .replace('listen 80;', `listen 127.0.0.1:${port};`)
    .replace('worker_processes auto;', 'worker_processes 1;')
    .replaceAll('/tmp/', `${dir}/`);
  expect(rendered).not.toContain('catalog-1'); // the recipe's lines are still the ones replaced above
  await writeFile(join(dir, 'nginx.conf'), rendered);
  nginx = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  nginx.stderr!.on('data', (c: Buffer) => (nginxErr += c.toString()));
  let last: unknown;
  await eventually(async () => (last = (await rawRequest(proxy, '/health').catch((e: Error) => ({ status: e.message })))?.status) === 200, {
    what: 'nginx to answer',
  }).catch((error: Error) => {
    throw new Error(`${error.message}: last ${String(last)}; nginx said: ${nginxErr}`);
  });
}, 60_000);

afterAll(async () => {
  nginx?.kill('SIGTERM');
  await Promise.all((instances ?? []).map((i) => i.close()));
  await redis?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('nginx in front of two instances sharing Redis', () => {
  it('passes the client address to the rate limiter (TRUST_PROXY), one shared budget per client across instances', async () => {
    // Distinct query strings: each request misses the cache and reaches an instance (round robin).
    const fromA = [];
    for (let i = 0; i < 4; i++) fromA.push(await get(A, `/v1/catalog?a=${i}`));
    expect(fromA.map((r) => r.headers['x-cache-status'])).toEqual(['MISS', 'MISS', 'MISS', 'MISS']);
    expect(fromA.map(remaining)).toEqual([LIMIT - 1, LIMIT - 2, LIMIT - 3, LIMIT - 4]);
    const fromB = await get(B, '/v1/catalog?b=0');
    expect(remaining(fromB)).toBe(LIMIT - 1); // its own budget, not A's
    // The instances write their logs in batches, flushed at least every 100 ms.
    const logged = () => instances.flatMap((i) => i.logs).filter((l) => l.msg === 'request' && String(l.path) === '/v1/catalog');
    await expect.poll(() => [...new Set(logged().map((l) => l.client_address))].sort()).toEqual([A, B].sort());
    // Both instances answered A: the budget above is shared through Redis, not per instance.
    await expect.poll(() => instances.every((i) => i.logs.some((l) => l.msg === 'request' && l.client_address === A))).toBe(true);
  });

  it('revalidates with ETags through the cache', async () => {
    const first = await get(A, '/v1/courses/python-basics');
    expect(first.status).toBe(200);
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"/);
    const again = await get(B, '/v1/courses/python-basics', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers['x-cache-status']).toBe('HIT');
    expect(again.headers.etag).toBe(etag);
    const changed = await get(B, '/v1/courses/python-basics', { 'if-none-match': '"something-else"' });
    expect(changed.status).toBe(200);
    expect(changed.body.equals(first.body)).toBe(true);
  });

  it("never shows a client another client's RateLimit values: a stored response carries none", async () => {
    const miss = await get(A, '/v1/roadmap');
    expect(miss.headers['x-cache-status']).toBe('MISS');
    for (const field of RATE_LIMIT_FIELDS) expect(miss.headers[field]).toBeDefined(); // A's own, from the instance
    const hit = await get(B, '/v1/roadmap');
    expect(hit.headers['x-cache-status']).toBe('HIT');
    expect(hit.body.equals(miss.body)).toBe(true);
    for (const field of RATE_LIMIT_FIELDS) expect(hit.headers[field]).toBeUndefined(); // not A's: nothing was spent
    const bOwn = await get(B, '/v1/roadmap?fresh');
    expect(bOwn.headers['x-cache-status']).toBe('MISS');
    expect(remaining(bOwn)).toBe(LIMIT - 2); // B's second spend (the first was the catalog request)
  });

  it('passes a 429 with Retry-After through, uncached', async () => {
    const C = '127.0.0.4';
    let refused: RawResponse | undefined;
    for (let i = 0; i <= LIMIT && refused === undefined; i++) {
      const res = await get(C, `/v1/changelog?c=${i}`);
      if (res.status === 429) refused = res;
    }
    expect(refused).toBeDefined();
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused!.headers['ratelimit-remaining']).toBe('0');
    const other = await get(B, '/v1/changelog?c=0'); // the same URL, for another client: served, never C's 429
    expect(other.status).toBe(200);
  });
});
