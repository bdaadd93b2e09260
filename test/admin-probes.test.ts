/**
 * The admin listener's probes and metrics on the real server: `/livez`, `/readyz` (503 while the content source
 * fails and from the moment shutdown begins), `/metrics` in the Prometheus text format with bounded labels (route
 * templates, never raw paths), the push webhook's deliveries counted by result, and none of them on the public port.
 */
import { createHmac } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig, configWarnings } from '../src/server/config.js';
import { eventually } from './helpers/eventually.js';
import { createContentRemote } from './helpers/git-repo.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let srv: TestServer;
const admin = (path: string, init?: RequestInit) => fetch(`${srv.server.adminUrl!}${path}`, init);
const pub = (path: string, init?: RequestInit) => fetch(`${srv.url}${path}`, init);

/** The value of one sample line of a scrape, e.g. `syllabus_http_requests_total{…}`; `undefined` when absent. */
function sample(scrape: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of scrape.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const found = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (found) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

beforeAll(async () => {
  srv = await startTestServer({ env: { ADMIN_PORT: '0', RATE_LIMIT_ANONYMOUS: '30' } });
});
afterAll(async () => {
  await srv.close();
});

describe('probes', () => {
  it('/livez answers while the event loop turns', async () => {
    const res = await admin('/livez');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'live' });
  });

  it('/readyz stays 200 while the content source fails (the fault shows on /health and /statusz)', async () => {
    const res = await admin('/readyz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready' }); // listening on loopback: no warning
    const source = srv.server.contentSource;
    const fault = { reason: 'watch-failed' as const, since: '2026-11-29T00:00:00.000Z', detail: 'watching failed (ENOSPC) in /srv/secret' };
    const status = vi.spyOn(source, 'status').mockReturnValue({ ...source.status(), fault });
    try {
      expect((await admin('/readyz')).status).toBe(200);
      const health = (await (await pub('/health')).json()) as Record<string, string>;
      expect(health).toMatchObject({ content_watch: 'watch-failed', content_watch_since: fault.since, content_in_sync: 'false' });
      expect(JSON.stringify(health)).not.toContain('/srv/secret');
      const detail = (await (await admin('/statusz')).json()) as { source: { fault: unknown } };
      expect(detail.source.fault).toEqual(fault);
    } finally {
      status.mockRestore();
    }
  });

  it('are not on the public port', async () => {
    for (const path of ['/livez', '/readyz', '/metrics']) expect((await pub(path)).status).toBe(404);
  });
});

