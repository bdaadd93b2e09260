/**
 * Ids that never break, served: against the real server on a content folder whose course, class, lesson and
 * changelog entry declare `aliases`, an old course or lesson id answers `308 Permanent Redirect` to the current
 * resource (JSON body, `Location` with the query kept, the route's caching, CORS and budget, as documented in the
 * served `/openapi.json`), an old course page id answers 308 to the current page, old class, lesson and changelog
 * anchors stay on the pages, an unknown id is still a 404, a reload adds and removes aliases at once, and the
 * HatTip handler on `@hattip/adapter-node` answers every alias as the production Node host does.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { select } from 'hast-util-select';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparable, startBothAdapters, type Served } from './helpers/both-adapters.js';
import { ROUTES, type RouteSpec } from '../src/contract/routes.js';
import { loadConfig } from '../src/server/config.js';
import { writeContentFixture, type ContentFiles } from './helpers/content-fixture.js';
import { eventually } from './helpers/eventually.js';
import { rawRequest, type RawResponse } from './helpers/http.js';
import { OpenApiResponses } from './helpers/openapi.js';
import { parseHtml, prop } from './helpers/pages-dom.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const COURSE = 'courses/python-basics/index.md';
const CLASS = 'courses/python-basics/first-steps/index.md';
const LESSON = 'courses/python-basics/first-steps/variables.md';
const ENTRY = 'changelog/for-loops-2025-06-10.md';
const DEPRECATING = 'changelog/api-v1-2025-06-10.md';

/** Adds `aliases: [<ids>]` to a file's frontmatter (its first line is `---`). */
function withAliases(text: string, ...ids: string[]): string {
  return text.replace(/^---\n/, `---\naliases: [${ids.join(', ')}]\n`);
}

/** The fixture with old ids for one course, one class, one lesson and one changelog entry. */
function renamed(files: ContentFiles): void {
  files[COURSE] = withAliases(files[COURSE]!, 'python-intro');
  files[CLASS] = withAliases(files[CLASS]!, 'getting-started', 'basics');
  files[LESSON] = withAliases(files[LESSON]!, 'py-vars');
  files[ENTRY] = withAliases(files[ENTRY]!, 'loops-2025-06-10');
  // An old id may be deprecated like any path: its 308 says so.
  files[DEPRECATING] = files[DEPRECATING]!.replace('deprecates:\n', 'deprecates:\n  - path: /v1/lessons/py-vars\n    sunset: 2026-12-31\n');
}

let srv: TestServer;
let doc: OpenApiResponses;

beforeAll(async () => {
  srv = await startTestServer({ editContent: renamed, start: { contentDebounceMs: 50 } });
  doc = new OpenApiResponses((await rawRequest(srv.url, '/openapi.json')).json());
});
afterAll(async () => {
  await srv?.close();
});

const get = (path: string, headers: Record<string, string> = {}) => rawRequest(srv.url, path, { headers });

/** The documented headers of `route`'s `status` that are required, each present on `res`. */
function expectDocumentedHeaders(res: RawResponse, route: string, status: number): void {
  for (const [name, required] of doc.headers(route, 'get', status)) {
    if (required) expect(res.headers[name.toLowerCase()], `${route} ${status} ${name}`).toBeDefined();
  }
}

