/**
 * The stopping rule's measurement (docs/architecture.md): builds of the service measured behind the shipped nginx
 * (`deploy/nginx/nginx.conf`, rendered with loopback addresses as test/nginx-proxy.test.ts renders it) instead of
 * with the load generator talking to the service directly. The proxy's cache is turned off (`proxy_cache off`), so
 * every request reaches the service and nginx spends nothing on storing answers. The service runs on core 0, nginx
 * and wrk on core 1; builds alternate.
 *
 *   npx tsx bench/behind-nginx.ts --server before=/path/a/dist/server.js --server after=/path/b/dist/server.js
 *                                 [--path /v1/catalog] [--reps 3] [--seconds 5] [--connections 32]
 *
 * Prints, per build, the medians of requests per second, p99 latency and the service's CPU time per request.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from './lib/build.js';
import { cpuTimeUs, freePort, pinned } from './lib/proc.js';
import { startServerProcess, type ServerProcess } from './lib/servers.js';
import { median, round } from './lib/stats.js';
import { runWrk } from './lib/wrk.js';

const NGINX = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';

const { values } = parseArgs({
  options: {
    server: { type: 'string', multiple: true },
    path: { type: 'string', default: '/v1/catalog' },
    reps: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
  },
});
const builds = (values.server ?? []).map((s) => {
  const eq = s.indexOf('=');
  if (eq < 1) throw new Error(`--server label=path/to/server.js, not ${s}`);
  return { label: s.slice(0, eq), script: s.slice(eq + 1) };
});
if (builds.length === 0) throw new Error('name at least one --server label=path/to/server.js');
const reps = Number(values.reps);
const seconds = Number(values.seconds);
const connections = Number(values.connections);

/** Starts nginx in front of `upstream` with the shipped configuration; resolves to its URL and a stop function. */
async function startNginx(upstream: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'syllabus-bench-nginx-'));
  await chmod(dir, 0o777); // the worker process runs as nobody
  const port = await freePort();
  const shipped = await readFile(join(repoRoot, 'deploy/nginx/nginx.conf'), 'utf8');
  const rendered = shipped
    .replace('server catalog-1:8080;', `server ${upstream};`)
    .replace('server catalog-2:8080;', '')
    .replace('listen 80;', `listen 127.0.0.1:${port};`)
    .replace('worker_processes auto;', 'worker_processes 1;')
    .replace('proxy_cache catalog;', 'proxy_cache off;')
    .replaceAll('/tmp/', `${dir}/`);
  await writeFile(join(dir, 'nginx.conf'), rendered);
  const [command, args] = pinned(1, NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;']);
  const child = spawn(command, args, { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 100) throw new Error('nginx did not answer');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    stop: async () => {
      const closed = new Promise((resolve) => child.once('close', resolve));
      child.kill('SIGTERM');
      await closed;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

type Run = { rps: number; p99Ms: number; cpuUs: number };
const runs = new Map<string, Run[]>(builds.map((b) => [b.label, []]));
const started: Array<{ label: string; server: ServerProcess; nginx: Awaited<ReturnType<typeof startNginx>> }> = [];
try {
  for (const { label, script } of builds) {
    const server = await startServerProcess(script, [], {
      env: { CONTENT_DIR: join(repoRoot, 'content'), TRUST_PROXY: '1', LOG_LEVEL: 'info' },
      discardStdout: true,
    });
    started.push({ label, server, nginx: await startNginx(new URL(server.url).host) });
  }
  const headers = { 'User-Agent': 'bench-agent/1.0 (+https://bench.example)' };
  for (let rep = 0; rep < reps; rep++) {
    for (const { label, server, nginx } of started) {
      await runWrk({ url: nginx.url + values.path, headers, durationS: 1, connections });
      const before = cpuTimeUs(server.child.pid);
      const r = await runWrk({ url: nginx.url + values.path, headers, durationS: seconds, connections });
      const cpu = cpuTimeUs(server.child.pid) - before;
      runs.get(label)!.push({ rps: r.requestsPerSecond, p99Ms: r.p99Ms, cpuUs: cpu / r.requests });
      process.stdout.write(
        `${label} run ${rep + 1}: ${round(r.requestsPerSecond)} req/s, p99 ${round(r.p99Ms, 2)} ms, ${round(cpu / r.requests, 1)} µs CPU/request\n`,
      );
    }
  }
} finally {
  await Promise.all(started.map(async (s) => Promise.all([s.server.child.stop(), s.nginx.stop()])));
}
for (const [label, rs] of runs) {
  process.stdout.write(
    `${label}: median ${round(median(rs.map((r) => r.rps)))} req/s, p99 ${round(median(rs.map((r) => r.p99Ms)), 2)} ms, ${round(median(rs.map((r) => r.cpuUs)), 1)} µs CPU/request\n`,
  );
}
