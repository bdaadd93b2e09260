/**
 * The preview's one script, added to every HTML page it serves (never by the production app): it opens the event
 * stream and reloads the page when the stream names another version than the one the page was rendered at (the
 * content was reloaded, became invalid, or became valid again; or the preview restarted).
 *
 * The paths are under `/__syllabus/`, which no route of the contract uses; production answers them 404.
 */
import { html, type SafeHtml } from '../pages/html.js';

/** The preview's own paths. */
export const PREVIEW_PATHS = {
  /** Server-sent events (`text/event-stream`): `hello` on connection, then `reload` or `problems`; data: the version. */
  events: '/__syllabus/events',
  /** The reload script. */
  script: '/__syllabus/reload.js',
  /** The stylesheet of what the preview adds to the pages (lesson pages, marks). */
  stylesheet: '/__syllabus/preview.css',
  /** Prefix of each lesson's page: `/__syllabus/lessons/<lesson-id>`. */
  lessons: '/__syllabus/lessons/',
} as const;

/** The names of the events the stream sends, each with the version as its data. */
export const EVENT_NAMES = ['hello', 'reload', 'problems'] as const;

/**
 * The script's source. A file, not inline, so the pages' Content-Security-Policy needs only `script-src 'self'`
 * added (and `connect-src 'self'` for the stream).
 */
export const RELOAD_SCRIPT = `// Syllabus preview (development only): reloads this page when the content changes.
(() => {
  const rendered = document.currentScript ? document.currentScript.dataset.version : undefined;
  const events = new EventSource(${JSON.stringify(PREVIEW_PATHS.events)});
  const check = (event) => {
    if (event.data === rendered) return;
    events.close();
    location.reload();
  };
  for (const name of ${JSON.stringify(EVENT_NAMES)}) events.addEventListener(name, check);
})();
`;

/** The element that loads the script, for a page rendered at `version`. */
export function reloadScriptTag(version: string): SafeHtml {
  return html`<script src="${PREVIEW_PATHS.script}" data-version="${version}"></script>`;
}

/**
 * `page` with the script tag before its last `</body>` (or at its end when it has none).
 * @param page an HTML document, as the app sent it.
 */
export function injectReloadScript(page: string, version: string): string {
  const tag = reloadScriptTag(version).value;
  const at = page.toLowerCase().lastIndexOf('</body>');
  return at === -1 ? page + tag : page.slice(0, at) + tag + page.slice(at);
}

/**
 * `policy` (a Content-Security-Policy) that also lets the page load the script and open the stream from its own
 * origin: `'self'` added to `script-src` and `connect-src`, or these directives added with `default-src`'s sources
 * and `'self'` when the policy restricts them through `default-src` only. Other directives are unchanged.
 */
export function allowReloadScript(policy: string): string {
  const directives = policy
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .filter((d) => d[0] !== undefined && d[0] !== '')
    .map(([name, ...sources]) => ({ name: name!.toLowerCase(), sources }));
  const fallback = directives.find((d) => d.name === 'default-src');
  if (fallback === undefined) return policy; // scripts and connections are not restricted
  for (const name of ['script-src', 'connect-src']) {
    let directive = directives.find((d) => d.name === name);
    if (directive === undefined) {
      directive = { name, sources: [...fallback.sources] };
      directives.push(directive);
    }
    directive.sources = directive.sources.filter((s) => s !== "'none'");
    if (!directive.sources.includes("'self'")) directive.sources.push("'self'");
  }
  return directives.map((d) => [d.name, ...d.sources].join(' ')).join('; ');
}
