/**
 * The `syllabus` client (the esbuild bundle, as a subprocess) when things go wrong, against the real server (with
 * the bundled content) and loopback fakes: base URLs that are not the service's root or have no scheme, https to a
 * plain-http port, "did you mean" for a course id, failing fast on a spent read budget (--no-wait,
 * SYLLABUS_NO_WAIT) with the budget carried from one process to the next, and --json failures as a JSON document.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClientBundle } from '../scripts/release.js';
import { EXIT } from '../src/cli/errors.js';
import { REPO, cliEnv, deadUrl, removeAll, runCli, schemaErrors, startLoopback, tempDir, type LoopbackServer } from './helpers/cli.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let dir: string;
let bundle: string;
let srv: TestServer;
/** `http://127.0.0.1:<port>` of the real server. */
let root: string;
let runs = 0;
const fakes: LoopbackServer[] = [];

/** An RFC 3339 instant to the second, in UTC, as the client names reset times. */
const INSTANT = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/;

beforeAll(async () => {
  dir = await tempDir('cli-advice');
  bundle = join(dir, 'syllabus.mjs');
  await buildClientBundle(bundle, '0.1.0');
  srv = await startTestServer({ env: { CONTENT_DIR: join(REPO, 'content') } });
  root = srv.url;
}, 60_000);

afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  await srv?.close();
  await removeAll([dir]);
});

/** The client's environment with a cache folder of its own (read budgets are kept there between runs). */
function env(cache: string, extra: Record<string, string> = {}): Record<string, string> {
  return cliEnv(dir, { SYLLABUS_CACHE_DIR: join(dir, cache), SYLLABUS_NO_UPDATE: '1', ...extra });
}

/** A cache folder no other run uses. */
const freshCache = (): string => `cache-${runs++}`;

