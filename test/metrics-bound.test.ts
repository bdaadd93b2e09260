/**
 * The request metrics' bound on the real server: one address sends every route of the table (each template filled
 * with a real, an old, an unknown and an invalid id, with a trailing slash and a segment too many) and odd paths,
 * with every method of the table and odd ones, as each kind of client it can claim, twice; the `/metrics` scrape
 * then holds no more request series, nor lines, than the bound computed from the table (`requestSeriesBound`), which
 * docs/operations.md states, and no label value the client chose.
 */
import { readFile } from 'node:fs/promises';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type RouteSpec } from '../src/contract/routes.js';
import { requestSeriesBound } from '../src/server/request-labels.js';
import { rawRequest } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const COURSE_FILE = 'courses/python-basics/index.md';
const LESSON_FILE = 'courses/python-basics/first-steps/variables.md';

/** Methods of the table, the preflight, and methods no route answers (a client may send any token). */
const METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND', 'X-ODD-1', 'X-ODD-2'];

/** One `User-Agent` per kind a client can claim without a key (none: anonymous). */
const USER_AGENTS: ReadonlyArray<Record<string, string>> = [
  {},
  { 'user-agent': 'curl/8.5.0' },
  { 'user-agent': 'acme-sync/2.1 (+https://acme.example/bot)' },
  { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0' },
];

/** Paths no route knows, some of them hostile. */
const ODD_PATHS = ['/v1', '/v1/', '/v1/nope', '/nope/x1', '//', '/%ff', '/v1/courses/%00', `/${'a'.repeat(3000)}`, '/releases/x', '/assets/'];

let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer({
    env: { ADMIN_PORT: '0', RATE_LIMIT_ANONYMOUS: '200', RATE_LIMIT_BROWSER: '5000', RATE_LIMIT_DECLARED: '5000', RATE_LIMIT_REFERRALS: '20' },
    // An old id of a course and of a lesson, so that their 308s are sent too.
    editContent: (files) => {
      files[COURSE_FILE] = files[COURSE_FILE]!.replace(/^---\n/, '---\naliases: [python-intro]\n');
      files[LESSON_FILE] = files[LESSON_FILE]!.replace(/^---\n/, '---\naliases: [py-vars]\n');
    },
  });
});
afterAll(async () => {
  await srv.close();
});

/** Concrete paths of a route: its template filled with each of `values`, then with a trailing slash and a segment more. */
function routePaths(route: RouteSpec, values: readonly string[]): string[] {
  if (!route.path.includes('{')) return [route.path, `${route.path}/`, `${route.path}/x`];
  const filled = values.map((v) => route.path.replace(/\{[^}]+\}/, encodeURIComponent(v)));
  return [...filled, `${filled[0]}/`, `${filled[0]}/x`];
}

/** Lines of one label set of the duration histogram: a line per bucket (its `le` values), `_sum` and `_count`. */
function durationLinesPerLabelSet(scrape: string): number {
  const buckets = new Set(
    scrape.split('\n').flatMap((l) => (l.startsWith('syllabus_http_request_duration_seconds_bucket{') ? [/le="([^"]+)"/.exec(l)![1]] : [])),
  );
  return buckets.size + 2;
}

/** Sample lines of the request metrics in a scrape. */
const requestLines = (scrape: string) => scrape.split('\n').filter((l) => l.startsWith('syllabus_http_request'));

describe('the request metrics', () => {
  it('hold no more series than the bound computed from the route table, however a client tries', async () => {
    const catalog = (await rawRequest(srv.url, '/v1/catalog')).json() as {
      courses: Array<{ id: string; classes: Array<{ lessons: Array<{ id: string }> }> }>;
    };
    const course = catalog.courses.find((c) => c.id === 'python-basics')!;
    const lesson = course.classes[0]!.lessons[0]!.id;
    // A real id, an old one, an unknown one and one the route's parameter refuses (a 422), for every template.
    const values = [course.id, 'python-intro', lesson, 'py-vars', 'WELCOME-2026', 'zz-no-such-id', '-x-', 'x'.repeat(300)];
    const paths = [...(ROUTES as readonly RouteSpec[]).flatMap((r) => routePaths(r, values)), ...ODD_PATHS];
    const limit = pLimit(8);
    const send = (path: string, method: string, headers: Record<string, string>) =>
      limit(() => rawRequest(srv.url, path, { method, headers }).then((res) => res.status));
    const statuses = new Set<number>();
    for (let round = 0; round < 2; round++) {
      const sent = paths.flatMap((path) => METHODS.flatMap((method) => USER_AGENTS.map((headers) => send(path, method, headers))));
      for (const status of await Promise.all(sent)) statuses.add(status);
    }
    // The load reached the answers the bound is about: served, revalidated or moved, refused, unknown, invalid.
    for (const status of [200, 204, 308, 404, 405, 422, 429]) expect(statuses).toContain(status);

    const scrape = await (await fetch(`${srv.server.adminUrl!}/metrics`)).text();
    const counts = scrape.split('\n').filter((l) => l.startsWith('syllabus_http_requests_total{'));
    const bound = requestSeriesBound();
    const lineBound = bound.requests + bound.durations * durationLinesPerLabelSet(scrape);
    expect(counts.length).toBeGreaterThan(100);
    expect(counts.length).toBeLessThanOrEqual(bound.requests);
    expect(requestLines(scrape).length).toBeLessThanOrEqual(lineBound);
    // Every label value is one of the table's; nothing the client sent shows.
    const labelValues = (name: string) => new Set(counts.map((l) => new RegExp(`${name}="([^"]*)"`).exec(l)![1]!));
    expect([...labelValues('route')].every((r) => r === 'unmatched' || ROUTES.some((route) => route.path === r))).toBe(true);
    expect([...labelValues('method')].every((m) => ['GET', 'HEAD', 'OPTIONS', 'other'].includes(m))).toBe(true);
    expect([...labelValues('status')].every((s) => /^[1-5](\d\d|xx)$/.test(s))).toBe(true);
    for (const sent of ['PROPFIND', 'X-ODD', 'zz-no-such-id', 'nope', 'python-intro', 'aaaa']) expect(scrape).not.toContain(sent);
    // Statuses of unmatched paths are classes only.
    expect(counts.filter((l) => l.includes('route="unmatched"')).every((l) => /status="\dxx"/.test(l))).toBe(true);

    console.info(
      `metrics after ${2 * paths.length * METHODS.length * USER_AGENTS.length} requests: ${counts.length} request counters of at most ` +
        `${bound.requests}, ${requestLines(scrape).length} syllabus_http_request* lines of at most ${lineBound}, scrape ${Buffer.byteLength(scrape)} bytes`,
    );
  }, 120_000);

  it('docs/operations.md states the bound the route table gives', async () => {
    const operations = await readFile(new URL('../docs/operations.md', import.meta.url), 'utf8');
    await rawRequest(srv.url, '/v1/catalog'); // so that the histogram shows its buckets
    const scrape = await (await fetch(`${srv.server.adminUrl!}/metrics`)).text();
    const bound = requestSeriesBound();
    const stated = /at most \*\*([\d,]+)\*\* label sets .* and \*\*([\d,]+)\*\* .*: \*\*([\d,]+) lines\*\*/s.exec(operations);
    const numbers = stated?.slice(1).map((n) => Number(n.replaceAll(',', '')));
    const lines = bound.requests + bound.durations * durationLinesPerLabelSet(scrape);
    expect(numbers, 'update the bound in docs/operations.md (Metrics)').toEqual([bound.requests, bound.durations, lines]);
  });
});
