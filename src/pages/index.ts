/**
 * The web pages of one content model, rendered once per index build like the JSON bodies: the course map,
 * one page per course, the changelog, its Atom feed, the roadmap, and the site's stylesheet and icon.
 * The index stores them by path, computes ETags and compressed bodies, and serves them like any representation.
 */
import type { ContentModel } from '../content/model.js';
import { CHANGELOG_PATH, coursePath, HOME_PATH, ROADMAP_PATH } from './paths.js';
import { ASSET_HEADERS, HTML_TYPE, PAGE_HEADERS } from './headers.js';
import { renderChangelogPage } from './changelog.js';
import { type RenderContext } from './common.js';
import { renderCoursePage } from './course.js';
import { FAVICON_SVG } from './assets.js';
import { FEED_PATH, FEED_TYPE, renderAtomFeed } from './feed.js';
import { renderHomePage } from './home.js';
import { ICON_PATH, STYLESHEET_PATH } from './layout.js';
import { renderRoadmapPage } from './roadmap.js';
import { renderStylesheet } from './styles.js';
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
  /** SHA-256 of some bytes, base64url (the index's codec): versions the stylesheet's URL by its bytes. */
  digest: (body: Uint8Array) => string;
}

/**
 * Renders every page and site asset of a model, keyed by request path: `/`, `/courses/{id}` for each course,
 * `/changelog`, `/changelog.atom`, `/roadmap`, `/assets/site.css`, `/assets/favicon.svg`.
 * Pure: the same model and options always give the same bytes (no clock, no randomness), so ETags are stable.
 * @throws {TypeError} when `publicBaseUrl` is not an absolute http(s) URL.
 */
export function renderPages(model: ContentModel, opts: RenderPagesOptions): [string, PageEntry][] {
  const publicBaseUrl = normalizeBaseUrl(opts.publicBaseUrl);
  const stylesheet = renderStylesheet(model.catalog.courses);
  const ctx: RenderContext = {
    publicBaseUrl,
    // New course colours make a new stylesheet URL, so browsers fetch them at once. Versioned by the stylesheet's
    // own bytes, not the content revision: a page's bytes then change only when what it shows changes, and a
    // reload recompresses only those pages.
    stylesheetVersion: opts.digest(new TextEncoder().encode(stylesheet)).slice(0, 12),
  };
  const htmlEntry = (body: string): PageEntry => ({ contentType: HTML_TYPE, body, headers: PAGE_HEADERS });
  const entries: [string, PageEntry][] = [
    [HOME_PATH, htmlEntry(renderHomePage(model.catalog, ctx))],
    ...model.catalog.courses.map((course): [string, PageEntry] => [coursePath(course.id), htmlEntry(renderCoursePage(course, ctx))]),
    [CHANGELOG_PATH, htmlEntry(renderChangelogPage(model.changelog, ctx))],
    [ROADMAP_PATH, htmlEntry(renderRoadmapPage(model.roadmap, model.changelog, ctx))],
    [FEED_PATH, { contentType: FEED_TYPE, body: renderAtomFeed(model.changelog, publicBaseUrl), headers: ASSET_HEADERS }],
    [STYLESHEET_PATH, { contentType: 'text/css; charset=utf-8', body: stylesheet, headers: ASSET_HEADERS }],
    [ICON_PATH, { contentType: 'image/svg+xml', body: FAVICON_SVG, headers: ASSET_HEADERS }],
  ];
  return entries;
}
