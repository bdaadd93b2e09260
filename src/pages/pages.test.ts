import { fromHtml } from 'hast-util-from-html';
import { select, selectAll } from 'hast-util-select';
import { toString } from 'hast-util-to-string';
import type { Element, Root } from 'hast';
import { describe, expect, it } from 'vitest';
import { pagesModel } from '../../test/helpers/pages-model.js';
import { NO_ALIASES } from '../content/model.js';
import { RATE_LIMITS_DOC_URL, tooManyRequestsBody, type Refusal } from '../contract/rate-limits.js';
import { normalizeBaseUrl, renderNotFoundPage, renderPages, renderServerErrorPage, renderTooManyRequestsPage, type PageEntry } from './index.js';
import { shellAssets, shellLinks } from './assets.js';
import { nodeCodec } from '../server/node-codec.js';

const BASE = 'https://catalog.syllabus.test';
const model = pagesModel();
const pages = new Map(renderPages(model, { publicBaseUrl: `${BASE}/`, digest: nodeCodec.digest }));

function doc(path: string): Root {
  const entry = pages.get(path);
  if (!entry) throw new Error(`no page at ${path}`);
  return fromHtml(String(entry.body));
}
const text = (root: Root | Element, selector: string) => toString(select(selector, root) ?? { type: 'root', children: [] }).trim();
const attr = (el: Element | undefined, name: string) => String(el?.properties[name] ?? '');
const HTML_PATHS = ['/', '/courses/python-foundations', '/courses/the-shell', '/courses/rust-from-scratch', '/changelog', '/roadmap'];
/** A content-hashed asset name: `/assets/<stem>.<16 base64url characters>.<ext>`. */
const hashed = (stem: string, ext: string) => new RegExp(`^/assets/${stem}\\.[\\w-]{16}\\.${ext}$`);
const pathsLike = (re: RegExp) => [...pages.keys()].filter((p) => re.test(p));
const onlyPath = (re: RegExp) => {
  const found = pathsLike(re);
  expect(found).toHaveLength(1);
  return found[0]!;
};

/** A refusal of an anonymous client's read budget (30 a minute; 120 declared, 480 verified). */
const REFUSAL: Refusal = {
  detail: 'Too Many Requests',
  kind: 'anonymous',
  budget: 'read',
  limit: 30,
  windowSeconds: 60,
  resetSeconds: 5,
  limitOf: (kind) => ({ declared: 120, verified: 480 })[kind],
};
/** {@link REFUSAL}'s body, `retry_after_seconds` as given (the page rounds it). */
const refusal = (seconds: number) => ({ ...tooManyRequestsBody(REFUSAL), retry_after_seconds: seconds });

