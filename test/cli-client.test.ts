/**
 * The `syllabus` client run as a subprocess (the esbuild bundle) against loopback fakes: exit codes, --json
 * documents valid against schemas/cli, network errors as one sentence, 429 handling, RateLimit throttling,
 * User-Agent, colour rules. (Against the real server: test/cli-server.test.ts.)
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClientBundle } from '../scripts/release.js';
import { cliEnv, deadUrl, removeAll, runCli, schemaErrors, startLoopback, tempDir, type LoopbackServer } from './helpers/cli.js';

const VERSION = '0.1.0';
let dir: string;
let bundle: string;
const servers: LoopbackServer[] = [];

const CATALOG = {
  courses: [
    {
      id: 'python-basics',
      title: 'Python basics',
      tagline: null,
      blurb: null,
      color: '#3366ff',
      status: 'live',
      classes: [],
      classes_total: 2,
      classes_live: 1,
      lessons_live: 5,
    },
    {
      id: 'sql-joins',
      title: 'SQL joins',
      tagline: 'Tables together',
      blurb: null,
      color: '#aa0000',
      status: 'soon',
      classes: [],
      classes_total: 3,
      classes_live: 0,
      lessons_live: 0,
    },
  ],
};

/** A fake service: /health and /v1/health answer with `version`, /v1/catalog with CATALOG. */
function fakeService(version: string, extraHeaders: Record<string, string> = {}): Promise<LoopbackServer> {
  return startLoopback((req, res) => {
    const headers = { 'content-type': 'application/json', date: new Date().toUTCString(), ...extraHeaders };
    if (req.url === '/health' || req.url === '/v1/health') return void res.writeHead(200, headers).end(JSON.stringify({ status: 'ok', version }));
    if (req.url === '/v1/catalog') return void res.writeHead(200, headers).end(JSON.stringify(CATALOG));
    res.writeHead(404, headers).end('{"detail":"Not Found"}');
  });
}

beforeAll(async () => {
  dir = await tempDir('cli-client');
  bundle = join(dir, 'syllabus.mjs');
  await buildClientBundle(bundle, VERSION);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await removeAll([dir]);
});

async function serve(server: Promise<LoopbackServer>): Promise<LoopbackServer> {
  const s = await server;
  servers.push(s);
  return s;
}

