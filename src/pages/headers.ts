/**
 * Response headers of every page and site asset. The Content-Security-Policy is strict (CSP Level 3): no
 * script at all, styles only from this origin (so no inline `style` attributes or elements), images from this
 * origin or `data:`; pages cannot be framed, and forms and `<base>` are refused.
 */

/** The pages' Content-Security-Policy. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers for HTML pages, including error pages: CSP, `nosniff` and a referrer policy that keeps paths private. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
});

/** Headers for the site's other files (stylesheets, icon, feed, robots.txt, sitemap): never sniffed as another type. */
export const ASSET_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  // An SVG or XML opened directly is a document too: keep it script-free.
  'Content-Security-Policy': "default-src 'none'; style-src 'self'; img-src 'self' data:",
});

/** `Content-Type` of HTML pages. */
export const HTML_TYPE = 'text/html; charset=utf-8';