describe('renderPages', () => {
  it('renders every page and asset, keyed by path, and nothing else', () => {
    const assets = [hashed('site', 'css'), hashed('courses', 'css'), hashed('favicon', 'svg')].map(onlyPath);
    expect([...pages.keys()].sort()).toEqual([...HTML_PATHS, '/changelog.atom', ...assets, '/favicon.ico', '/robots.txt', '/sitemap.xml'].sort());
    for (const path of HTML_PATHS) {
      const e = pages.get(path)!;
      expect(e.contentType).toBe('text/html; charset=utf-8');
      expect(e.headers['Content-Security-Policy']).toMatch(/^default-src 'none'; style-src 'self'; img-src 'self' data:/);
      expect(e.headers['X-Content-Type-Options']).toBe('nosniff');
      expect(e.headers['Referrer-Policy']).toBe('strict-origin-when-cross-origin');
    }
    expect(pages.get('/changelog.atom')!.contentType).toBe('application/atom+xml; charset=utf-8');
    expect(pages.get(assets[0]!)!.contentType).toBe('text/css; charset=utf-8');
    expect(pages.get(assets[1]!)!.contentType).toBe('text/css; charset=utf-8');
    expect(pages.get(assets[2]!)!.contentType).toBe('image/svg+xml');
    expect(pages.get('/favicon.ico')).toEqual(pages.get(assets[2]!));
    expect(pages.get('/robots.txt')!.contentType).toBe('text/plain; charset=utf-8');
    expect(pages.get('/sitemap.xml')!.contentType).toBe('application/xml; charset=utf-8');
  });

  it('names each asset by a digest of its bytes', () => {
    for (const path of pathsLike(/^\/assets\//)) {
      const bytes = new TextEncoder().encode(String(pages.get(path)!.body));
      expect(path.split('.')[1]).toBe(nodeCodec.digest(bytes).slice(0, 16));
    }
  });

  it('is deterministic: the same model gives the same bytes', () => {
    const again = renderPages(model, { publicBaseUrl: BASE, digest: nodeCodec.digest });
    for (const [path, entry] of again) expect(entry.body).toEqual(pages.get(path)!.body);
  });

  it.each(HTML_PATHS)('%s: a complete document with landmarks, navigation and no script or inline style', (path) => {
    const body = String(pages.get(path)!.body);
    const root = doc(path);
    expect(body.startsWith('<!doctype html>')).toBe(true);
    expect(attr(select('html', root), 'lang')).toBe('en');
    expect(attr(select('meta[name=viewport]', root), 'content')).toContain('width=device-width');
    for (const landmark of ['header', 'nav', 'main', 'footer']) expect(select(landmark, root)).toBeDefined();
    expect(selectAll('h1', root)).toHaveLength(1);
    const hrefs = selectAll('a[href]', root).map((a) => attr(a, 'href'));
    for (const other of ['/', '/changelog', '/roadmap', '/docs']) expect(hrefs).toContain(other);
    expect(selectAll('link[rel=stylesheet]', root).map((l) => attr(l, 'href'))).toEqual([
      onlyPath(hashed('site', 'css')),
      onlyPath(hashed('courses', 'css')),
    ]);
    expect(attr(select('link[rel=icon]', root), 'href')).toBe(onlyPath(hashed('favicon', 'svg')));
    expect(attr(select('.brand img', root), 'src')).toBe(onlyPath(hashed('favicon', 'svg')));
    expect(attr(select('link[rel=alternate][type="application/json"]', root), 'href')).toMatch(/^\/v1\//);
    expect(attr(select('link[rel=canonical]', root), 'href')).toBe(BASE + path);
    expect(selectAll('script', root)).toHaveLength(0);
    expect(selectAll('[style]', root)).toHaveLength(0);
    expect(selectAll('style', root)).toHaveLength(0);
    expect(body).not.toMatch(/\son[a-z]+=/i);
  });

  it('shows every course on the map in display order, with status and counts', () => {
    const cards = selectAll('li.course-card', doc('/'));
    expect(cards.map((c) => attr(c, 'dataCourse'))).toEqual(model.catalog.courses.map((c) => c.id));
    model.catalog.courses.forEach((course, i) => {
      const card = cards[i]!;
      expect(text(card, 'h2')).toBe(course.title);
      expect(attr(select('h2 a', card), 'href')).toBe(`/courses/${course.id}`);
      expect(attr(select('[data-status]', card), 'dataStatus')).toBe(course.status);
      expect(text(card, '[data-count=classes_live]')).toBe(String(course.classes_live));
      expect(text(card, '[data-count=classes_total]')).toBe(String(course.classes_total));
      expect(text(card, '[data-count=lessons_live]')).toBe(String(course.lessons_live));
      expect((attr(card, 'className') as unknown as string[]).toString()).toContain(`c-${course.id}`);
    });
    const soon = cards[2]!;
    expect(text(soon, '.badge')).toBe('Coming soon');
    expect(toString(soon)).toMatch(/not start it/);
  });

  it('shows a course’s classes in order with lessons as metadata and soon topics', () => {
    const course = model.catalog.courses[0]!;
    const root = doc('/courses/python-foundations');
    expect(text(root, 'h1')).toBe(course.title);
    expect(attr(select('link[rel=alternate]', root), 'href')).toBe('/v1/courses/python-foundations');
    const classes = selectAll('li.klass', root);
    expect(classes.map((k) => attr(k, 'dataClass'))).toEqual(course.classes.map((k) => k.id));
    const [basics, objects] = classes as [Element, Element];
    const lessons = selectAll('li.lesson', basics);
    expect(lessons.map((l) => text(l, 'h3'))).toEqual(['Values and types', 'Numbers <and> arithmetic']);
    expect(lessons.map((l) => attr(select('[data-steps]', l), 'dataSteps'))).toEqual(['4', '1']);
    expect(lessons.map((l) => text(l, '.chip-lang'))).toEqual(['Language: python', 'Language: python']);
    expect(selectAll('[data-soon-topic]', basics).map((t) => toString(t))).toEqual(['Reading input with input()']);
    expect(selectAll('li.lesson', objects)).toHaveLength(0);
    expect(text(objects, '.badge')).toBe('Coming soon');
    expect(selectAll('[data-soon-topic]', objects).map((t) => toString(t))).toEqual(['Classes', 'Dataclasses']);
  });

  it('lists changelog entries newest first with anchors, dates, kinds and sanitised Markdown bodies', () => {
    const root = doc('/changelog');
    expect(attr(select('link[rel=alternate][type="application/atom+xml"]', root), 'href')).toBe('/changelog.atom');
    const entries = selectAll('li.entry', root);
    expect(entries.map((e) => attr(e, 'id'))).toEqual(model.changelog.entries.map((e) => e.id));
    expect(entries.map((e) => attr(select('time', e), 'dateTime'))).toEqual(model.changelog.entries.map((e) => e.date));
    expect(entries.map((e) => text(e, 'h3'))).toEqual(model.changelog.entries.map((e) => e.title));
    expect(entries.map((e) => attr(select('[data-kind]', e), 'dataKind'))).toEqual(model.changelog.entries.map((e) => e.kind));
    expect(select('.prose em', entries[0])).toBeDefined();
    const body = String(pages.get('/changelog')!.body);
    expect(body).not.toContain('<script');
    expect(body).not.toContain('tracker.example');
    expect(text(entries[1]!, '.deprecations')).toContain('/v1/roadmap');
    expect(selectAll('section.month h2', root).map((h) => toString(h))).toEqual(['March 2026', 'February 2026']);
  });

  it('shows roadmap stages in order and links a shipped item to its changelog entry', () => {
    const root = doc('/roadmap');
    const stages = selectAll('section.stage', root);
    expect(stages.map((s) => attr(s, 'dataStage'))).toEqual(['shipped', 'building', 'next', 'exploring']);
    expect(stages.map((s) => text(s, 'h2'))).toEqual(['Shipped', 'Building', 'Next', 'Exploring']);
    const shipped = select('[data-shipped]', root)!;
    expect(attr(shipped, 'href')).toBe('/changelog#shell-course-2026-03-02');
    expect(toString(shipped)).toContain('The shell & you');
    expect(selectAll('li.item', root).map((i) => text(i, 'h3'))).toEqual(['A shell course', 'Quizzes', 'Rust course', 'Offline mode']);
  });

  it('writes the base rules in one stylesheet and one colour rule per course in another', () => {
    const base = String(pages.get(onlyPath(hashed('site', 'css')))!.body);
    const colours = String(pages.get(onlyPath(hashed('courses', 'css')))!.body);
    for (const c of model.catalog.courses) expect(colours).toContain(`.c-${c.id}{--course:${c.color};`);
    expect(colours).toContain('prefers-color-scheme: dark');
    expect(base).toContain(':focus-visible');
    expect(base).not.toContain('.c-');
  });

  it('gives bytes that depend on what a page shows, not on the content revision (a reload recompresses only changed pages)', () => {
    const other = new Map(renderPages({ ...model, revision: 'f'.repeat(40) }, { publicBaseUrl: `${BASE}/`, digest: nodeCodec.digest }));
    for (const [path, entry] of pages) expect(other.get(path)!.body, path).toEqual(entry.body);
    const courses = model.catalog.courses;
    const recoloured = { ...model, catalog: { courses: courses.map((c, i) => (i === 0 ? { ...c, color: '#123456' } : c)) } };
    const css = (m: typeof model) =>
      String(new Map(renderPages(m, { publicBaseUrl: BASE, digest: nodeCodec.digest })).get('/')!.body).match(
        /\/assets\/(site|courses)\.[\w-]+\.css/g,
      );
    const [base, colours] = css(recoloured)!;
    expect(base).toBe(css(model)![0]);
    expect(colours).not.toBe(css(model)![1]);
  });

  it('renders an empty catalog, changelog and roadmap without failing', () => {
    const empty = new Map<string, PageEntry>(
      renderPages(
        { revision: 'abc', catalog: { courses: [] }, changelog: { entries: [] }, roadmap: { stages: [] }, aliases: NO_ALIASES },
        { publicBaseUrl: BASE, digest: nodeCodec.digest },
      ),
    );
    expect(String(empty.get('/')!.body)).toContain('No courses are published yet.');
    expect(String(empty.get('/changelog.atom')!.body)).toContain('<updated>1970-01-01T00:00:00.000Z</updated>');
    expect([...empty.keys()].filter((p) => p.startsWith('/assets/courses.'))).toEqual([]);
    expect(selectAll('link[rel=stylesheet]', fromHtml(String(empty.get('/')!.body)))).toHaveLength(1);
    expect(String(empty.get('/sitemap.xml')!.body)).not.toContain('<lastmod>');
  });

  it('writes robots.txt: everything allowed, the sitemap by its absolute URL', () => {
    expect(String(pages.get('/robots.txt')!.body)).toBe(
      `# Syllabus catalog: every page and API resource may be crawled.\nUser-agent: *\nAllow: /\n\nSitemap: ${BASE}/sitemap.xml\n`,
    );
  });

  it('lists every HTML page in the sitemap, with the newest changelog date as lastmod', () => {
    const xml = String(pages.get('/sitemap.xml')!.body);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBe(true);
    const newest = model.changelog.entries
      .map((e) => e.date)
      .sort()
      .at(-1)!;
    const urls = [...xml.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod><\/url>/g)].map((m) => [m[1], m[2]]);
    expect(urls).toEqual(HTML_PATHS.map((path) => [BASE + path, newest]));
  });

  it('escapes a base URL’s markup characters in the sitemap', () => {
    const odd = new Map(renderPages(model, { publicBaseUrl: "https://x.example/a&b'c", digest: nodeCodec.digest }));
    expect(String(odd.get('/sitemap.xml')!.body)).toContain('<loc>https://x.example/a&amp;b&#39;c/</loc>');
  });

  it('rejects a base URL that is not absolute http(s)', () => {
    expect(() => renderPages(model, { publicBaseUrl: 'catalog.example', digest: nodeCodec.digest })).toThrow(/not an absolute URL/);
    expect(() => normalizeBaseUrl('ftp://x.example')).toThrow(/http or https/);
    expect(() => normalizeBaseUrl('https://x.example/?q=1')).toThrow(/no query/);
    expect(normalizeBaseUrl('https://x.example/sub/')).toBe('https://x.example/sub');
  });
});

describe('error pages', () => {
  const links = shellLinks(shellAssets(nodeCodec.digest));

  it('link the base stylesheet and the icon the pages link, not the course colours (they show no content)', () => {
    const root = fromHtml(renderNotFoundPage(links));
    expect(selectAll('link[rel=stylesheet]', root).map((l) => attr(l, 'href'))).toEqual([onlyPath(hashed('site', 'css'))]);
    expect(attr(select('link[rel=icon]', root), 'href')).toBe(onlyPath(hashed('favicon', 'svg')));
    const given = { stylesheets: ['/assets/site.given.css'], icon: '/assets/favicon.given.svg' };
    for (const out of [renderNotFoundPage(given), renderTooManyRequestsPage(given, refusal(1)), renderServerErrorPage(given)]) {
      expect(attr(select('link[rel=stylesheet]', fromHtml(out)), 'href')).toBe('/assets/site.given.css');
    }
  });

  it('404 names what is missing and links home', () => {
    const root = fromHtml(renderNotFoundPage(links, 'course'));
    expect(text(root, 'h1')).toMatch(/no course/);
    expect(text(root, '.error-code')).toBe('404');
    expect(selectAll('a[href="/"]', root).length).toBeGreaterThan(0);
    expect(text(fromHtml(renderNotFoundPage(links)), 'title')).toBe('Page not found · Syllabus');
  });

  it('429 tells when to retry, in whole seconds', () => {
    const root = fromHtml(renderTooManyRequestsPage(links, refusal(2.2)));
    expect(text(root, '.error-code')).toBe('429');
    expect(text(root, '[data-retry-after]')).toBe('3 seconds');
    expect(text(fromHtml(renderTooManyRequestsPage(links, refusal(Number.NaN))), '[data-retry-after]')).toBe('1 second');
  });

  it('429 names the budget that ran out, the larger ones and how, and links the documentation', () => {
    const root = fromHtml(renderTooManyRequestsPage(links, refusal(5)));
    expect(text(root, '[data-budget=read]')).toMatch(/30 requests per 60 seconds .*an anonymous client/s);
    expect(selectAll('li[data-client-kind]', root).map((li) => attr(li, 'dataPolicy'))).toEqual(['120;w=60', '480;w=60']);
    expect(attr(select('a[data-documentation]', root), 'href')).toBe(RATE_LIMITS_DOC_URL);
    // A budget no kind exceeds offers none.
    const verified = tooManyRequestsBody({ ...REFUSAL, kind: 'verified', limit: 480 });
    expect(selectAll('li[data-client-kind]', fromHtml(renderTooManyRequestsPage(links, verified)))).toEqual([]);
  });

  it('500 shows the request id escaped and no details', () => {
    const out = renderServerErrorPage(links, '<b>id-1</b>');
    expect(out).toContain('&lt;b&gt;id-1&lt;/b&gt;');
    expect(text(fromHtml(out), '.error-code')).toBe('500');
    expect(renderServerErrorPage(links)).not.toContain('request id');
  });
});