describe('usage', () => {
  it('prints --version and exits 0', async () => {
    const r = await runCli(bundle, ['--version'], cliEnv(dir));
    expect(r).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });

  it.each([[[]], [['doctor']], [['version']], [['catalog']], [['update']]])('has --help on %j, exit 0', async (command) => {
    const r = await runCli(bundle, [...command, '--help'], cliEnv(dir));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: syllabus/);
  });

  it.each([
    [['frobnicate'], /unknown command/],
    [['doctor', '--jsn'], /unknown option/],
    [['catalog', 'a', 'b'], /too many arguments/],
    [['--base-url', 'ftp://example.org', 'version'], /--base-url must use http/],
    [['catalog', 'Not_An_Id'], /is not a course id/],
  ])('exits 2 on the usage error %j with a message on stderr', async (args, message) => {
    const r = await runCli(bundle, args, cliEnv(dir));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('exits 2 on a malformed SYLLABUS_BASE_URL', async () => {
    const r = await runCli(bundle, ['version'], cliEnv(dir, { SYLLABUS_BASE_URL: 'not a url' }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SYLLABUS_BASE_URL must be an absolute http:// or https:// URL');
  });
});

describe('doctor failing', () => {
  it('exits 1 for a dead base URL, with valid --json and one sentence per failure, no stack trace', async () => {
    const base = await deadUrl();
    const r = await runCli(bundle, ['doctor', '--json', '--base-url', base], cliEnv(dir, { SYLLABUS_NO_UPDATE: '1' }));
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { ok: boolean; checks: { name: string; ok: boolean; detail: string }[] };
    expect(schemaErrors('cli/doctor.schema.json', out)).toBe('');
    expect(out.ok).toBe(false);
    const health = out.checks.find((c) => c.name === 'service-health')!;
    expect(health.ok).toBe(false);
    expect(health.detail).toBe(
      `Could not reach the Syllabus service at ${base}health: the connection was refused (nothing is listening there). Check that the service is running at ${base}, or point the client at another one with --base-url or SYLLABUS_BASE_URL.`,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 1 when the service reports another API version', async () => {
    const service = await serve(fakeService('v2'));
    const r = await runCli(bundle, ['doctor', '--json'], cliEnv(dir, { SYLLABUS_BASE_URL: service.url, SYLLABUS_NO_UPDATE: '1' }));
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { ok: boolean; checks: { name: string; ok: boolean; detail: string }[] };
    expect(schemaErrors('cli/doctor.schema.json', out)).toBe('');
    expect(out.checks.find((c) => c.name === 'service-health')).toMatchObject({ ok: true });
    expect(out.checks.find((c) => c.name === 'api-version')).toMatchObject({ ok: false, detail: expect.stringContaining('reports "v2"') });
  });

  it('prints a human checklist by default, without colour when stdout is not a terminal', async () => {
    const service = await serve(fakeService('v2'));
    const r = await runCli(bundle, ['doctor', '--base-url', service.url], cliEnv(dir, { SYLLABUS_NO_UPDATE: '1' }));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✖ API version +.*reports "v2"/);
    expect(r.stdout).toMatch(/✔ service answers +/);
    expect(r.stdout).not.toContain('\u001b[');
  });
});

describe('version', () => {
  it('reports the API version of a live service', async () => {
    const service = await serve(fakeService('v1'));
    const r = await runCli(bundle, ['version', '--json', '--base-url', service.url], cliEnv(dir));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(schemaErrors('cli/version.schema.json', out)).toBe('');
    expect(out).toMatchObject({ cli: VERSION, node: process.versions.node, nodeSupported: true, api: 'v1', apiError: null });
  });

  it('is not an error when the service does not answer', async () => {
    const r = await runCli(bundle, ['version', '--json', '--base-url', await deadUrl()], cliEnv(dir));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(schemaErrors('cli/version.schema.json', out)).toBe('');
    expect(out.api).toBeNull();
    expect(out.apiError).toMatch(/^Could not reach the Syllabus service at .*: the connection was refused/);
  });
});

describe('HTTP behaviour', () => {
  it('identifies itself as syllabus-cli/<version> with a contact URL', async () => {
    const service = await serve(fakeService('v1'));
    await runCli(bundle, ['catalog', '--base-url', service.url], cliEnv(dir));
    expect(service.requests[0]!.headers['user-agent']).toMatch(new RegExp(`^syllabus-cli/${VERSION.replace(/\./g, '\\.')} \\(\\+https?://\\S+\\)$`));
  });

  it('waits out a 429 as Retry-After asks, says so on stderr, and retries once', async () => {
    let answered429 = false;
    const service = await serve(
      startLoopback((req, res) => {
        if (!answered429) {
          answered429 = true;
          return void res
            .writeHead(429, {
              'content-type': 'application/json',
              'retry-after': '1',
              'ratelimit-limit': '120',
              'ratelimit-remaining': '0',
              'ratelimit-reset': '1',
            })
            .end('{"detail":"Too Many Requests"}');
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(CATALOG));
      }),
    );
    const r = await runCli(bundle, ['catalog', '--json', '--base-url', service.url], cliEnv(dir));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(CATALOG);
    expect(r.stderr).toContain('(429): waiting 1 s as Retry-After asks, then retrying once');
    expect(service.requests.map((q) => q.path)).toEqual(['/v1/catalog', '/v1/catalog']);
  });

  it('gives up after the one retry with exit 1 and a sentence', async () => {
    const service = await serve(startLoopback((_req, res) => void res.writeHead(429, { 'retry-after': '1' }).end('{"detail":"Too Many Requests"}')));
    const r = await runCli(bundle, ['catalog', '--base-url', service.url], cliEnv(dir));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/still refused the request as too many \(429\) after waiting; try again in 1 s\.\n$/);
    expect(service.requests).toHaveLength(2);
  });

  it('waits for RateLimit-Reset before the next request when RateLimit-Remaining is 0', async () => {
    const service = await serve(fakeService('v1', { 'ratelimit-limit': '120', 'ratelimit-remaining': '0', 'ratelimit-reset': '1' }));
    const r = await runCli(bundle, ['doctor', '--json', '--base-url', service.url], cliEnv(dir, { SYLLABUS_NO_UPDATE: '1' }));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Read budget at');
    expect(r.stderr).toContain('waiting 1 s for it to reset before the next request');
    const out = JSON.parse(r.stdout) as { checks: { name: string; ok: boolean; detail: string }[] };
    expect(out.checks.find((c) => c.name === 'read-budget')).toMatchObject({ ok: false, detail: '0 of 120 reads left, window resets in 1 s' });
  });

  it('revalidates with If-None-Match and uses the cached body on 304', async () => {
    const body = JSON.stringify(CATALOG);
    const service = await serve(
      startLoopback((req, res) => {
        if (req.headers['if-none-match'] === '"v1-catalog"') return void res.writeHead(304, { etag: '"v1-catalog"' }).end();
        res.writeHead(200, { 'content-type': 'application/json', etag: '"v1-catalog"' }).end(body);
      }),
    );
    const home = join(dir, 'etag-home');
    const first = await runCli(bundle, ['catalog', '--json', '--base-url', service.url], cliEnv(home));
    const second = await runCli(bundle, ['catalog', '--json', '--base-url', service.url], cliEnv(home, { SYLLABUS_DEBUG: '1' }));
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(service.requests.map((q) => q.headers['if-none-match'])).toEqual([undefined, '"v1-catalog"']);
    expect(second.stderr).toContain('304 Not Modified');
  });

  it('prints the catalog as an aligned table', async () => {
    const service = await serve(fakeService('v1'));
    const r = await runCli(bundle, ['catalog', '--base-url', service.url], cliEnv(dir, { NO_COLOR: '1' }));
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'ID             TITLE          STATUS  CLASSES  LESSONS',
      'python-basics  Python basics  live        1/2        5',
      'sql-joins      SQL joins      soon        0/3        0',
      '',
    ]);
  });
});
