/**
 * `/changelog`: entries newest first, grouped by month, each with its date, kind, title, blurb, Markdown body
 * and the routes it deprecates; each entry's element id is the entry id, so `/changelog#<id>` lands on it, and
 * so does `/changelog#<old id>` for an entry renamed with `aliases` (`old-ids.ts`).
 */
import type { Changelog, ChangelogEntry } from '../schemas/types.generated.js';
import type { RenderContext } from './common.js';
import { formatDate, formatMonth, html, type SafeHtml } from './html.js';
import { MAIN_ID, page } from './layout.js';
import { API_PATHS, CHANGELOG_PATH, FEED_PATH } from './paths.js';
import { bodyHtml } from './markdown.js';
import { NO_OLD_IDS, oldAnchors, type OldIds } from './old-ids.js';

const KIND_LABELS: Readonly<Record<ChangelogEntry['kind'], string>> = {
  course: 'New course',
  class: 'New class',
  lesson: 'New lesson',
  feature: 'Feature',
};

const titleId = (entryId: string) => `${entryId}-title`;
const monthId = (month: string) => `month-${month}`;

function entryItem(entry: ChangelogEntry, old: OldIds, taken: ReadonlySet<string>): SafeHtml {
  const deprecations =
    entry.deprecates.length > 0
      ? html`<div class="deprecations">
          <h4>Deprecated API routes</h4>
          <ul>
            ${entry.deprecates.map(
              (d) => html`<li><code>${d.path}</code>: served until <time datetime="${d.sunset}">${formatDate(d.sunset)}</time></li>`,
            )}
          </ul>
        </div>`
      : '';
  return html`<li class="entry kind-${entry.kind}" id="${entry.id}" data-entry="${entry.id}">
    ${oldAnchors(old, entry.id, '', taken)}
    <article aria-labelledby="${titleId(entry.id)}">
      <p class="entry-meta">
        <time datetime="${entry.date}">${formatDate(entry.date)}</time> <span class="kind" data-kind="${entry.kind}">${KIND_LABELS[entry.kind]}</span>
      </p>
      <h3 id="${titleId(entry.id)}"><a href="#${entry.id}">${entry.title}</a></h3>
      <p class="blurb">${entry.blurb}</p>
      <div class="prose">${bodyHtml(entry)}</div>
      ${deprecations}
    </article>
  </li>`;
}

/** Groups entries (already newest first) by calendar month, keeping their order. */
function byMonth(entries: readonly ChangelogEntry[]): { month: string; entries: ChangelogEntry[] }[] {
  const groups: { month: string; entries: ChangelogEntry[] }[] = [];
  for (const entry of entries) {
    const month = entry.date.slice(0, 7);
    const last = groups.at(-1);
    if (last && last.month === month) last.entries.push(entry);
    else groups.push({ month, entries: [entry] });
  }
  return groups;
}

/**
 * Renders the changelog page; `changelog.entries` must already be newest first (as the model holds them).
 * @param old the entries' old ids, kept as anchor targets.
 */
export function renderChangelogPage(changelog: Changelog, ctx: RenderContext, old: OldIds = NO_OLD_IDS): string {
  const groups = byMonth(changelog.entries);
  const taken = new Set([MAIN_ID, ...groups.map((g) => monthId(g.month))]);
  for (const entry of changelog.entries) taken.add(entry.id).add(titleId(entry.id));
  const months = groups.map(
    (g) =>
      html`<section class="month" aria-labelledby="${monthId(g.month)}">
        <h2 id="${monthId(g.month)}">${formatMonth(`${g.month}-01`)}</h2>
        <ol class="entries">
          ${g.entries.map((entry) => entryItem(entry, old, taken))}
        </ol>
      </section>`,
  );
  const body = html`<div class="intro changelog-intro">
      <h1>Changelog</h1>
      <p class="lead">New courses, classes, lessons and features, newest first.</p>
      <p>
        <a class="feed-link" href="${FEED_PATH}"><span class="feed-icon" aria-hidden="true"></span>Follow with the Atom feed</a>
      </p>
    </div>
    ${months.length > 0 ? months : html`<p>Nothing has shipped yet.</p>`}`;
  return page({
    title: 'Changelog',
    description: 'What changed on Syllabus: new courses, classes, lessons and features, newest first.',
    path: CHANGELOG_PATH,
    publicBaseUrl: ctx.publicBaseUrl,
    links: ctx.links,
    apiPath: API_PATHS.changelog,
    alternates: [
      { type: 'application/atom+xml', href: FEED_PATH, title: 'Syllabus changelog (Atom)' },
      { type: 'application/json', href: API_PATHS.changelog, title: 'Changelog (JSON)' },
    ],
    body,
  });
}
