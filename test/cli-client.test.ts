/**
 * The `syllabus` client run as a subprocess (the esbuild bundle) against loopback fakes: exit codes, --json
 * documents valid against schemas/cli, network errors as one sentence, 429 handling, RateLimit throttling,
 * User-Agent, colour rules, doctor against a TCP server that never answers, and the help's examples (their ids in
 * the bundled content, and run against the real server serving it). (Against the real server: test/cli-server.test.ts.)
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { buildClientBundle } from '../scripts/release.js';
import { DOCTOR_DEADLINE_MS } from '../src/cli/commands/doctor.js';
import { loadContent } from '../src/content/loader.js';
import { REPO, cliEnv, deadUrl, removeAll, runCli, schemaErrors, startLoopback, tempDir, writeRelease, type LoopbackServer } from './helpers/cli.js';
import { startTestServer } from './helpers/server.js';

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

  it.each([[[]], [['doctor']], [['version']], [['catalog']], [['changelog']], [['roadmap']], [['update']]])(
    'has --help on %j, exit 0',
    async (command) => {
      const r = await runCli(bundle, [...command, '--help'], cliEnv(dir));
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: syllabus/);
    },
  );

  it.each([
    [['frobnicate'], /unknown command/],
    [['doctor', '--jsn'], /unknown option/],
    [['catalog', 'a', 'b'], /too many arguments/],
    [['--base-url', 'ftp://example.org', 'version'], /--base-url must use http/],
    [['catalog', 'Not_An_Id'], /is not a course id/],
    [['changelog', '--since', '2026-02-30'], /^syllabus: --since must be a date as YYYY-MM-DD \(e\.g\. \d{4}-\d{2}-\d{2}\), got "2026-02-30"\.\n$/],
    [['changelog', '--since', 'yesterday'], /--since must be a date as YYYY-MM-DD/],
    [['changelog', '--limit', '0'], /^syllabus: --limit must be a whole number from 1 to 999999, got "0"\.\n$/],
    [['changelog', '--limit', '-3'], /--limit must be a whole number/],
    [['roadmap', 'extra'], /too many arguments/],
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
    expect(out).toMatchObject({ cli: VERSION, node: process.versions.node, node_supported: true, api: 'v1', api_error: null });
  });

  it('is not an error when the service does not answer', async () => {
    const r = await runCli(bundle, ['version', '--json', '--base-url', await deadUrl()], cliEnv(dir));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(schemaErrors('cli/version.schema.json', out)).toBe('');
    expect(out.api).toBeNull();
    expect(out.api_error).toMatch(/^Could not reach the Syllabus service at .*: the connection was refused/);
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

  it('gives up after the one retry with exit 75 and a sentence naming the reset time', async () => {
    const service = await serve(startLoopback((_req, res) => void res.writeHead(429, { 'retry-after': '1' }).end('{"detail":"Too Many Requests"}')));
    const r = await runCli(bundle, ['catalog', '--base-url', service.url], cliEnv(dir));
    expect(r.code).toBe(75);
    expect(r.stderr).toMatch(
      /refused the request as too many \(429\) again after waiting; its read budget is spent until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(in 1 s\): try again then\.\n$/,
    );
    expect(service.requests).toHaveLength(2);
  });

  it('waits for RateLimit-Reset before the next request when RateLimit-Remaining is 0', async () => {
    // update --check reads latest.json, then latest.json.sig: the second request must wait for the budget.
    const releases = join(dir, 'rate-limited-release');
    await writeRelease(releases, VERSION, { [`syllabus-${VERSION}/bin/syllabus`]: '#!/bin/sh\n' });
    const service = await serve(
      startLoopback(async (req, res) => {
        const name = req.url === '/latest.json' || req.url === '/latest.json.sig' ? req.url.slice(1) : undefined;
        if (name === undefined) return void res.writeHead(404).end();
        res
          .writeHead(200, { 'ratelimit-limit': '120', 'ratelimit-remaining': '0', 'ratelimit-reset': '1' })
          .end(await readFile(join(releases, name)));
      }),
    );
    const r = await runCli(bundle, ['update', '--check', '--json'], cliEnv(dir, { SYLLABUS_RELEASE_URL: service.url }));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Read budget at');
    expect(r.stderr).toContain('waiting 1 s for it to reset before the next request');
    expect(service.requests.map((q) => q.path)).toEqual(['/latest.json', '/latest.json.sig']);
  });

  it('doctor reports a read budget used up', async () => {
    const service = await serve(fakeService('v1', { 'ratelimit-limit': '120', 'ratelimit-remaining': '0', 'ratelimit-reset': '1' }));
    const r = await runCli(bundle, ['doctor', '--json', '--base-url', service.url], cliEnv(dir, { SYLLABUS_NO_UPDATE: '1' }));
    expect(r.code).toBe(0);
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

describe('doctor against a server that accepts connections but never answers', () => {
  it('runs its checks at once and reports which timed out, within the overall deadline', async () => {
    const held: Socket[] = [];
    const silent = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
    try {
      // The release source is the same silent server (the test setting allows loopback http), so every check that
      // makes a request hangs; the JSON and the human report run side by side.
      const env = cliEnv(dir, { SYLLABUS_BASE_URL: url, SYLLABUS_RELEASE_URL: url });
      const deadline = DOCTOR_DEADLINE_MS / 1000;
      const started = performance.now();
      const [json, human] = await Promise.all([runCli(bundle, ['doctor', '--json'], env), runCli(bundle, ['doctor'], env)]);
      const seconds = (performance.now() - started) / 1000;
      console.log(`doctor against a server that never answers: ${seconds.toFixed(1)} s (both runs at once)`);
      expect(json.code).toBe(1);
      expect(json.stderr).toBe('');
      const out = JSON.parse(json.stdout) as { checks: { name: string; timed_out: boolean; detail: string }[] };
      expect(schemaErrors('cli/doctor.schema.json', out)).toBe('');
      expect(out.checks.filter((c) => c.timed_out).map((c) => c.name)).toEqual(['service-health', 'api-version', 'update-source']);
      expect(out.checks.find((c) => c.name === 'service-health')!.detail).toBe(`timed out: ${url}health did not answer within ${deadline} s`);
      expect(out.checks.find((c) => c.name === 'update-source')!.detail).toBe(
        `timed out: reading ${url}latest.json did not finish within ${deadline} s`,
      );
      expect(out.checks.find((c) => c.name === 'clock-skew')!.detail).toBe('not measured: the service did not answer in time');
      expect(human.code).toBe(1);
      expect(human.stdout).toContain('\nTimed out: service answers, API version, update source.\n');
      // The bound is 12 s (it was 27 s, one check after another); the margin absorbs a loaded machine.
      expect(seconds).toBeLessThan(20);
      expect(held.length).toBeGreaterThanOrEqual(2 * 3);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 40_000);
});

describe('help examples', () => {
  /** `Usage:`, argument and option lines and `$ syllabus …` examples of `syllabus <command> --help`. */
  async function help(command: string): Promise<string> {
    const r = await runCli(bundle, [command, '--help'], cliEnv(dir));
    expect(r.code).toBe(0);
    return r.stdout;
  }

  /** The commands `syllabus --help` lists (but help). */
  async function commands(): Promise<string[]> {
    const top = (await runCli(bundle, ['--help'], cliEnv(dir))).stdout;
    return [...top.split('Commands:')[1]!.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]!).filter((c) => c !== 'help');
  }

  /** The `$ syllabus …` lines of a command's help, without `$ syllabus `. */
  const exampleLines = (text: string): string[] => [...text.matchAll(/^ {2}\$ syllabus (.+)$/gm)].map((m) => m[1]!);

  it('run, and succeed, against the real server serving the bundled content', async () => {
    const srv = await startTestServer({ env: { CONTENT_DIR: join(REPO, 'content') } });
    try {
      const env = cliEnv(dir, { SYLLABUS_BASE_URL: srv.url, SYLLABUS_NO_UPDATE: '1' });
      let ran = 0;
      for (const command of await commands()) {
        if (command === 'update') continue; // it would need an install and a release server: test/cli-update.test.ts
        for (const line of exampleLines(await help(command))) {
          const r = await runCli(bundle, line.split(' '), env);
          expect(r.stderr, line).toBe('');
          expect(r.code, line).toBe(0);
          expect(r.stdout.length, line).toBeGreaterThan(0);
          ran++;
        }
      }
      expect(ran).toBeGreaterThanOrEqual(8);
    } finally {
      await srv.close();
    }
  }, 120_000);

  it('name ids and dates that exist in the bundled content', async () => {
    const loaded = await loadContent(join(REPO, 'content'));
    assert(loaded.ok, 'the bundled content/ is valid');
    const { catalog, changelog, roadmap } = loaded.model;
    const ids: Record<string, Set<string>> = {
      course: new Set(catalog.courses.map((c) => c.id)),
      class: new Set(catalog.courses.flatMap((c) => c.classes.map((k) => k.id))),
      lesson: new Set(catalog.courses.flatMap((c) => c.classes.flatMap((k) => k.lessons.map((l) => l.id)))),
      changelog: new Set(changelog.entries.map((e) => e.id)),
      roadmap: new Set(roadmap.stages.flatMap((s) => s.items.map((i) => i.id))),
    };
    /** The ids of the kind an argument such as COURSE_ID names. */
    const idsFor = (argument: string): Set<string> => {
      const kind = /^([A-Z]+)_ID$/.exec(argument)?.[1]?.toLowerCase();
      assert(kind !== undefined && ids[kind] !== undefined, `${argument} names a kind of id (COURSE_ID, LESSON_ID, …)`);
      return ids[kind];
    };

    const all = await commands();
    expect(all).toEqual(expect.arrayContaining(['catalog', 'changelog', 'roadmap', 'doctor', 'version', 'update']));
    const checked: string[] = [];
    for (const command of all) {
      const text = await help(command);
      const usage = /^Usage: syllabus (\S+) (.*)$/m.exec(text)!;
      expect(usage[1]).toBe(command);
      const positional = [...usage[2]!.matchAll(/[[<]([A-Z_]+)[\]>]/g)].map((m) => m[1]!);
      const valued = new Map([...text.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+) <([^>]+)>/gm)].map((m) => [m[1]!, m[2]!]));
      for (const [, argument, example] of text.matchAll(/^ {2}([A-Z_]+) .*e\.g\. ([a-z0-9-]+)/gm)) {
        expect(idsFor(argument!), `${command} --help: ${argument} e.g. ${example}`).toContain(example);
        checked.push(example!);
      }
      const lines = exampleLines(text);
      expect(lines.length, `${command} --help has examples`).toBeGreaterThan(0);
      for (const line of lines) {
        const [name, ...args] = line.split(' ');
        expect(name, line).toBe(command);
        let position = 0;
        for (let i = 0; i < args.length; i++) {
          const arg = args[i]!;
          if (arg.startsWith('-')) {
            const placeholder = valued.get(arg);
            if (placeholder === undefined) continue;
            const value = args[++i]!;
            if (placeholder === 'YYYY-MM-DD') {
              // A date example shows something: the changelog has entries since then.
              expect(
                changelog.entries.some((e) => e.date >= value),
                `${line}: entries since ${value}`,
              ).toBe(true);
              checked.push(value);
            }
            continue;
          }
          const argument = positional[position++];
          assert(argument !== undefined, `${line}: ${arg} is an argument ${command} takes`);
          expect(idsFor(argument), line).toContain(arg);
          checked.push(arg);
        }
      }
    }
    // The usage error's example too.
    const wrong = await runCli(bundle, ['catalog', 'Not_An_Id'], cliEnv(dir));
    const example = /e\.g\. ([a-z0-9-]+)/.exec(wrong.stderr)?.[1];
    expect(ids.course).toContain(example);
    // Not vacuous: course ids and a date were among the examples.
    expect(checked.filter((id) => ids.course!.has(id)).length).toBeGreaterThanOrEqual(2);
    expect(checked.some((value) => /^\d{4}-\d{2}-\d{2}$/.test(value))).toBe(true);
  });
});
