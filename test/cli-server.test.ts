/**
 * The `syllabus` client (the release bundle, as a subprocess) against the real server (startTestServer), which
 * also serves a release folder at /releases/ (RELEASES_DIR): doctor passes, catalog, changelog and roadmap match
 * the API, every --json output is valid against its schema with snake_case keys, a closed pipe ends the output
 * quietly, repeated calls revalidate with ETags, and `update` installs from the service's own /releases/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRelease } from '../scripts/release.js';
import { REPO, TEST_RELEASE_SIGNING_KEY, cliEnv, removeAll, runProcess, schemaErrors, startReleaseServer, tempDir } from './helpers/cli.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let work: string;
let srv: TestServer;
/** The installed client (~/.local/bin/syllabus in a temporary HOME). */
let syllabus: string;
let home: string;

beforeAll(async () => {
  work = await tempDir('cli-server');
  await buildRelease({ version: '0.1.0', out: join(work, 'old'), signingKey: TEST_RELEASE_SIGNING_KEY });
  await buildRelease({ version: '0.2.0', out: join(work, 'releases'), signingKey: TEST_RELEASE_SIGNING_KEY });
  srv = await startTestServer({ env: { RELEASES_DIR: join(work, 'releases') } });
  // Install 0.1.0 with install.sh; the installed client is the one under test.
  home = join(work, 'home');
  const oldServer = await startReleaseServer(join(work, 'old'));
  try {
    const r = await runProcess('sh', [join(REPO, 'install.sh'), oldServer.url], cliEnv(home));
    expect(r.code).toBe(0);
  } finally {
    await oldServer.close();
  }
  syllabus = join(home, '.local', 'bin', 'syllabus');
});

afterAll(async () => {
  await srv?.close();
  await removeAll([work]);
});

const env = (extra: Record<string, string> = {}): Record<string, string> => cliEnv(home, { SYLLABUS_BASE_URL: srv.url, ...extra });

async function api<T>(path: string): Promise<T> {
  return (await (await fetch(`${srv.url}${path}`)).json()) as T;
}

interface Entry {
  id: string;
  date: string;
  kind: string;
  title: string;
  deprecates: unknown[];
}

describe('changelog and roadmap', () => {
  it('changelog --json is the body of /v1/changelog; --limit and --since select from it, newest first', async () => {
    const all = await api<{ entries: Entry[] }>('/v1/changelog');
    expect(all.entries.length).toBeGreaterThan(2);
    const json = async (...args: string[]): Promise<unknown> => {
      const r = await runProcess(syllabus, ['changelog', '--json', ...args], env());
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout) as unknown;
      expect(schemaErrors('cli/changelog.schema.json', out)).toBe('');
      return out;
    };
    expect(await json()).toEqual({ entries: all.entries.slice(0, 10) });
    expect(await json('--limit', '2')).toEqual({ entries: all.entries.slice(0, 2) });
    const since = all.entries[1]!.date;
    const recent = all.entries.filter((e) => e.date >= since);
    expect(recent.length).toBeLessThan(all.entries.length);
    expect(await json('--since', since)).toEqual({ entries: recent });
    expect(await json('--since', since, '--limit', '1')).toEqual({ entries: recent.slice(0, 1) });
    expect(await json('--since', '2999-01-01')).toEqual({ entries: [] });
  });

  it('changelog prints a table of the latest entries, like catalog', async () => {
    const all = await api<{ entries: Entry[] }>('/v1/changelog');
    const r = await runProcess(syllabus, ['changelog'], env());
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^DATE +KIND +ID +TITLE$/);
    expect(lines.slice(1).map((line) => line.split(/ {2,}/))).toEqual(
      all.entries
        .slice(0, 10)
        .map((e) => [e.date, e.kind, e.id, e.deprecates.length > 0 ? `${e.title} (deprecates ${e.deprecates.length})` : e.title]),
    );
    const none = await runProcess(syllabus, ['changelog', '--since', '2999-01-01'], env());
    expect(none).toMatchObject({ code: 0, stdout: 'No changelog entry since 2999-01-01.\n' });
  });

  it('roadmap --json is the body of /v1/roadmap, and roadmap prints each stage with its items', async () => {
    const body = await api<{ stages: { label: string; note: string; items: { id: string; title: string; theme: string }[] }[] }>('/v1/roadmap');
    expect(body.stages.length).toBeGreaterThan(1);
    const json = await runProcess(syllabus, ['roadmap', '--json'], env());
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(body);
    expect(schemaErrors('cli/roadmap.schema.json', JSON.parse(json.stdout))).toBe('');

    const r = await runProcess(syllabus, ['roadmap'], env());
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +TITLE +THEME$/);
    const expected = body.stages.flatMap((stage) => [
      [`${stage.label} — ${stage.note}`],
      ...stage.items.map((item) => [`  ${item.id}`, item.title, item.theme]),
    ]);
    expect(lines.slice(1).map((line) => line.split(/(?<=\S) {2,}/))).toEqual(expected);
  });

  it('changelog and roadmap revalidate with the ETag cache', async () => {
    const cache = { SYLLABUS_CACHE_DIR: join(work, 'etag-cache-changelog'), SYLLABUS_DEBUG: '1' };
    for (const command of ['changelog', 'roadmap']) {
      const first = await runProcess(syllabus, [command], env(cache));
      const second = await runProcess(syllabus, [command], env(cache));
      expect(first.stderr).toMatch(new RegExp(`GET .*/v1/${command} → 200`));
      expect(second.stderr).toMatch(new RegExp(`GET .*/v1/${command} → 304 Not Modified`));
      expect(second.stdout).toBe(first.stdout);
    }
  });
});

