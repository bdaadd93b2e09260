/**
 * The built server started the way the docs say (`npm start` in an app folder holding the bundle, a copy of the
 * bundled content and the sample referral codes), in a clean environment: what an operator sees on its first start,
 * the pretty log, and a reload with the documented command (docs/operations.md) (one process, never npm; with `WORKERS`, each worker once).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from './helpers/built-app.js';
import { eventually } from './helpers/eventually.js';
import { startRedis } from './helpers/redis-server.js';
import { freePort, killServers, logLines, servingUrl, spawnServer, type SpawnedServer } from './helpers/server-process.js';

let app: BuiltApp;

beforeAll(async () => {
  app = await buildApp();
});

afterAll(async () => {
  killServers();
  await app?.remove();
});

/** `npm start` in the app folder with `env` on top of PATH, HOME and PORT=0 (an ephemeral port; nothing else set). */
function npmStart(env: Record<string, string> = {}): SpawnedServer {
  return spawnServer(env, { command: ['npm', 'start'], cwd: app.dir });
}

describe('npm start with nothing configured', () => {
  it('listens on loopback and writes no warning', async () => {
    const server = npmStart();
    const url = new URL(await servingUrl(server));
    expect(url.hostname).toBe('127.0.0.1');
    expect((await fetch(new URL('/v1/catalog', url))).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const lines = logLines(server);
    expect(lines.map((l) => l.msg)).toContain('stopped');
    // pino levels: 40 is warn, 50 error, 60 fatal.
    expect(lines.filter((l) => (l.level as number) >= 40)).toEqual([]);
  });
});

describe('LOG_FORMAT=pretty', () => {
  it('writes one line per request, with its fields', async () => {
    const port = await freePort();
    const server = npmStart({ PORT: String(port), LOG_FORMAT: 'pretty' });
    const base = `http://127.0.0.1:${port}`;
    await eventually(async () => (await fetch(`${base}/health`).catch(() => undefined))?.status === 200, { what: 'the server answering' });
    const ids = ['pretty-1', 'pretty-2', 'pretty-3'];
    for (const id of ids) expect((await fetch(`${base}/v1/catalog`, { headers: { 'X-Request-Id': id } })).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // npm's own lines ("> syllabus-catalog@… start", "> exec node dist/server.js") and blank lines aside.
    const lines = server
      .stdout()
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('> '));
    // Every line is a log line of its own (no field on a continuation line).
    for (const line of lines) expect(line).toMatch(/^\[[^\]]+\] [A-Z]+: /);
    for (const id of ids) {
      const mentions = lines.filter((line) => line.includes(id));
      expect(mentions, id).toHaveLength(1);
      expect(mentions[0]).toMatch(/ INFO: request \{/);
      for (const field of ['"method":"GET"', '"path":"/v1/catalog"', '"status":200', `"request_id":"${id}"`]) expect(mentions[0]).toContain(field);
    }
    expect(lines.filter((line) => / INFO: stopped$/.test(line))).toHaveLength(1);
  });
});

const run = promisify(execFile);

/** The process name the documented reload command signals (`pkill -HUP -x <name>`, the same in each place it is given). */
async function documentedProcessName(): Promise<string> {
  const operations = await readFile(join(import.meta.dirname, '..', 'docs', 'operations.md'), 'utf8');
  const names = [...operations.matchAll(/^pkill -HUP -x (\S+)/gm)].map((match) => match[1]!);
  expect(names.length).toBeGreaterThan(0);
  expect(new Set(names).size).toBe(1);
  return names[0]!;
}

/** `pgrep` with `args`: the pids it lists (none: an empty list). */
async function pgrep(...args: string[]): Promise<number[]> {
  const { stdout } = await run('pgrep', args).catch(() => ({ stdout: '' }));
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map(Number);
}

/** Whether `pid` is `root` or one of its descendants (Linux: the parent is the 4th field of /proc/<pid>/stat). */
async function inTree(pid: number, root: number): Promise<boolean> {
  for (let at = pid; at > 1;) {
    if (at === root) return true;
    const stat = await readFile(`/proc/${at}/stat`, 'utf8').catch(() => '');
    // After the name, which is in parentheses and may hold spaces: state, then the parent's pid.
    at = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? 0);
  }
  return false;
}

/** The processes of the documented reload pattern within the tree of `root` (other tests' servers may run meanwhile). */
async function matchedUnder(name: string, root: number): Promise<number[]> {
  const matched = await pgrep('-x', name);
  const ours = await Promise.all(matched.map((pid) => inTree(pid, root)));
  return matched.filter((_, i) => ours[i]);
}

/** The log lines of `server` with message `msg`. */
const linesOf = (server: SpawnedServer, msg: string): Array<Record<string, unknown>> => logLines(server).filter((l) => l.msg === msg);

describe('reloading with SIGHUP as the docs say', () => {
  it('under npm start, the command reaches the server alone (never npm), and it reads everything again', async () => {
    const name = await documentedProcessName();
    const npm = npmStart({ REFERRALS_FILE: 'referrals.sample.txt' });
    await servingUrl(npm);
    const npmPid = npm.child.pid!;
    // `exec node dist/server.js`: the server is npm's only child.
    const [server, ...others] = await pgrep('-P', String(npmPid));
    expect(others).toEqual([]);
    expect(await matchedUnder(name, npmPid)).toEqual([server]);

    // The documented command, limited to this npm's children so that no other test's server is signalled.
    await run('pkill', ['-HUP', '-x', name, '-P', String(npmPid)]);
    await eventually(() => linesOf(npm, 'referral digests reloaded').length === 1, { what: 'the reload' });
    expect(linesOf(npm, 'reading content and referral codes again')).toEqual([expect.objectContaining({ reason: 'SIGHUP' })]);
    expect(npm.child.exitCode).toBeNull();

    npm.child.kill('SIGTERM');
    expect(await npm.exited).toBe(0);
    expect(linesOf(npm, 'reading content and referral codes again')).toHaveLength(1);
  });

  it('with WORKERS=2, the command reaches the primary alone, which passes it on: each worker reloads once', async () => {
    const name = await documentedProcessName();
    const redis = await startRedis();
    try {
      const npm = npmStart({ WORKERS: '2', RATE_LIMIT_STORE: redis.url, REFERRALS_FILE: 'referrals.sample.txt' });
      await eventually(() => linesOf(npm, 'serving').length === 2, { what: 'both workers serving' });
      const npmPid = npm.child.pid!;
      const [primary, ...others] = await pgrep('-P', String(npmPid));
      expect(others).toEqual([]);
      const workers = await pgrep('-P', String(primary));
      expect(workers).toHaveLength(2);
      for (const worker of workers) expect((await readFile(`/proc/${worker}/comm`, 'utf8')).trim()).toBe('syllabus-worker');
      expect(await matchedUnder(name, npmPid)).toEqual([primary]);

      await run('pkill', ['-HUP', '-x', name, '-P', String(npmPid)]);
      await eventually(() => linesOf(npm, 'referral digests reloaded').length === 2, { what: 'both workers reloading' });
      npm.child.kill('SIGTERM');
      expect(await npm.exited).toBe(0);
      expect(linesOf(npm, 'reading content and referral codes again')).toHaveLength(2);
      expect(linesOf(npm, 'referral digests reloaded')).toHaveLength(2);
    } finally {
      await redis.stop();
    }
  });
});
