/**
 * Same data, proved: against the real server on the bundled catalog, every course, class, lesson count,
 * changelog entry and roadmap item of `/v1/catalog`, `/v1/courses/{id}`, `/v1/changelog` and `/v1/roadmap`
 * appears on the pages, and the pages show nothing else; the Atom feed, parsed as XML, matches `/v1/changelog`.
 * Also the HTTP side of pages: ETag/304, compression, security headers.
 */
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Catalog, Changelog, Course, Roadmap } from '../src/schemas/types.generated.js';
import { changelogEntries, courseCards, coursePage, parseHtml, roadmapStages } from './helpers/pages-dom.js';
import { bundledContentFiles, useBundledContent } from './helpers/pages-content.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let catalog: Catalog;
let changelog: Changelog;
let roadmap: Roadmap;

const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim() || undefined;

async function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(server.url + path, { headers });
}
async function json<T>(path: string): Promise<T> {
  const res = await get(path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}
async function page(path: string) {
  const res = await get(path, { accept: 'text/html' });
  expect(res.status, path).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  return parseHtml(await res.text());
}

beforeAll(async () => {
  server = await startTestServer({ editContent: useBundledContent(await bundledContentFiles()), start: { contentDebounceMs: 50 } });
  [catalog, changelog, roadmap] = await Promise.all([json<Catalog>('/v1/catalog'), json<Changelog>('/v1/changelog'), json<Roadmap>('/v1/roadmap')]);
});

afterAll(async () => {
  await server?.close();
});

describe('the pages show exactly the API’s data', () => {
  it('course map: one card per course of /v1/catalog, in order, with title, status and counts', async () => {
    expect(catalog.courses.length).toBeGreaterThan(0);
    const cards = courseCards(await page('/'));
    expect(cards).toEqual(
      catalog.courses.map((c) => ({
        id: c.id,
        title: norm(c.title),
        href: `/courses/${c.id}`,
        status: c.status,
        tagline: norm(c.tagline),
        blurb: norm(c.blurb),
        classes_live: c.classes_live,
        classes_total: c.classes_total,
        lessons_live: c.lessons_live,
      })),
    );
  });

  it('course pages: every class in order with status, every lesson with title, lang and steps, every soon topic', async () => {
    for (const summary of catalog.courses) {
      const course = await json<Course>(`/v1/courses/${summary.id}`);
      expect(course).toEqual(summary);
      const shown = coursePage(await page(`/courses/${course.id}`));
      expect(shown).toEqual({
        id: course.id,
        title: norm(course.title),
        status: course.status,
        counts: { classes_live: course.classes_live, classes_total: course.classes_total, lessons_live: course.lessons_live },
        classes: course.classes.map((k) => ({
          id: k.id,
          name: norm(k.name),
          status: k.status,
          blurb: norm(k.blurb),
          lessons: k.lessons.map((l) => ({ id: l.id, title: norm(l.title), blurb: norm(l.blurb), lang: l.lang, steps: l.steps })),
          soon: k.soon.map((t) => norm(t)),
        })),
      });
      // The lesson count of each class is the number of lessons listed.
      for (const k of shown.classes) expect(k.lessons.length).toBe(course.classes.find((c) => c.id === k.id)!.lessons_live);
    }
  });

  it('changelog: every entry of /v1/changelog, newest first, with id (anchor), date, kind, title and blurb', async () => {
    expect(changelog.entries.length).toBeGreaterThan(0);
    expect(changelogEntries(await page('/changelog'))).toEqual(
      changelog.entries.map((e) => ({ id: e.id, date: e.date, kind: e.kind, title: norm(e.title), blurb: norm(e.blurb) })),
    );
  });

  it('roadmap: every stage and item of /v1/roadmap, shipped items linking to their changelog entry', async () => {
    expect(roadmapStages(await page('/roadmap'))).toEqual(
      roadmap.stages.map((s) => ({
        key: s.key,
        label: norm(s.label),
        note: norm(s.note),
        items: s.items.map((i) => ({
          id: i.id,
          title: norm(i.title),
          theme: i.theme,
          shippedHref: i.shipped === undefined ? undefined : `/changelog#${i.shipped}`,
        })),
      })),
    );
  });

  it('Atom feed: one entry per changelog entry, newest first, with a stable id, its date, title and link', async () => {
    const res = await get('/changelog.atom');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@',
      isArray: (n) => n === 'entry' || n === 'link',
      htmlEntities: true,
    });
    const xml = await res.text();
    const feed = parser.parse(xml).feed;
    expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(feed.updated).toBe(`${changelog.entries[0]!.date}T00:00:00.000Z`);
    const decode = (s: string) =>
      s
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&');
    expect(
      feed.entry.map((e: { id: string; updated: string; title: { '#text': string }; link: Array<{ '@href': string }> }) => ({
        id: e.id,
        updated: e.updated,
        title: decode(String(e.title['#text'])),
        link: new URL(e.link[0]!['@href']).hash,
      })),
    ).toEqual(
      changelog.entries.map((e) => ({
        id: expect.stringMatching(new RegExp(`^tag:[^,]+,${e.date}:changelog/${e.id}$`)),
        updated: `${e.date}T00:00:00.000Z`,
        title: e.title,
        link: `#${e.id}`,
      })),
    );
  });
});

describe('pages over HTTP', () => {
  it('are precomputed representations: ETag and 304, br and gzip once compressed, Cache-Control and the security headers', async () => {
    for (const path of ['/', '/changelog', '/roadmap', `/courses/${catalog.courses[0]!.id}`]) {
      // A page is rendered by its first request and compressed after it.
      expect((await get(path)).status).toBe(200);
      await vi.waitFor(async () => expect((await get(path, { 'accept-encoding': 'br' })).headers.get('content-encoding')).toBe('br'));
      const res = await get(path, { 'accept-encoding': 'br' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe('br');
      expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'.*style-src 'self'/);
      expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      const etag = res.headers.get('etag')!;
      expect(etag).toMatch(/^"/);
      expect((await get(path, { 'if-none-match': etag })).status).toBe(304);
      const gz = await get(path, { 'accept-encoding': 'gzip' });
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      expect(await gz.text()).toContain('<!doctype html>');
    }
  });

  it('link a stylesheet with a rule for each course colour', async () => {
    const href = /<link rel="stylesheet" href="(\/assets\/courses\.[\w-]+\.css)"/.exec(await (await get('/')).text())?.[1];
    expect(href).toBeDefined();
    const res = await get(href!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const css = await res.text();
    for (const c of catalog.courses) expect(css).toContain(`.c-${c.id}{--course:${c.color};`);
  });
});