const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/** Every object key in a JSON value, with its path. */
function keysOf(value: unknown, path = '$'): { path: string; key: string }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keysOf(v, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) => [{ path, key }, ...keysOf(v, `${path}.${key}`)]);
}

describe('--json outputs', () => {
  it.each([
    [['version'], 'version', 0],
    [['doctor'], 'doctor', 0],
    [['update', '--check'], 'update', 10],
    [['catalog'], 'catalog', 0],
    [['catalog', 'python-basics'], 'catalog', 0],
    [['changelog'], 'changelog', 0],
    [['roadmap'], 'roadmap', 0],
  ] as const)('%j --json is valid against schemas/cli/%s.schema.json and every key is snake_case', async (args, schema, code) => {
    const r = await runProcess(syllabus, [...args, '--json'], env());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(code);
    const out = JSON.parse(r.stdout) as unknown;
    expect(schemaErrors(`cli/${schema}.schema.json`, out)).toBe('');
    const keys = keysOf(out);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter(({ key }) => !SNAKE_CASE.test(key))).toEqual([]);
  });

  it('every property the schemas in schemas/cli/ name is snake_case', () => {
    const dir = join(REPO, 'schemas', 'cli');
    const names: string[] = [];
    const walk = (schema: unknown): void => {
      if (typeof schema !== 'object' || schema === null) return;
      const { properties = {}, items, oneOf = [], $defs = {} } = schema as Record<string, Record<string, unknown> | undefined>;
      names.push(...Object.keys(properties));
      [...Object.values(properties), items, ...Object.values(oneOf), ...Object.values($defs)].forEach(walk);
    };
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.schema.json'))) walk(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((name) => !SNAKE_CASE.test(name))).toEqual([]);
  });
});

describe('a closed pipe', () => {
  it('syllabus catalog | head -1: the output ends quietly with exit status 0, no EPIPE, no stack trace', async () => {
    // Enough courses that the table is far larger than a pipe's buffer (64 KiB on Linux): the client is still
    // writing when the reader closes, so the write really fails with EPIPE.
    const many = Array.from({ length: 500 }, (_, i) => `course-${String(i).padStart(4, '0')}`);
    const long = 'a course with a long title to fill the table '.repeat(5);
    const big = await startTestServer({
      editContent: (files) => {
        files['catalog.md'] = `---\ncourses: [python-basics, sql-basics, rust-intro, ${many.join(', ')}]\n---\n`;
        for (const id of many) {
          files[`courses/${id}/index.md`] = `---\ntitle: ${id}, ${long}\ncolor: "#336791"\nstatus: soon\nclasses: [basics]\n---\n`;
          files[`courses/${id}/basics/index.md`] = '---\nname: Basics\nstatus: soon\nlessons: []\nsoon: [First topic]\n---\n';
        }
      },
    });
    try {
      const bigEnv = env({ SYLLABUS_BASE_URL: big.url, SYLLABUS_NO_UPDATE: '1' });
      const whole = await runProcess(syllabus, ['catalog'], bigEnv);
      expect(whole.code).toBe(0);
      expect(whole.stdout.length).toBeGreaterThan(64 * 1024);

      // A real pipe into head -1 (Node's own stdio 'pipe' is a socket pair, whose buffer would take the whole table).
      const piped = await runProcess('bash', ['-c', '"$0" catalog | head -1; echo "exit status ${PIPESTATUS[0]}"', syllabus], bigEnv);
      expect(piped.stdout).toBe(`${whole.stdout.split('\n')[0]}\nexit status 0\n`);
      expect(piped.stderr).toBe('');
    } finally {
      await big.close();
    }
  }, 60_000);
});