describe('/metrics', () => {
  it('counts requests by route template, method, status and client kind, never by raw path', async () => {
    await pub('/v1/catalog');
    await pub('/v1/courses/python-basics');
    await pub('/v1/courses/zz-no-such-course');
    await pub('/no/such/path-x1');
    const res = await admin('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const scrape = await res.text();
    const course = { route: '/v1/courses/{course_id}', method: 'GET', client_kind: 'anonymous' };
    expect(sample(scrape, 'syllabus_http_requests_total', { ...course, status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(scrape, 'syllabus_http_requests_total', { ...course, status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sample(scrape, 'syllabus_http_requests_total', { route: 'unmatched', status: '4xx' })).toBeGreaterThanOrEqual(1);
    // The histogram is not by client kind (see docs/operations.md).
    const duration = { route: course.route, method: 'GET', status: '200' };
    expect(sample(scrape, 'syllabus_http_request_duration_seconds_count', duration)).toBeGreaterThanOrEqual(1);
    expect(scrape).not.toMatch(/syllabus_http_request_duration_seconds_count\{[^}]*client_kind/);
    expect(scrape).not.toContain('zz-no-such-course');
    expect(scrape).not.toContain('path-x1');
    // prom-client's process and event-loop metrics, under the same prefix.
    expect(sample(scrape, 'syllabus_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(scrape).toContain('syllabus_nodejs_eventloop_lag_seconds');
  });

  it('labels an unknown method `other`', async () => {
    await pub('/v1/catalog', { method: 'PROPFIND' });
    expect(sample(await (await admin('/metrics')).text(), 'syllabus_http_requests_total', { method: 'other', status: '405' })).toBeGreaterThanOrEqual(
      1,
    );
  });

  it('shows the revision served and counts content reloads by result', async () => {
    const before = await (await admin('/metrics')).text();
    const health = (await (await pub('/health')).json()) as { revision: string };
    expect(sample(before, 'syllabus_content_revision_info', { revision: health.revision })).toBe(1);
    const applied = sample(before, 'syllabus_content_reloads_total', { result: 'applied' }) ?? 0;
    expect(sample(before, 'syllabus_content_reloads_total', { result: 'rejected' })).toBe(0);

    await writeFile(
      join(srv.contentDir, 'roadmap', 'metrics-probe.md'),
      '---\ntitle: Metrics probe\ntheme: Ops\nstage: exploring\n---\nA roadmap item.\n',
    );
    await eventually(
      async () => sample(await (await admin('/metrics')).text(), 'syllabus_content_reloads_total', { result: 'applied' }) === applied + 1,
      {
        what: 'an applied reload counted',
      },
    );
    const after = await (await admin('/metrics')).text();
    const served = ((await (await pub('/health')).json()) as { revision: string }).revision;
    expect(served).not.toBe(health.revision);
    expect(sample(after, 'syllabus_content_revision_info', { revision: served })).toBe(1);
    expect(sample(after, 'syllabus_content_revision_info', { revision: health.revision })).toBeUndefined();
    expect(sample(after, 'syllabus_content_reload_duration_seconds_count', { result: 'applied' })).toBeGreaterThanOrEqual(1);

    await writeFile(join(srv.contentDir, 'roadmap', 'metrics-probe.md'), '---\ntitle: Metrics probe\nstage: nowhere\n---\n');
    await eventually(async () => sample(await (await admin('/metrics')).text(), 'syllabus_content_reloads_total', { result: 'rejected' }) === 1, {
      what: 'a rejected reload counted',
    });
  });

  it('counts 429 refusals by client kind', async () => {
    let refused = 0;
    for (let i = 0; i < 40 && refused === 0; i++) if ((await pub('/v1/roadmap')).status === 429) refused++;
    expect(refused).toBe(1);
    expect(sample(await (await admin('/metrics')).text(), 'syllabus_ratelimit_refusals_total', { client_kind: 'anonymous' })).toBeGreaterThanOrEqual(
      1,
    );
  });
});

describe('/metrics of the push webhook', () => {
  it('counts deliveries by result, each result present from the start', async () => {
    const secret = 'metrics-webhook-secret-0123456789';
    const remote = await createContentRemote();
    const git = await startTestServer({
      env: { CONTENT_GIT_URL: remote.bare, CONTENT_GIT_CACHE: join(remote.root, 'cache'), ADMIN_PORT: '0', CONTENT_GIT_WEBHOOK_SECRET: secret },
    });
    try {
      const scrape = async (): Promise<string> => (await fetch(`${git.server.adminUrl!}/metrics`)).text();
      const counts = (text: string) =>
        Object.fromEntries(
          ['accepted', 'unauthorized', 'too_large', 'unreadable', 'failed'].map((result) => [
            result,
            sample(text, 'syllabus_git_webhook_deliveries_total', { result }),
          ]),
        );
      expect(counts(await scrape())).toEqual({ accepted: 0, unauthorized: 0, too_large: 0, unreadable: 0, failed: 0 });
      const deliver = (headers: Record<string, string>) =>
        fetch(`${git.server.adminUrl!}/hooks/git`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', ...headers } });
      for (let i = 0; i < 3; i++) expect((await deliver({ 'x-gitlab-token': 'not the secret' })).status).toBe(401);
      const signature = `sha256=${createHmac('sha256', secret).update('{}').digest('hex')}`;
      expect((await deliver({ 'x-hub-signature-256': signature, 'x-github-event': 'push' })).status).toBe(202);
      expect(counts(await scrape())).toEqual({ accepted: 1, unauthorized: 3, too_large: 0, unreadable: 0, failed: 0 });
      // Three rejections within a minute: one line.
      expect(git.logs.filter((l) => l.msg === 'git webhook delivery rejected')).toEqual([expect.objectContaining({ level: 40, suppressed: 0 })]);
    } finally {
      await git.close();
      await remote.remove();
    }
  });
});

describe('warnings and shutdown', () => {
  it('warns when PUBLIC_BASE_URL or REFERRALS_FILE is unset on a public address, not on loopback or when set', () => {
    expect(configWarnings(loadConfig({ HOST: '0.0.0.0', REFERRALS_FILE: 'codes.txt' }, '/srv'))).toEqual([
      'PUBLIC_BASE_URL is not set while listening on 0.0.0.0: pages, the Atom feed and deprecation links point at http://localhost:8080; set it to the URL clients use',
    ]);
    expect(configWarnings(loadConfig({ HOST: '::', REFERRALS_FILE: 'codes.txt' }, '/srv'))).toHaveLength(1);
    expect(configWarnings(loadConfig({ HOST: '127.0.0.1' }, '/srv'))).toEqual([]);
    expect(configWarnings(loadConfig({ HOST: '::1' }, '/srv'))).toEqual([]);
    expect(configWarnings(loadConfig({ HOST: 'localhost' }, '/srv'))).toEqual([]);
    expect(
      configWarnings(loadConfig({ HOST: '0.0.0.0', PUBLIC_BASE_URL: 'https://catalog.example.com', REFERRALS_FILE: 'codes.txt' }, '/srv')),
    ).toEqual([]);
    expect(configWarnings(loadConfig({ HOST: '0.0.0.0', PUBLIC_BASE_URL: 'https://catalog.example.com' }, '/srv'))).toEqual([
      "REFERRALS_FILE is not set while listening on 0.0.0.0: every referral check answers 503 (cannot check); set it to the file of valid codes' digests",
    ]);
  });

  it('shows the warning on /readyz and in the start-up log', async () => {
    const open = await startTestServer({ env: { ADMIN_PORT: '0', HOST: '0.0.0.0' } });
    try {
      const body = (await (await fetch(`${open.server.adminUrl!}/readyz`)).json()) as { warnings?: string[] };
      expect(body.warnings).toEqual([expect.stringMatching(/^PUBLIC_BASE_URL is not set while listening on 0\.0\.0\.0/)]);
      expect(open.logs.find((l) => l.msg === 'configuration warning')).toMatchObject({ level: 40, warning: body.warnings![0] });
    } finally {
      await open.close();
    }
  });

  it('/readyz answers 503 from the moment shutdown begins, while the public port drains', async () => {
    const other = await startTestServer({ env: { ADMIN_PORT: '0' } });
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Shutdown's first step (closing the content source) is held, so the check below is not a race.
    const realClose = other.server.contentSource.close.bind(other.server.contentSource);
    vi.spyOn(other.server.contentSource, 'close').mockImplementation(async () => {
      await held;
      await realClose();
    });
    const closing = other.close();
    const res = await fetch(`${other.server.adminUrl!}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'not ready', reason: 'shutting down' });
    release();
    await closing;
  });
});
