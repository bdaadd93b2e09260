/**
 * The preview's own pages: the error page (every problem of the latest load, each with its location and code
 * frame) and the page shown while the first load runs. Self-contained (the site's stylesheet may not exist yet),
 * everything interpolated is escaped, and the style is allowed by its hash, so the policy stays strict.
 *
 * The error page answers with status 500: the content as it stands cannot be served (production would keep
 * serving the last good version), and a link checker or `curl -f` run against the preview should fail too.
 */
import { createHash } from 'node:crypto';
import { count, html, SafeHtml } from '../pages/html.js';
import { HTML_TYPE } from '../pages/headers.js';
import { reloadScriptTag } from './reload-script.js';
import type { ShownProblem } from './state.js';

/** A response the preview makes itself. */
export interface PreviewResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const STYLE = `
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; padding: 2rem; background: #fff8f6; color: #1f1f1f; }
main { max-width: 60rem; margin: 0 auto; }
h1 { color: #a3000b; font-size: 1.6rem; }
section { background: #fff; border: 1px solid #e8c4bf; border-radius: 6px; padding: 0.5rem 1rem 1rem; margin: 1rem 0; }
h2 { font-size: 1rem; margin: 0.5rem 0; }
h2 code { font-weight: 600; }
pre { background: #1f1f1f; color: #f4f4f4; padding: 0.75rem 1rem; border-radius: 4px; overflow-x: auto; line-height: 1.4; }
.note { color: #4a4a4a; }
.message { white-space: pre-wrap; }
`;

/** Built outside the page's template, whose formatting would change the element's text and so its digest. */
const STYLE_ELEMENT = new SafeHtml(`<style>${STYLE}</style>`);

/** The pages' policy, with the style element allowed by its digest (so it must hold exactly `STYLE`), and the reload script and stream from this origin. */
const POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "script-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS = {
  'Content-Type': HTML_TYPE,
  'Cache-Control': 'no-store',
  'Content-Security-Policy': POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
} as const;

function document(title: string, version: string, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${title}</title>
        ${STYLE_ELEMENT}
      </head>
      <body>
        <main>${body}</main>
        ${reloadScriptTag(version)}
      </body>
    </html> `.value;
}

/**
 * The error page: every problem, in the order the loader reported them, as `path:line:column`, its message and its
 * code frame. Paths are relative to the content folder.
 */
export function errorPage(problems: readonly ShownProblem[], version: string): PreviewResponse {
  const files = new Set(problems.map((p) => p.path)).size;
  const body = html`<h1>The content has ${count(problems.length, 'problem')}</h1>
    <p class="note">
      In ${count(files, 'file')} of the content folder. Production would keep serving the last good version; the preview shows what to fix. Save a fix
      and this page reloads by itself.
    </p>
    ${problems.map(
      (p) =>
        html`<section>
          <h2><code>${p.path}:${p.line}:${p.column}</code></h2>
          <p class="message">${p.message}</p>
          ${p.frame === undefined ? '' : html`<pre><code>${p.frame}</code></pre>`}
        </section>`,
    )}`;
  return { status: 500, headers: { ...HEADERS }, body: document('Content problems: Syllabus preview', version, body) };
}

/** The page shown before the first load has finished; it reloads once the content is served or found invalid. */
export function startingPage(version: string): PreviewResponse {
  const body = html`<h1>Loading the content…</h1>
    <p class="note">This page reloads by itself when the preview is ready.</p>`;
  return { status: 503, headers: { ...HEADERS, 'Retry-After': '1' }, body: document('Starting: Syllabus preview', version, body) };
}