describe('against the real server', () => {
  it('doctor passes every check, including the update source at <base-url>/releases/', async () => {
    const r = await runProcess(syllabus, ['doctor', '--json'], env());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { ok: boolean; checks: { name: string; ok: boolean; detail: string; ms: number | null }[] };
    expect(schemaErrors('cli/doctor.schema.json', out)).toBe('');
    expect(out.ok).toBe(true);
    const byName = Object.fromEntries(out.checks.map((c) => [c.name, c]));
    expect(byName['service-health']).toMatchObject({ ok: true, ms: expect.any(Number) });
    expect(byName['api-version']).toMatchObject({ ok: true, detail: `${srv.url}/v1/health reports v1` });
    expect(byName['clock-skew']!.ok).toBe(true);
    expect(byName['read-budget']!.detail).toMatch(/^\d+ of 1000000 reads left, window resets in \d+ s$/);
    expect(byName['update-source']).toMatchObject({ ok: true, detail: `${srv.url}/releases/latest.json offers 0.2.0 (newer: run syllabus update)` });
    expect(byName['install-folder']).toMatchObject({ ok: true, detail: `${join(home, '.local', 'share', 'syllabus')} is writable` });
    // The server counts the client as a declared agent (its User-Agent names it).
    const logged = srv.logs.filter((l) => l.path === '/v1/health');
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.every((l) => l.client_kind === 'declared')).toBe(true);
  });

  it('doctor prints a checklist for people', async () => {
    const r = await runProcess(syllabus, ['doctor'], env({ SYLLABUS_NO_UPDATE: '1' }));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^✔ service answers {2,}.* answered ok in \d+ ms$/m);
    expect(r.stdout).toMatch(/^✔ automatic updates {2,}off: SYLLABUS_NO_UPDATE is set$/m);
    expect(r.stdout).toContain('Every required check passed.');
  });

  it('catalog --json is exactly the body of /v1/catalog', async () => {
    const api = await (await fetch(`${srv.url}/v1/catalog`)).json();
    const r = await runProcess(syllabus, ['catalog', '--json'], env());
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toEqual(api);
    expect(schemaErrors('cli/catalog.schema.json', out)).toBe('');
  });

  it('catalog lists every course with its counts, and a course id shows its classes and lessons', async () => {
    const api = (await (await fetch(`${srv.url}/v1/catalog`)).json()) as {
      courses: { id: string; title: string; status: string; classes_live: number; classes_total: number; lessons_live: number }[];
    };
    expect(api.courses.length).toBeGreaterThan(0);
    const r = await runProcess(syllabus, ['catalog'], env());
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +TITLE +STATUS +CLASSES +LESSONS$/);
    expect(lines).toHaveLength(api.courses.length + 1);
    api.courses.forEach((c, i) => {
      expect(lines[i + 1]!.split(/ {2,}/)).toEqual([c.id, c.title, c.status, `${c.classes_live}/${c.classes_total}`, String(c.lessons_live)]);
    });

    const course = api.courses.find((c) => c.lessons_live > 0) ?? api.courses[0]!;
    const detail = (await (await fetch(`${srv.url}/v1/courses/${course.id}`)).json()) as {
      classes: { id: string; lessons: { id: string; steps: number }[] }[];
    };
    const one = await runProcess(syllabus, ['catalog', course.id], env());
    expect(one.code).toBe(0);
    for (const klass of detail.classes) {
      expect(one.stdout).toMatch(new RegExp(`^${klass.id} `, 'm'));
      for (const lesson of klass.lessons) expect(one.stdout).toMatch(new RegExp(`^  ${lesson.id} .* ${lesson.steps}$`, 'm'));
    }
    const json = await runProcess(syllabus, ['catalog', '--json', course.id], env());
    expect(JSON.parse(json.stdout)).toEqual(detail);
  });

  it('an unknown course id is exit 1 with one sentence', async () => {
    const r = await runProcess(syllabus, ['catalog', 'no-such-course'], env());
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`syllabus: There is no course no-such-course at ${srv.url}/; run syllabus catalog to list the course ids.\n`);
  });

  it('repeated calls send If-None-Match and get 304 from the server', async () => {
    const cacheHome = { SYLLABUS_CACHE_DIR: join(work, 'etag-cache'), SYLLABUS_DEBUG: '1' };
    const first = await runProcess(syllabus, ['catalog', '--json'], env(cacheHome));
    const second = await runProcess(syllabus, ['catalog', '--json'], env(cacheHome));
    expect(first.stderr).toMatch(/GET .*\/v1\/catalog → 200/);
    expect(second.stderr).toMatch(/GET .*\/v1\/catalog → 304 Not Modified .*body from the ETag cache/);
    expect(second.stdout).toBe(first.stdout);
  });

  it('version reports the API version of the service', async () => {
    const r = await runProcess(syllabus, ['version', '--json'], env());
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ cli: '0.1.0', api: 'v1', api_error: null });
  });

  it('update installs the release the service serves at /releases/', async () => {
    const r = await runProcess(syllabus, ['update', '--json'], env());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      current: '0.1.0',
      latest: '0.2.0',
      manifest: `${srv.url}/releases/latest.json`,
      installed: true,
      previous: '0.1.0',
    });
    expect(await readlink(join(home, '.local', 'share', 'syllabus', 'current'))).toBe('syllabus-0.2.0');
    expect(await runProcess(syllabus, ['--version'], env())).toMatchObject({ code: 0, stdout: '0.2.0\n' });
  });
});