describe('base URLs', () => {
  it('refuses one that ends in /v1, naming the service root, which then works', async () => {
    const r = await runCli(bundle, ['catalog', '--base-url', `${root}/v1`], env(freshCache()));
    expect(r).toMatchObject({ code: EXIT.usage, stdout: '' });
    expect(r.stderr).toBe(`syllabus: --base-url is the service's root URL, without the API's /v1 (the client adds /v1/… itself): use ${root}/\n`);
    const fixed = await runCli(bundle, ['catalog', '--base-url', `${root}/`], env(freshCache()));
    expect(fixed).toMatchObject({ code: EXIT.ok, stderr: '' });
  });

  it('suggests http:// for one without a scheme, which then works', async () => {
    const host = root.replace(/^http:\/\//, '');
    const r = await runCli(bundle, ['catalog'], env(freshCache(), { SYLLABUS_BASE_URL: host }));
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toBe(`syllabus: SYLLABUS_BASE_URL must start with http:// or https://, got "${host}"; did you mean ${root}?\n`);
    expect(await runCli(bundle, ['catalog'], env(freshCache(), { SYLLABUS_BASE_URL: root }))).toMatchObject({ code: EXIT.ok });
  });

  it('a 404 under a base URL with a path points at the root instead of "try again later"', async () => {
    const r = await runCli(bundle, ['catalog', '--base-url', `${root}/syllabus`], env(freshCache()));
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toBe(
      `syllabus: ${root}/syllabus/v1/catalog answered 404: there is no Syllabus API under ${root}/syllabus/. --base-url is the service's root URL (the client adds /v1/… itself); if the service is at its host's root, use ${root}/\n`,
    );
    expect(r.stderr).not.toContain('try again');
  });

  it('https to a plain-http port says the server does not speak TLS, not that its certificate is bad', async () => {
    const https = root.replace(/^http:/, 'https:');
    const r = await runCli(bundle, ['catalog', '--base-url', https], env(freshCache()));
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toMatch(
      new RegExp(`does not speak TLS \\(ERR_SSL_[A-Z_]+\\), so the certificate is not the problem: it probably serves plain http, at ${root}/\\. `),
    );
    expect(r.stderr).not.toContain('certificate was not accepted');
  });
});

describe('catalog COURSE_ID', () => {
  it('suggests the nearest course ids for one that does not exist', async () => {
    const r = await runCli(bundle, ['catalog', 'python-foundation', '--base-url', root], env(freshCache()));
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toBe(
      `syllabus: There is no course python-foundation at ${root}/; did you mean python-foundations? Run syllabus catalog to list the course ids.\n`,
    );
    const far = await runCli(bundle, ['catalog', 'no-such-course', '--base-url', root], env(freshCache()));
    expect(far.stderr).toBe(`syllabus: There is no course no-such-course at ${root}/; run syllabus catalog to list the course ids.\n`);
  });
});

/** A fake service whose budget is spent for `resetSeconds` after each answer; it answers 429 to a request too early. */
async function spentService(resetSeconds: number): Promise<LoopbackServer & { refused: () => number }> {
  let notBefore = 0;
  let refused = 0;
  const server = await startLoopback((_req, res) => {
    const headers = { 'content-type': 'application/json', 'ratelimit-limit': '1', 'ratelimit-remaining': '0' };
    if (Date.now() < notBefore) {
      refused++;
      const wait = String(Math.ceil((notBefore - Date.now()) / 1000));
      return void res.writeHead(429, { ...headers, 'ratelimit-reset': wait, 'retry-after': wait }).end('{"detail":"Too Many Requests"}');
    }
    notBefore = Date.now() + resetSeconds * 1000;
    res.writeHead(200, { ...headers, 'ratelimit-reset': String(resetSeconds) }).end('{"courses":[]}');
  });
  fakes.push(server);
  return { ...server, refused: () => refused };
}

describe('a spent read budget', () => {
  it('is carried to the next process, which fails at once with --no-wait or SYLLABUS_NO_WAIT, sending nothing', async () => {
    const service = await spentService(60);
    const cache = freshCache();
    const first = await runCli(bundle, ['catalog', '--json', '--base-url', service.url], env(cache));
    expect(first.code).toBe(EXIT.ok);
    expect(service.requests).toHaveLength(1);

    const fast = await runCli(bundle, ['catalog', '--no-wait', '--base-url', service.url], env(cache));
    expect(fast.code).toBe(EXIT.rateLimited);
    const host = new URL(service.url).host;
    expect(fast.stderr).toMatch(
      new RegExp(
        `^syllabus: The read budget at ${host} \\(1 a window\\) is spent until ${INSTANT.source} \\(in \\d+ s\\)\\. Not waiting \\(--no-wait or SYLLABUS_NO_WAIT\\): try again then\\.\\n$`,
      ),
    );

    const json = await runCli(bundle, ['catalog', '--json', '--base-url', service.url], env(cache, { SYLLABUS_NO_WAIT: '1' }));
    expect(json.code).toBe(EXIT.rateLimited);
    const out = JSON.parse(json.stdout) as { error: string; exit_code: number; retry_at: string };
    expect(schemaErrors('cli/error.schema.json', out)).toBe('');
    expect(out).toEqual({ error: expect.stringContaining('is spent until'), exit_code: EXIT.rateLimited, retry_at: expect.stringMatching(INSTANT) });
    expect(json.stderr).toBe(`syllabus: ${out.error}\n`);
    expect(out.error).toContain(out.retry_at);

    expect(service.requests).toHaveLength(1);
    expect(service.refused()).toBe(0);
  });

  it('a new process waits for the reset it was told of instead of earning a 429, and says until when', async () => {
    const service = await spentService(4);
    const cache = freshCache();
    expect((await runCli(bundle, ['catalog', '--base-url', service.url], env(cache))).code).toBe(EXIT.ok);
    const second = await runCli(bundle, ['catalog', '--base-url', service.url], env(cache));
    expect(second.code).toBe(EXIT.ok);
    expect(second.stderr).toMatch(
      new RegExp(
        `used up: waiting \\d s for it to reset before the next request \\(until ${INSTANT.source}; --no-wait fails at once instead\\)\\.\\n$`,
      ),
    );
    expect(service.requests).toHaveLength(2);
    expect(service.refused()).toBe(0);
  });

  it('doctor asks anyway, without waiting, and a service reporting reads left clears the kept budget', async () => {
    let restarted = false;
    const service = await startLoopback((req, res) => {
      const remaining = restarted ? '119' : '0';
      const headers = { 'content-type': 'application/json', 'ratelimit-limit': '120', 'ratelimit-remaining': remaining, 'ratelimit-reset': '60' };
      const body = req.url === '/v1/catalog' ? '{"courses":[]}' : '{"status":"ok","version":"v1"}';
      res.writeHead(200, { ...headers, date: new Date().toUTCString() }).end(body);
      if (req.url === '/v1/catalog') restarted = true; // the budget is back as if the service had restarted
    });
    fakes.push(service);
    const cache = freshCache();
    expect((await runCli(bundle, ['catalog', '--base-url', service.url], env(cache))).code).toBe(EXIT.ok);
    expect((await runCli(bundle, ['catalog', '--no-wait', '--base-url', service.url], env(cache))).code).toBe(EXIT.rateLimited);
    const doctor = await runCli(bundle, ['doctor', '--json', '--base-url', service.url], env(cache));
    expect(doctor.stderr).toBe('');
    const checks = (JSON.parse(doctor.stdout) as { checks: { name: string; ok: boolean; detail: string }[] }).checks;
    expect(checks.find((c) => c.name === 'read-budget')).toMatchObject({ ok: true, detail: '119 of 120 reads left, window resets in 60 s' });
    expect(await runCli(bundle, ['catalog', '--no-wait', '--base-url', service.url], env(cache))).toMatchObject({ code: EXIT.ok, stderr: '' });
    expect(service.requests.map((q) => q.path)).toEqual(['/v1/catalog', '/health', '/v1/health', '/v1/catalog']);
  });

  it('a 429 with --no-wait fails at once with its reset time, without the retry', async () => {
    const service = await startLoopback(
      (_req, res) => void res.writeHead(429, { 'retry-after': '30', 'content-type': 'application/json' }).end('{"detail":"Too Many Requests"}'),
    );
    fakes.push(service);
    const r = await runCli(bundle, ['changelog', '--no-wait', '--base-url', service.url], env(freshCache()));
    expect(r.code).toBe(EXIT.rateLimited);
    expect(r.stderr).toMatch(
      new RegExp(
        `^syllabus: The Syllabus service at ${new URL(service.url).host} refused the request as too many \\(429\\); its read budget is spent until ${INSTANT.source} \\(in 30 s\\)\\. Not waiting`,
      ),
    );
    expect(service.requests).toHaveLength(1);
  });

  it('against the real server: the budget it reports spent stops the next process before it sends a request', async () => {
    const limited = await startTestServer({ env: { CONTENT_DIR: join(REPO, 'content'), RATE_LIMIT_DECLARED: '1' } });
    try {
      const cache = freshCache();
      const first = await runCli(bundle, ['catalog', '--base-url', limited.url], env(cache));
      expect(first.code).toBe(EXIT.ok);
      const second = await runCli(bundle, ['roadmap', '--json', '--base-url', limited.url, '--no-wait'], env(cache));
      expect(second.code).toBe(EXIT.rateLimited);
      expect(schemaErrors('cli/error.schema.json', JSON.parse(second.stdout))).toBe('');
      // Every access line up to a later request is written by then: the client's one request is the first run's.
      await fetch(`${limited.url}/health`, { headers: { 'x-request-id': 'after-the-runs' } });
      await limited.accessLine('after-the-runs');
      const fromClient = limited.logs.filter((l) => l.msg === 'request' && String(l.user_agent).startsWith('syllabus-cli/'));
      expect(fromClient.map((l) => [l.path, l.status])).toEqual([['/v1/catalog', 200]]);
    } finally {
      await limited.close();
    }
  });
});

describe('--json failures', () => {
  it('update --check --json prints a JSON error document on stdout, exit 1, when the release server cannot be read', async () => {
    const r = await runCli(bundle, ['update', '--check', '--json'], env(freshCache(), { SYLLABUS_RELEASE_URL: await deadUrl() }));
    expect(r.code).toBe(EXIT.failed);
    const out = JSON.parse(r.stdout) as { error: string };
    expect(schemaErrors('cli/error.schema.json', out)).toBe('');
    expect(out).toEqual({
      error: expect.stringMatching(/^Could not reach the release server at .*: the connection was refused/),
      exit_code: 1,
      retry_at: null,
    });
    expect(r.stderr).toBe(`syllabus: ${out.error}\n`);
  });

  it('the error schema names exactly the failure exit codes', async () => {
    const schema = JSON.parse(await readFile(join(REPO, 'schemas', 'cli', 'error.schema.json'), 'utf8')) as {
      properties: { exit_code: { enum: number[] } };
    };
    expect(schema.properties.exit_code.enum).toEqual([EXIT.failed, EXIT.usage, EXIT.rateLimited]);
  });
});
