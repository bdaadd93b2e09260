/**
 * The page shell shared by every page: document head (viewport, colour schemes, stylesheet, alternates),
 * skip link, header with the main navigation, `<main>` landmark and footer.
 */
import type { ShellLinks } from './assets.js';
import { html, type Interpolation, type SafeHtml } from './html.js';

import { CHANGELOG_PATH, DOCS_PATH, FEED_PATH, HOME_PATH, isCoursePagePath, ROADMAP_PATH } from './paths.js';

/** The element id of every page's `<main>` (the skip link's target): no other element of a page may take it. */
export const MAIN_ID = 'main';

/** A `<link rel="alternate">` of a page: the same data in another format. */
export interface Alternate {
  type: 'application/json' | 'application/atom+xml';
  href: string;
  title: string;
}

/** What a page tells the shell. */
export interface PageOptions {
  /** Document title, without the site name. */
  title: string;
  /** One-sentence description for `<meta name="description">`. */
  description: string;
  /** The page's own path (for `aria-current` and the canonical URL). */
  path: string;
  /** Absolute base URL of the site (no trailing slash), for the canonical link; omitted when unknown. */
  publicBaseUrl?: string;
  /** The stylesheets and icon to link, under their content-hashed names (a new build's colours: a new URL). */
  links: ShellLinks;
  alternates?: readonly Alternate[];
  /** The API resource this page shows, linked in the footer for people. */
  apiPath?: string;
  body: Interpolation;
}

const NAV = [
  { href: HOME_PATH, label: 'Courses' },
  { href: CHANGELOG_PATH, label: 'Changelog' },
  { href: ROADMAP_PATH, label: 'Roadmap' },
  { href: DOCS_PATH, label: 'API' },
] as const;

function isCurrent(navHref: string, path: string): boolean {
  return navHref === HOME_PATH ? path === HOME_PATH || isCoursePagePath(path) : path === navHref;
}

/** A complete HTML document. */
export function page(o: PageOptions): string {
  const nav = NAV.map(
    ({ href, label }) => html`<li><a href="${href}" ${isCurrent(href, o.path) ? html` aria-current="page"` : ''}>${label}</a></li>`,
  );
  const alternates = (o.alternates ?? []).map((a) => html` <link rel="alternate" type="${a.type}" href="${a.href}" title="${a.title}" />`);
  const canonical = o.publicBaseUrl ? html` <link rel="canonical" href="${o.publicBaseUrl + o.path}" />` : '';
  const doc: SafeHtml = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>${o.title} · Syllabus</title>
        <meta name="description" content="${o.description}" />
        ${o.links.stylesheets.map((href) => html`<link rel="stylesheet" href="${href}" />`)}
        <link rel="icon" href="${o.links.icon}" type="image/svg+xml" />
        ${canonical}${alternates}
      </head>
      <body>
        <a class="skip" href="#${MAIN_ID}">Skip to content</a>
        <header class="site-header">
          <div class="wrap">
            <a class="brand" href="${HOME_PATH}"><img src="${o.links.icon}" alt="" width="26" height="26" />Syllabus</a>
            <nav class="site-nav" aria-label="Main">
              <ul>
                ${nav}
              </ul>
            </nav>
          </div>
        </header>
        <main id="${MAIN_ID}" class="wrap">${o.body}</main>
        <footer class="site-footer">
          <div class="wrap">
            <nav aria-label="Footer">
              <ul>
                <li><a href="${HOME_PATH}">Courses</a></li>
                <li><a href="${CHANGELOG_PATH}">Changelog</a></li>
                <li><a href="${FEED_PATH}">Atom feed</a></li>
                <li><a href="${ROADMAP_PATH}">Roadmap</a></li>
                <li><a href="${DOCS_PATH}">API reference</a></li>
                ${o.apiPath ? html` <li><a href="${o.apiPath}">This page as JSON</a></li>` : ''}
              </ul>
            </nav>
          </div>
        </footer>
      </body>
    </html> `;
  return doc.value;
}
