/**
 * The web pages of one content model, rendered once per index build like the JSON bodies: the course map,
 * one page per course, the changelog, its Atom feed, the roadmap, the site's stylesheets and icon, `robots.txt`
 * and the sitemap. The index stores them by path, computes ETags and compressed bodies, and serves them like any
 * representation, with the `Cache-Control` the route table gives each route.
 */
import type { ContentModel } from '../content/index.js';
import type { Course } from '../schemas/types.generated.js';
import { CHANGELOG_PATH, coursePath, FAVICON_PATH, HOME_PATH, ROADMAP_PATH, ROBOTS_PATH, SITEMAP_PATH } from './paths.js';
import { ASSET_HEADERS, HTML_TYPE, PAGE_HEADERS } from './headers.js';
import { renderChangelogPage } from './changelog.js';
import { type RenderContext } from './common.js';
import { courseOldIdsKey, renderCoursePage } from './course.js';
import { courseStylesheet, shellAssets, shellLinks, type Digest } from './assets.js';
import { FEED_PATH, FEED_TYPE, renderAtomFeed } from './feed.js';
import { renderHomePage } from './home.js';
import { renderRoadmapPage } from './roadmap.js';
import { renderRobotsTxt, ROBOTS_TYPE } from './robots.js';
import { renderSitemap, SITEMAP_TYPE, siteLastModified } from './sitemap.js';
import { normalizeBaseUrl } from './base-url.js';
import { oldIdsByCurrent, oldIdsKey } from './old-ids.js';

export { renderNotFoundPage, renderServerErrorPage, renderTooManyRequestsPage } from './errors.js';
export { normalizeBaseUrl } from './base-url.js';

/** One rendered resource, before the index adds its ETag and compressed forms. */
export interface PageEntry {
  /** `Content-Type` header value. */
  contentType: string;
  /** The identity body (UTF-8 text or bytes). */
  body: string | Uint8Array;
  /** Headers to send with it (security headers), already formatted. */
  headers: Readonly<Record<string, string>>;
}

/** Options of {@link renderPages}. */
export interface RenderPagesOptions {
  /** Absolute http(s) base URL the site is served at (PUBLIC_BASE_URL), e.g. `https://catalog.syllabus.dev`. */
  publicBaseUrl: string;
  /** SHA-256 of some bytes, base64url (the index's codec): names the stylesheets and icon by their bytes. */
  digest: Digest;
}

/**
 * A page or site file to be rendered: `render` makes its body from `inputs` alone (parts of the model, compared by
 * identity, and strings), so the index renders it again only when they changed (`DerivedSource` in
 * `src/index/build.ts`).
 */
export interface PageSource {
  /** `Content-Type` header value. */
  contentType: string;
  /** Headers to send with it (security headers), already formatted. */
  headers: Readonly<Record<string, string>>;
  /** What the body is made from. */
  inputs: readonly unknown[];
  /** The identity body. */
  render: () => string;
}

/**
 * Every page and site file of a model, keyed by request path, not yet rendered: `/`, `/courses/{id}` for each
 * course, `/changelog`, `/changelog.atom`, `/roadmap`, `/assets/site.<hash>.css`, `/assets/courses.<hash>.css`
 * (when there are courses), `/assets/favicon.<hash>.svg`, `/favicon.ico`, `/robots.txt` and `/sitemap.xml`.
 * The same model and options always give the same bytes (no clock, no randomness), so ETags are stable.
 * @throws {TypeError} when `publicBaseUrl` is not an absolute http(s) URL.
 */
export function pageSources(model: ContentModel, opts: RenderPagesOptions): [string, PageSource][] {
  const publicBaseUrl = normalizeBaseUrl(opts.publicBaseUrl);
  const shell = shellAssets(opts.digest);
  // New course colours make a new stylesheet URL, so browsers fetch them at once. Named by the stylesheets' own
  // bytes, not the content revision: a page's bytes then change only when what it shows changes, and a reload
  // recompresses only those pages. The base rules, the same for every catalog, keep their URL (and browsers their
  // cached copy) across content changes.
  const colours = courseStylesheet(model.catalog.courses, opts.digest);
  const links = shellLinks(shell, colours);
  const ctx: RenderContext = { publicBaseUrl, links };
  // Every page shows the base URL and the asset links: one string stands for both among a page's inputs.
  const shared = [publicBaseUrl, ...links.stylesheets, links.icon].join(' ');
  const page = (inputs: readonly unknown[], render: () => string): PageSource => ({
    contentType: HTML_TYPE,
    headers: PAGE_HEADERS,
    inputs: [...inputs, shared],
    render,
  });
  // Old ids of renamed classes, lessons and entries stay anchor targets on their pages; a page is rendered again
  // when the old ids pointing into it change (one string among its inputs).
  const lessonOld = oldIdsByCurrent(model.aliases.lessons);
  const entryOld = oldIdsByCurrent(model.aliases.changelog);
  const coursePage = (course: Course): [string, PageSource] => {
    const old = { classes: oldIdsByCurrent(model.aliases.classes.get(course.id)), lessons: lessonOld };
    return [coursePath(course.id), page([course, courseOldIdsKey(course, old)], () => renderCoursePage(course, ctx, old))];
  };
  const entryKey = oldIdsKey(
    entryOld,
    model.changelog.entries.map((e) => e.id),
  );
  const htmlPages: [string, PageSource][] = [
    [HOME_PATH, page([model.catalog], () => renderHomePage(model.catalog, ctx))],
    ...model.catalog.courses.map(coursePage),
    [CHANGELOG_PATH, page([model.changelog, entryKey], () => renderChangelogPage(model.changelog, ctx, entryOld))],
    [ROADMAP_PATH, page([model.roadmap, model.changelog], () => renderRoadmapPage(model.roadmap, model.changelog, ctx))],
  ];
  const pagePaths = htmlPages.map(([path]) => path);
  const lastModified = siteLastModified(model.changelog);
  const asset = (contentType: string, inputs: readonly unknown[], render: () => string): PageSource => ({
    contentType,
    headers: ASSET_HEADERS,
    inputs,
    render,
  });
  const file = (a: { contentType: string; body: string }): PageSource => asset(a.contentType, [a.body], () => a.body);
  return [
    ...htmlPages,
    [FEED_PATH, asset(FEED_TYPE, [model.changelog, publicBaseUrl], () => renderAtomFeed(model.changelog, publicBaseUrl))],
    ...[shell.stylesheet, shell.icon, ...(colours ? [colours] : [])].map((a): [string, PageSource] => [a.path, file(a)]),
    // The icon's bytes themselves, not a redirect to its hashed name: one round trip, and no permanently cached
    // redirect left pointing at a name a later release no longer serves.
    [FAVICON_PATH, file(shell.icon)],
    [ROBOTS_PATH, asset(ROBOTS_TYPE, [publicBaseUrl], () => renderRobotsTxt(publicBaseUrl))],
    [
      SITEMAP_PATH,
      asset(SITEMAP_TYPE, [publicBaseUrl, pagePaths.join(' '), lastModified], () => renderSitemap(publicBaseUrl, pagePaths, lastModified)),
    ],
  ];
}

/**
 * Renders every page and site file of a model ({@link pageSources}, each rendered now).
 * @throws {TypeError} when `publicBaseUrl` is not an absolute http(s) URL.
 */
export function renderPages(model: ContentModel, opts: RenderPagesOptions): [string, PageEntry][] {
  return pageSources(model, opts).map(([path, source]): [string, PageEntry] => [
    path,
    { contentType: source.contentType, headers: source.headers, body: source.render() },
  ]);
}