describe('an old API id', () => {
  it('is documented: a 308 with a required Location on the GET of each route of the table that allows renaming', async () => {
    const served = (await rawRequest(srv.url, '/openapi.json')).json() as { paths: Record<string, Record<string, { responses: object }>> };
    const renamable = (ROUTES as readonly RouteSpec[]).filter((r) => r.aliases !== undefined && r.operation !== undefined).map((r) => r.path);
    expect(renamable).toEqual(['/v1/courses/{course_id}', '/v1/lessons/{lesson_id}']);
    for (const [path, item] of Object.entries(served.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (method === 'parameters') continue;
        expect('308' in op.responses, `${method} ${path}`).toBe(renamable.includes(path));
        if (renamable.includes(path)) expect(doc.headers(path, method, 308).get('Location')).toBe(true);
      }
    }
  });

  it('answers 308 to the current lesson, with the contract body, the route caching, CORS and the budget', async () => {
    const res = await get('/v1/lessons/py-vars');
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe('/v1/lessons/variables');
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json()).toEqual({ detail: 'Lesson "py-vars" is now "variables"' });
    const current = await get('/v1/lessons/variables');
    expect(res.headers['cache-control']).toBe(current.headers['cache-control']);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['x-request-id']).toBeDefined();
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers.sunset).toBe('Thu, 31 Dec 2026 00:00:00 GMT');
    expect(res.headers.link).toMatch(/\/changelog#api-v1-2025-06-10>; rel="deprecation"$/);
    expect(current.headers.sunset).toBeUndefined();
    // A 308 spends a read, like the 200 it leads to.
    expect(Number(res.headers['ratelimit-remaining'])).toBe(Number(current.headers['ratelimit-remaining']) + 1);
    expectDocumentedHeaders(res, '/v1/lessons/{lesson_id}', 308);
    expect(doc.check('/v1/lessons/{lesson_id}', 'get', 308, res.json())).toEqual([]);
  });

  it('answers 308 to the current course, keeping the query string', async () => {
    const res = await get('/v1/courses/python-intro?view=full&x=%C3%A9');
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe('/v1/courses/python-basics?view=full&x=%C3%A9');
    expect(res.json()).toEqual({ detail: 'Course "python-intro" is now "python-basics"' });
    expectDocumentedHeaders(res, '/v1/courses/{course_id}', 308);
  });

  it('leads a client that follows redirects to the current resource', async () => {
    const followed = await fetch(`${srv.url}/v1/lessons/py-vars`);
    expect(followed.status).toBe(200);
    expect(followed.url).toBe(`${srv.url}/v1/lessons/variables`);
    expect(await followed.text()).toBe((await get('/v1/lessons/variables')).text);
  });

  it('answers HEAD as GET, without a body, like its route, and an unknown id is still a 404', async () => {
    const head = await rawRequest(srv.url, '/v1/lessons/py-vars', { method: 'HEAD' });
    expect([head.status, head.headers.location, head.body.length]).toEqual([308, (await get('/v1/lessons/py-vars')).headers.location, 0]);
    const missing = await get('/v1/lessons/no-such-lesson');
    expect(missing.status).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Lesson not found' });
    // Ids are scoped by kind: a lesson's old id names no course.
    expect((await get('/v1/courses/py-vars')).status).toBe(404);
  });
});

describe('the pages', () => {
  it('answer an old course page id with 308 to the current page, without a body, GET and HEAD, query kept', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await rawRequest(srv.url, '/courses/python-intro?ref=mail', { method, headers: { accept: 'text/html' } });
      expect(res.status, method).toBe(308);
      expect(res.headers.location).toBe('/courses/python-basics?ref=mail');
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      expect(res.body.byteLength).toBe(0);
      expect(res.headers['content-type']).toBeUndefined();
      if (method === 'GET') expect(res.headers['content-length']).toBe('0');
    }
    const missing = await get('/courses/no-such-course', { accept: 'text/html' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/html/);
  });

  it('keep old class and lesson anchors inside the renamed class and lesson, also reached through the old course id', async () => {
    // `/courses/python-intro#class-basics`: the redirect has no fragment, so the browser keeps `#class-basics`
    // (RFC 9110 §10.2.2) and looks for it on the current page.
    const moved = await get('/courses/python-intro', { accept: 'text/html' });
    expect(moved.headers.location).toBe('/courses/python-basics');
    const root = parseHtml((await get('/courses/python-basics', { accept: 'text/html' })).text);
    for (const old of ['getting-started', 'basics']) {
      const anchor = select(`#class-${old}`, root);
      expect(prop(anchor, 'dataOldId')).toBe(old);
      expect(select(`li#class-first-steps > #class-${old}`, root)).toBe(anchor);
    }
    expect(select('li#lesson-variables > #lesson-py-vars', root)).toBeDefined();
  });

  it('keep an old changelog anchor inside the renamed entry', async () => {
    const root = parseHtml((await get('/changelog', { accept: 'text/html' })).text);
    const anchor = select('#loops-2025-06-10', root);
    expect(anchor?.tagName).toBe('span');
    expect(select('li#for-loops-2025-06-10 > #loops-2025-06-10', root)).toBe(anchor);
  });
});

