/**
 * What the preview adds to the app's pages before sending them (production's pages never carry any of it): its
 * stylesheet, a link from each lesson of a course page to the lesson's preview page, and, when it shows the content
 * at another instant than now, a banner saying which and a mark on each entry or roadmap item not published yet.
 *
 * The pages are the app's own output (`src/pages`): the elements are found by the attributes those templates give
 * them (`data-lesson`, `data-entry`, `data-item`, the `<main>` landmark), each id of the grammar `[a-z0-9-]`.
 */
import { escapeHtml, html } from '../pages/html.js';
import { MAIN_ID } from '../pages/layout.js';
import { lessonPagePath } from './lesson-page.js';
import { PREVIEW_PATHS } from './reload-script.js';

/** The content scheduled after now that the page shows: changelog entry id → its date, roadmap item id → its entry's date. */
export interface ScheduledMarks {
  entries: ReadonlyMap<string, string>;
  items: ReadonlyMap<string, string>;
}

/** What to add to every page; see the module comment. */
export interface PageMarks {
  /** Marks of what is not published yet, or undefined when the preview shows the content as published now. */
  scheduled: ScheduledMarks | undefined;
  /** The banner's text (e.g. "as published at …"), or undefined for none. */
  banner: string | undefined;
}

/** The preview's stylesheet (`PREVIEW_PATHS.stylesheet`): the lesson page's numbers and marks, the scheduled marks. */
export const PREVIEW_STYLESHEET = `/* Syllabus preview (development only) */
.preview-note, .preview-banner { font-size: .9rem; border: 1px dashed currentColor; border-radius: 6px; padding: .4rem .75rem; }
.preview-banner { margin: 1rem 0; font-weight: 600; }
.step-number { display: block; font-size: .8rem; font-weight: 700; letter-spacing: .06em; text-transform: uppercase; color: var(--course-ink, inherit); }
.preview-mark { background: #fff1ef; color: #8a0010; border: 2px solid #c4000f; border-radius: 6px; padding: .5rem .75rem; }
.preview-swallowed { outline: 3px solid #c4000f; }
.preview-scheduled { display: inline-block; font-size: .85rem; font-weight: 700; background: #fff6d6; color: #5c4400; border: 1px solid #c99a00; border-radius: 6px; padding: 0 .5rem; margin: .25rem 0; }
@media (prefers-color-scheme: dark) {
  .preview-mark { background: #3a0a0d; color: #ffd7d3; }
  .preview-scheduled { background: #3b3000; color: #ffe9a6; }
}
`;

const LESSON_TITLE = /(<li class="lesson"[^>]*\sdata-lesson="([a-z0-9-]+)"[^>]*>(?:(?!<\/li>)[\s\S])*?<h3>)((?:(?!<\/h3>)[\s\S])*)(<\/h3>)/g;
const ENTRY = /<li class="entry[^"]*"[^>]*\sdata-entry="([a-z0-9-]+)"[^>]*>/g;
const ITEM = /<li class="item"[^>]*\sdata-item="([a-z0-9-]+)"[^>]*>/g;
const MAIN = `<main id="${MAIN_ID}"`;

/** `page` (an HTML document of the app) with the preview's additions; see the module comment. */
export function markPage(page: string, marks: PageMarks): string {
  let out = addStylesheet(page).replace(LESSON_TITLE, (_all, start: string, id: string, title: string, end: string) => {
    // Not an html`` template: its formatter would close the element it opens here.
    return `${start}<a href="${escapeHtml(lessonPagePath(id))}" data-preview-lesson="${escapeHtml(id)}">${title}</a>${end}`;
  });
  const { scheduled, banner } = marks;
  if (scheduled !== undefined) {
    out = out
      .replace(ENTRY, (tag: string, id: string) => tag + scheduledMark(scheduled.entries.get(id), 'published'))
      .replace(ITEM, (tag: string, id: string) => tag + scheduledMark(scheduled.items.get(id), 'shipped'));
  }
  return banner === undefined ? out : withBanner(out, banner);
}

/** `page` (a document of the preview or the app) with the banner at the start of its `<main>`. */
export function withBanner(page: string, banner: string): string {
  const main = page.indexOf(MAIN);
  const at = main === -1 ? -1 : page.indexOf('>', main) + 1;
  return at <= 0 ? page : page.slice(0, at) + html`<p class="preview-banner" role="note">${banner}</p>`.value + page.slice(at);
}

function scheduledMark(date: string | undefined, what: 'published' | 'shipped'): string {
  if (date === undefined) return '';
  const label = what === 'published' ? `Scheduled: published on ${date}` : `Scheduled: shipped on ${date}`;
  return html`<p class="preview-scheduled" data-scheduled="${date}">${label}</p>`.value;
}

function addStylesheet(page: string): string {
  const at = page.indexOf('</head>');
  return at === -1 ? page : `${page.slice(0, at)}${html`<link rel="stylesheet" href="${PREVIEW_PATHS.stylesheet}" />`.value}${page.slice(at)}`;
}
