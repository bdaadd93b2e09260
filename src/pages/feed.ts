/**
 * `/changelog.atom`: the changelog as an Atom 1.0 feed (RFC 4287), generated with the `feed` package.
 * Entry ids are `tag:` URIs (RFC 4151) built from the site's host name, the entry's date and its id, so they
 * never change when an entry is edited; `updated` is the entry's date (midnight UTC) and the feed's `updated`
 * is the newest entry's, so the body (and its ETag) only changes when the changelog does.
 */
import { Feed } from 'feed';
import type { Changelog } from '../schemas/types.generated.js';
import { normalizeBaseUrl } from './base-url.js';
import { escapeHtml, parseDate } from './html.js';
import { bodyHtml } from './markdown.js';

import { FEED_PATH } from './paths.js';

export { FEED_PATH };
/** Its `Content-Type`. */
export const FEED_TYPE = 'application/atom+xml; charset=utf-8';

/** Text for an XML CDATA section: `]]>` would end it early, and in HTML `]]&gt;` reads the same. */
function cdataSafe(text: string): string {
  return text.replaceAll(']]>', ']]&gt;');
}

/**
 * The stable Atom id of a changelog entry, e.g. `tag:catalog.syllabus.dev,2026-03-01:changelog/py-basics-2026-03-01`.
 * @param host host name of the public base URL (no port: RFC 4151 authorities are DNS names).
 */
export function entryTagUri(host: string, entry: { id: string; date: string }): string {
  return `tag:${host},${entry.date}:changelog/${entry.id}`;
}

/**
 * Renders the Atom document.
 * @param publicBaseUrl absolute `http(s)` base URL of the site, no trailing slash.
 * @throws {TypeError} when `publicBaseUrl` is not an absolute http(s) URL.
 */
export function renderAtomFeed(changelog: Changelog, publicBaseUrl: string): string {
  const origin = normalizeBaseUrl(publicBaseUrl);
  const host = new URL(origin).hostname;
  const newest = changelog.entries[0];
  const feed = new Feed({
    id: `${origin}${FEED_PATH}`,
    title: 'Syllabus changelog',
    description: 'New courses, classes, lessons and features on Syllabus.',
    link: `${origin}/changelog`,
    feed: `${origin}${FEED_PATH}`,
    language: 'en',
    // A fixed instant when empty: the body must not depend on the build time.
    updated: newest ? parseDate(newest.date) : new Date(0),
    generator: false,
    author: { name: 'Syllabus', link: `${origin}/` },
  });
  for (const entry of changelog.entries) {
    feed.addItem({
      id: entryTagUri(host, entry),
      title: cdataSafe(escapeHtml(entry.title)),
      link: `${origin}/changelog#${entry.id}`,
      date: parseDate(entry.date),
      description: cdataSafe(escapeHtml(entry.blurb)),
      content: cdataSafe(bodyHtml(entry).value),
      category: [{ term: entry.kind }],
    });
  }
  return feed.atom1();
}