describe('a reload', () => {
  it('serves an added alias at once and answers a removed one 404', async () => {
    const write = async (rel: string, edit: (text: string) => string) => {
      const file = join(srv.contentDir, rel);
      await writeFile(file, edit(await readFile(file, 'utf8')));
    };
    await write('courses/sql-basics/select/select-star.md', (t) => withAliases(t, 'select-all'));
    await write(ENTRY, (t) => t.replace(/^aliases: .*\n/m, ''));
    await write(CLASS, (t) => t.replace(/^aliases: .*$/m, 'aliases: [getting-started, intro]'));
    await eventually(async () => (await get('/v1/lessons/select-all')).status === 308, { what: 'the added alias' });
    expect((await get('/v1/lessons/select-all')).headers.location).toBe('/v1/lessons/select-star');
    const changelog = parseHtml((await get('/changelog', { accept: 'text/html' })).text);
    expect(select('#loops-2025-06-10', changelog)).toBeUndefined();
    const course = parseHtml((await get('/courses/python-basics', { accept: 'text/html' })).text);
    expect(select('#class-intro', course)).toBeDefined();
    expect(select('#class-basics', course)).toBeUndefined();

    await write(COURSE, (t) => t.replace(/^aliases: .*\n/m, ''));
    await eventually(async () => (await get('/v1/courses/python-intro')).status === 404, { what: 'the removed alias' });
    expect((await get('/courses/python-intro', { accept: 'text/html' })).status).toBe(404);
    expect((await get('/v1/lessons/py-vars')).status).toBe(308);
  });
});

describe('both adapters', () => {
  let root: string;
  const hosts: Served[] = [];
  afterAll(async () => {
    await Promise.all(hosts.map((h) => h.close()));
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  it('answer old ids with the same status, header fields and body bytes', async () => {
    root = await mkdtemp(join(tmpdir(), 'syllabus-aliases-'));
    const contentDir = await writeContentFixture(join(root, 'content'), renamed);
    const config = loadConfig(
      {
        PORT: '0',
        HOST: '127.0.0.1',
        CONTENT_DIR: contentDir,
        REFERRALS_FILE: srv.referralsFile,
        LOG_LEVEL: 'info',
        RATE_LIMIT_ANONYMOUS: '50',
        // Published under a path: `Location` is absolute, after it.
        PUBLIC_BASE_URL: 'https://catalog.example/api',
      },
      root,
    );
    const started = await startBothAdapters(config, contentDir, () => ({
      sink: new Writable({ write: (_chunk, _encoding, done) => done() }),
    }));
    hosts.push(started.node, started.hattip);
    const requests: Array<[method: string, path: string, headers: Record<string, string>]> = [
      ['GET', '/v1/lessons/py-vars', {}],
      ['GET', '/v1/lessons/py-vars?a=1&b=%20&c=%C3%A9', { 'accept-encoding': 'br, gzip' }],
      ['GET', '/v1/courses/python-intro', { 'if-none-match': '"x"', 'user-agent': 'acme-sync/2.1 (+https://acme.example/bot)' }],
      ['HEAD', '/v1/lessons/py-vars', {}],
      ['GET', '/courses/python-intro', { accept: 'text/html' }],
      ['GET', '/courses/python-intro?ref=mail', { accept: 'text/html', 'accept-encoding': 'gzip' }],
      ['HEAD', '/courses/python-intro', { accept: 'text/html' }],
      ['GET', '/courses/no-such-course', { accept: 'text/html' }],
      ['GET', '/v1/lessons/no-such-lesson', {}],
    ];
    let n = 0;
    for (const [method, path, headers] of requests) {
      const id = { 'x-request-id': `alias-${n++}` };
      const [node, hattip] = await Promise.all(hosts.map((h) => rawRequest(h.url, path, { method, headers: { ...headers, ...id } })));
      expect(comparable(node!), `${method} ${path}`).toEqual(comparable(hattip!));
      if (path === '/v1/lessons/py-vars' && method === 'GET') expect(node!.headers.location).toBe('https://catalog.example/api/v1/lessons/variables');
      if (path.includes('python-intro') || path.includes('py-vars')) expect(node!.status, `${method} ${path}`).toBe(308);
    }
  });
});
