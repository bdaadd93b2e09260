/**
 * The `syllabus` client (the release bundle, as a subprocess) against the real server (startTestServer), which
 * also serves a release folder at /releases/ (RELEASES_DIR): doctor passes, catalog matches /v1/catalog,
 * repeated calls revalidate with ETags, and `update` installs from the service's own /releases/.
 */
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
    expect(JSON.parse(r.stdout)).toMatchObject({ cli: '0.1.0', api: 'v1', apiError: null });
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
