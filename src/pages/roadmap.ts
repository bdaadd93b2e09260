/**
 * `/roadmap`: stages in order with their label and note; items with title, theme and Markdown body. A shipped
 * item links to the changelog entry that shipped it (`/changelog#<id>`).
 */
import type { Changelog, Roadmap, RoadmapItem } from '../schemas/types.generated.js';
import type { RenderContext } from './common.js';
import { formatDate, html, type SafeHtml } from './html.js';
import { page } from './layout.js';
import { API_PATHS, CHANGELOG_PATH, ROADMAP_PATH } from './paths.js';
import { bodyHtml } from './markdown.js';

function itemCard(item: RoadmapItem, changelog: Changelog): SafeHtml {
  let shipped: SafeHtml | '' = '';
  if (item.shipped !== undefined) {
    const entry = changelog.entries.find((e) => e.id === item.shipped);
    // The validator guarantees the entry exists; without it the link would still name the id.
    const label = entry ? html`${entry.title}, <time datetime="${entry.date}">${formatDate(entry.date)}</time>` : item.shipped;
    shipped = html`<p class="shipped-in">Shipped: <a href="${CHANGELOG_PATH}#${item.shipped}" data-shipped="${item.shipped}">${label}</a></p>`;
  }
  return html`<li class="item" id="item-${item.id}" data-item="${item.id}">
    <h3>${item.title}</h3>
    <span class="chip" data-theme="${item.theme}"><span class="visually-hidden">Theme: </span>${item.theme}</span>
    <div class="prose">${bodyHtml(item)}</div>
    ${shipped}
  </li>`;
}

/** Renders the roadmap page; `changelog` supplies the titles and dates of shipped items' entries. */
export function renderRoadmapPage(roadmap: Roadmap, changelog: Changelog, ctx: RenderContext): string {
  const stages = roadmap.stages.map(
    (stage) =>
      html`<section class="stage stage-${stage.key}" id="stage-${stage.key}" data-stage="${stage.key}" aria-labelledby="stage-${stage.key}-title">
        <div class="stage-head">
          <h2 id="stage-${stage.key}-title">${stage.label}</h2>
          <p>${stage.note}</p>
        </div>
        <ul class="items">
          ${stage.items.map((item) => itemCard(item, changelog))}
        </ul>
      </section>`,
  );
  const body = html`<div class="intro">
      <h1>Roadmap</h1>
      <p class="lead">What we have shipped, what we are building, what comes next and what we are still exploring.</p>
    </div>
    ${stages.length > 0 ? stages : html`<p>The roadmap is empty for now.</p>`}`;
  return page({
    title: 'Roadmap',
    description: 'What Syllabus has shipped, is building, will build next and is exploring.',
    path: ROADMAP_PATH,
    publicBaseUrl: ctx.publicBaseUrl,
    links: ctx.links,
    apiPath: API_PATHS.roadmap,
    alternates: [{ type: 'application/json', href: API_PATHS.roadmap, title: 'Roadmap (JSON)' }],
    body,
  });
}
