/**
 * The site's static files on the real server: stylesheets and icon under content-hashed names (immutable, never
 * budgeted, a superseded or unknown name a 404), `/favicon.ico`, `/robots.txt` and `/sitemap.xml`; none of them
 * in the OpenAPI document.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../src/schemas/types.generated.js';
import { eventually } from './helpers/eventually.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const BASE = 'https://catalog.syllabus.test';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** W3C Datetime (https://www.w3.org/TR/NOTE-datetime): a year, month, day, or a time with a zone. */
const W3C_DATETIME = /^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/;

/** The stylesheet and icon paths a page links (`<link rel=stylesheet|icon>`, the brand `<img>`). */
function linkedAssets(html: string): { stylesheets: string[]; icons: string[] } {
  const hrefs = (rel: string) => [...html.matchAll(new RegExp(`<link rel="${rel}" href="([^"]+)"`, 'g'))].map((m) => m[1]!);
  const images = [...html.matchAll(/<img src="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  return { stylesheets: hrefs('stylesheet'), icons: [...new Set([...hrefs('icon'), ...images])] };
}

const remaining = (res: Response) => res.headers.get('ratelimit-remaining');

describe('static files', () => {
  let server: TestServer;
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => fetch(server.url + path, { headers, method });

  beforeAll(async () => {
    server = await startTestServer({ env: { PUBLIC_BASE_URL: `${BASE}/` }, start: { contentDebounceMs: 50 } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('every page links its stylesheets and icon by hashed names that answer 200, immutable, with 304s', async () => {
    const catalog = (await (await get('/v1/catalog')).json()) as Catalog;
    const seen = new Set<string>();
    for (const path of ['/', '/changelog', '/roadmap', ...catalog.courses.map((c) => `/courses/${c.id}`)]) {
      const { stylesheets, icons } = linkedAssets(await (await get(path)).text());
      expect(stylesheets, path).toEqual([
        expect.stringMatching(/^\/assets\/site\.[\w-]{16}\.css$/),
        expect.stringMatching(/^\/assets\/courses\.[\w-]{16}\.css$/),
      ]);
      expect(icons, path).toEqual([expect.stringMatching(/^\/assets\/favicon\.[\w-]{16}\.svg$/)]);
      for (const asset of [...stylesheets, ...icons]) seen.add(asset);
    }
    expect(seen.size).toBe(3);
    for (const asset of seen) {
      const res = await get(asset);
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('content-type')).toBe(asset.endsWith('.css') ? 'text/css; charset=utf-8' : 'image/svg+xml');
      expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const etag = res.headers.get('etag')!;
      expect((await get(asset, { 'if-none-match': etag })).status).toBe(304);
      const head = await get(asset, {}, 'HEAD');
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
    }
  });

  it('the course colours are in their own stylesheet, one rule per course', async () => {
    const catalog = (await (await get('/v1/catalog')).json()) as Catalog;
    const [base, colours] = linkedAssets(await (await get('/')).text()).stylesheets;
    const css = await (await get(colours!)).text();
    for (const c of catalog.courses) expect(css).toContain(`.c-${c.id}{--course:${c.color};`);
    expect(await (await get(base!)).text()).toContain('.error-page');
  });

  it('an unhashed, unknown or superseded asset name is a 404', async () => {
    for (const path of ['/assets/site.css', '/assets/favicon.svg', '/assets/site.css?v=abc', '/assets/site.AAAAAAAAAAAAAAAA.css', '/assets/x/y']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({ detail: 'Not Found' });
    }
    expect((await get('/assets/site.css', { accept: BROWSER_ACCEPT })).headers.get('content-type')).toBe('text/html; charset=utf-8');

    // New course colours: a new colours stylesheet; the old name is gone, the base rules keep theirs.
    const [base, before] = linkedAssets(await (await get('/')).text()).stylesheets;
    const file = join(server.contentDir, 'courses/python-basics/index.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('color: "#3776ab"', 'color: "#aa3377"'));
    let after: string[] = [];
    await eventually(async () => (after = linkedAssets(await (await get('/')).text()).stylesheets)[1] !== before, { what: 'the new colours' });
    expect(after[0]).toBe(base);
    expect((await get(after[1]!)).status).toBe(200);
    expect(await (await get(after[1]!)).text()).toContain('--course:#aa3377;');
    expect((await get(before!)).status).toBe(404);
  });

  it('the error pages link the base stylesheet and icon the pages link, and they answer', async () => {
    const page = linkedAssets(await (await get('/')).text());
    const notFound = await get('/courses/no-such-course', { accept: BROWSER_ACCEPT });
    expect(notFound.status).toBe(404);
    const links = linkedAssets(await notFound.text());
    expect(links).toEqual({ stylesheets: [page.stylesheets[0]], icons: page.icons });
    for (const asset of [...links.stylesheets, ...links.icons]) expect((await get(asset)).status, asset).toBe(200);
  });

  it('/favicon.ico is the SVG icon itself, cached for a week', async () => {
    const [icon] = linkedAssets(await (await get('/')).text()).icons;
    for (const accept of [BROWSER_ACCEPT, 'image/avif,image/webp,*/*', '*/*']) {
      const res = await get('/favicon.ico', { accept });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/svg+xml');
      expect(res.headers.get('cache-control')).toBe('public, max-age=604800');
      expect(res.headers.get('etag')).toMatch(/^"/);
      expect(await res.text()).toBe(await (await get(icon!)).text());
    }
  });

  it('/robots.txt allows everything and names the sitemap by its absolute URL', async () => {
    const res = await get('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const lines = (await res.text()).split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain('Allow: /');
    expect(lines.filter((l) => /^disallow:\s*\S/i.test(l))).toEqual([]);
    expect(lines).toContain(`Sitemap: ${BASE}/sitemap.xml`);
  });

  it('/sitemap.xml is well-formed sitemaps.org 0.9 XML listing every page, with W3C lastmod dates, ETag and 304', async () => {
    const res = await get('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const xml = await res.text();
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'url' }).parse(xml) as {
      urlset: { '@_xmlns': string; url: Array<{ loc: string; lastmod?: string }> };
    };
    expect(doc.urlset['@_xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const catalog = (await (await get('/v1/catalog')).json()) as Catalog;
    const changelog = (await (await get('/v1/changelog')).json()) as { entries: Array<{ date: string }> };
    const locs = doc.urlset.url.map((u) => u.loc);
    expect(locs.sort()).toEqual(
      [`${BASE}/`, `${BASE}/changelog`, `${BASE}/roadmap`, ...catalog.courses.map((c) => `${BASE}/courses/${c.id}`)].sort(),
    );
    const newest = changelog.entries
      .map((e) => e.date)
      .sort()
      .at(-1);
    for (const url of doc.urlset.url) {
      expect(url.lastmod, url.loc).toMatch(W3C_DATETIME);
      expect(url.lastmod).toBe(newest);
    }
    // Every listed URL is a page this server answers (under its own origin).
    for (const loc of locs) expect((await get(new URL(loc).pathname)).status, loc).toBe(200);
    expect((await get('/sitemap.xml', { 'if-none-match': res.headers.get('etag')! })).status).toBe(304);
  });

  it('none of them is in the OpenAPI document (they are not API routes)', async () => {
    const doc = (await (await get('/openapi.json')).json()) as { paths: Record<string, unknown> };
    const paths = Object.keys(doc.paths);
    for (const path of ['/assets/{file}', '/favicon.ico', '/robots.txt', '/sitemap.xml']) expect(paths).not.toContain(path);
    for (const path of paths) expect(path).toMatch(/^\/(v1$|v1\/|health$)/);
  });
});

describe('static files and the read budget', () => {
  let server: TestServer;
  const get = (path: string, accept = BROWSER_ACCEPT) => fetch(server.url + path, { headers: { accept } });

  beforeAll(async () => {
    const budget = '4';
    server = await startTestServer({
      env: { RATE_LIMIT_VERIFIED: budget, RATE_LIMIT_DECLARED: budget, RATE_LIMIT_BROWSER: budget, RATE_LIMIT_ANONYMOUS: budget },
      start: { watch: false },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('assets, the icon and robots.txt spend nothing, the sitemap is a read, and a refused browser still gets its stylesheet', async () => {
    const home = await get('/');
    expect(remaining(home)).toBe('3');
    const { stylesheets, icons } = linkedAssets(await home.text());
    const free = [...stylesheets, ...icons, '/favicon.ico', '/robots.txt'];
    // More requests than the whole budget: none refused, none spent.
    for (const path of [...free, ...free]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('ratelimit-limit'), path).toBe('4');
      expect(remaining(res), path).toBe('3');
    }
    const sitemap = await get('/sitemap.xml');
    expect(sitemap.status).toBe(200);
    expect(remaining(sitemap)).toBe('2');

    expect((await get('/changelog')).status).toBe(200);
    expect((await get('/roadmap')).status).toBe(200);
    const refused = await get('/changelog');
    expect(refused.status).toBe(429);
    expect((await get('/sitemap.xml')).status).toBe(429);
    const links = linkedAssets(await refused.text());
    expect(links.stylesheets).toEqual([stylesheets[0]]);
    for (const path of [...links.stylesheets, ...links.icons, '/favicon.ico', '/robots.txt']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(remaining(res), path).toBe('0');
    }
  });
});
