/**
 * The web pages of one content model, rendered once per index build like the JSON bodies: the course map,
 * one page per course, the changelog, its Atom feed, the roadmap, the site's stylesheets and icon, `robots.txt`
 * and the sitemap. The index stores them by path, computes ETags and compressed bodies, and serves them like any
 * representation, with the `Cache-Control` the route table gives each route.
 */
import type { ContentModel } from '../content/model.js';
import { CHANGELOG_PATH, coursePath, FAVICON_PATH, HOME_PATH, ROADMAP_PATH, ROBOTS_PATH, SITEMAP_PATH } from './paths.js';
import { ASSET_HEADERS, HTML_TYPE, PAGE_HEADERS } from './headers.js';
import { renderChangelogPage } from './changelog.js';
import { type RenderContext } from './common.js';
import { renderCoursePage } from './course.js';
import { courseStylesheet, shellAssets, shellLinks, type Digest } from './assets.js';
import { FEED_PATH, FEED_TYPE, renderAtomFeed } from './feed.js';
import { renderHomePage } from './home.js';
import { renderRoadmapPage } from './roadmap.js';
import { renderRobotsTxt, ROBOTS_TYPE } from './robots.js';
import { renderSitemap, SITEMAP_TYPE, siteLastModified } from './sitemap.js';
import { normalizeBaseUrl } from './base-url.js';

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
 * Renders every page and site file of a model, keyed by request path: `/`, `/courses/{id}` for each course,
 * `/changelog`, `/changelog.atom`, `/roadmap`, `/assets/site.<hash>.css`, `/assets/courses.<hash>.css` (when there
 * are courses), `/assets/favicon.<hash>.svg`, `/favicon.ico`, `/robots.txt` and `/sitemap.xml`.
 * The same model and options always give the same bytes (no clock, no randomness), so ETags are stable.
 * @throws {TypeError} when `publicBaseUrl` is not an absolute http(s) URL.
 */
export function renderPages(model: ContentModel, opts: RenderPagesOptions): [string, PageEntry][] {
  const publicBaseUrl = normalizeBaseUrl(opts.publicBaseUrl);
  const shell = shellAssets(opts.digest);
  // New course colours make a new stylesheet URL, so browsers fetch them at once. Named by the stylesheets' own
  // bytes, not the content revision: a page's bytes then change only when what it shows changes, and a reload
  // recompresses only those pages. The base rules, the same for every catalog, keep their URL (and browsers their
  // cached copy) across content changes.
  const colours = courseStylesheet(model.catalog.courses, opts.digest);
  const ctx: RenderContext = { publicBaseUrl, links: shellLinks(shell, colours) };
  const htmlPages: [string, string][] = [
    [HOME_PATH, renderHomePage(model.catalog, ctx)],
    ...model.catalog.courses.map((course): [string, string] => [coursePath(course.id), renderCoursePage(course, ctx)]),
    [CHANGELOG_PATH, renderChangelogPage(model.changelog, ctx)],
    [ROADMAP_PATH, renderRoadmapPage(model.roadmap, model.changelog, ctx)],
  ];
  const sitemap = renderSitemap(
    publicBaseUrl,
    htmlPages.map(([path]) => path),
    siteLastModified(model.changelog),
  );
  const asset = (contentType: string, body: string): PageEntry => ({ contentType, body, headers: ASSET_HEADERS });
  return [
    ...htmlPages.map(([path, body]): [string, PageEntry] => [path, { contentType: HTML_TYPE, body, headers: PAGE_HEADERS }]),
    [FEED_PATH, asset(FEED_TYPE, renderAtomFeed(model.changelog, publicBaseUrl))],
    ...[shell.stylesheet, shell.icon, ...(colours ? [colours] : [])].map((a): [string, PageEntry] => [a.path, asset(a.contentType, a.body)]),
    // The icon's bytes themselves, not a redirect to its hashed name: one round trip, and no permanently cached
    // redirect left pointing at a name a later release no longer serves.
    [FAVICON_PATH, asset(shell.icon.contentType, shell.icon.body)],
    [ROBOTS_PATH, asset(ROBOTS_TYPE, renderRobotsTxt(publicBaseUrl))],
    [SITEMAP_PATH, asset(SITEMAP_TYPE, sitemap)],
  ];
}
