/**
 * `/sitemap.xml` (sitemaps.org protocol 0.9): the absolute URL of every HTML page, the same list the index
 * serves, with the date it last changed as far as the content tells. Rendered at index build time like the pages,
 * so it gets an ETag and 304s, and its bytes change only when a page is added or removed or the date moves.
 */
import type { Changelog } from '../schemas/types.generated.js';
import { escapeHtml } from './html.js';

/** Its `Content-Type` (RFC 7303). */
export const SITEMAP_TYPE = 'application/xml; charset=utf-8';

/** The sitemaps.org 0.9 namespace. */
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/**
 * The `<lastmod>` of every page: the date of the newest changelog entry (`YYYY-MM-DD`, a W3C Datetime at day
 * precision), or `undefined` when the changelog is empty.
 *
 * It is the only date the content model has. Courses, classes, lessons and roadmap items carry none; a changelog
 * entry names no course (its `kind` says what sort of change, not which course), so no course page has a date of
 * its own; the revision is a commit id or a digest of the files, not a time. Every change people should notice is
 * announced in the changelog, so its newest date is the best "last significant change" the model offers for the
 * course map, each course page, the changelog itself and the roadmap (whose shipped items link changelog
 * entries). Not the build time: the body would change at every reload and the date would claim changes that did
 * not happen. With no entry the optional `<lastmod>` is left out rather than invented. A per-course date (for
 * example the commit date of a course's files) would need the content layer to record it in the model.
 */
export function siteLastModified(changelog: Changelog): string | undefined {
  let newest: string | undefined;
  for (const { date } of changelog.entries) if (newest === undefined || date > newest) newest = date;
  return newest;
}

/**
 * Renders the sitemap.
 * @param publicBaseUrl the normalised public base URL (no trailing slash).
 * @param paths the pages' paths, in the order to list them (at most 50,000: the protocol's limit per file, far
 *   above a catalog's number of courses).
 * @param lastmod their `<lastmod>`, see {@link siteLastModified}.
 */
export function renderSitemap(publicBaseUrl: string, paths: readonly string[], lastmod: string | undefined): string {
  // escapeHtml's entities (&amp; &lt; &gt; &quot; &#39;) are the escapes the protocol asks of a <loc>.
  const modified = lastmod === undefined ? '' : `<lastmod>${lastmod}</lastmod>`;
  const urls = paths.map((path) => `  <url><loc>${escapeHtml(publicBaseUrl + path)}</loc>${modified}</url>\n`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NS}">\n${urls.join('')}</urlset>\n`;
}
