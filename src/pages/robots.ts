/**
 * `/robots.txt` (RFC 9309): every path may be crawled (the fair-use budgets still apply to crawlers), and the
 * sitemap's absolute URL (the `Sitemap` line must be absolute, so it comes from PUBLIC_BASE_URL).
 */
import { SITEMAP_PATH } from './paths.js';

/** Its `Content-Type`. */
export const ROBOTS_TYPE = 'text/plain; charset=utf-8';

/**
 * Renders `robots.txt`.
 * @param publicBaseUrl the normalised public base URL (no trailing slash).
 */
export function renderRobotsTxt(publicBaseUrl: string): string {
  return [
    '# Syllabus catalog: every page and API resource may be crawled.',
    'User-agent: *',
    'Allow: /',
    '',
    `Sitemap: ${publicBaseUrl}${SITEMAP_PATH}`,
    '',
  ].join('\n');
}
