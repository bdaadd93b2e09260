/**
 * Scheduled publishing. The content model keeps every changelog entry, whatever its date (valid content is valid
 * on any day); what is served is the model *as published* at an instant: the entries dated on or before that
 * instant's UTC date, and the roadmap as it was then (a shipped item shows in its `until_shipped` stage until the
 * entry its `shipped` names is published). An entry dated `D` is published from `D`T00:00:00Z on.
 *
 * {@link publishedAt} is pure and reuses objects: the same model at two instants with the same published set gives
 * the very same view object (and an unchanged changelog, roadmap or alias table is the model's own), so a rebuild
 * of the index from an unchanged view costs a few map lookups (`buildIndex` tells unchanged inputs by identity).
 */
import type { Changelog, Roadmap, RoadmapItem, RoadmapStage } from '../schemas/types.generated.js';
import { dayNumber, utcMidnightMs } from '../contract/calendar.js';
import { changelogPath, roadmapItemPath } from './layout.js';
import { sameItems } from './memo.js';
import { byCodePoint } from '../contract/order.js';
import type { AliasTable, ContentModel, RoadmapTimeline } from './model.js';

/** The content as published at one instant, and when that changes. */
export interface PublishedView {
  /**
   * The model as published: `model` itself when nothing in it is dated after the instant; otherwise a model
   * without the scheduled entries (and without `roadmapTimeline`: a view is published, not to be published again).
   */
  readonly model: ContentModel;
  /** The next instant the published view changes (00:00 UTC of the earliest scheduled date), or `undefined`. */
  readonly next: Date | undefined;
}

/** The UTC calendar date of an instant, `YYYY-MM-DD`. @throws RangeError for an invalid date. */
export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** 00:00 UTC of a `YYYY-MM-DD` date. @throws Error when `date` is not a real calendar date. */
export function utcMidnight(date: string): Date {
  return new Date(utcMidnightMs(date));
}

/**
 * `model` as published at `at`: changelog entries dated after `at`'s UTC date are left out, with the changelog
 * aliases that lead to them; a shipped roadmap item whose entry is left out shows in its `until_shipped` stage
 * (default `building`), without `shipped`. Everything served derives from this view (API, pages, feed, sitemap,
 * deprecation headers), so a scheduled deprecation applies from its entry's date.
 * @param model the full model (as loaded), not a view
 */
export function publishedAt(model: ContentModel, at: Date): PublishedView {
  const today = utcDate(at);
  const all = model.changelog.entries;
  let next: string | undefined;
  let published = 0;
  for (const entry of all) {
    if (entry.date <= today) published++;
    else if (next === undefined || entry.date < next) next = entry.date;
  }
  if (next === undefined) return { model, next: undefined };

  const changelog = changelogView(model.changelog, published, today);
  const hidden = new Set(all.filter((e) => e.date > today).map((e) => e.id));
  const roadmap = model.roadmapTimeline ? roadmapView(model.roadmap, model.roadmapTimeline, hidden) : model.roadmap;
  const aliases = aliasView(model.aliases, hidden);
  const known = views.get(model);
  if (known && known.changelog === changelog && known.roadmap === roadmap && known.aliases === aliases)
    return { model: known.view, next: utcMidnight(next) };
  const view: ContentModel = { revision: model.revision, catalog: model.catalog, changelog, roadmap, aliases };
  views.set(model, { changelog, roadmap, aliases, view });
  return { model: view, next: utcMidnight(next) };
}

// The last view made of each part: for one part, the published set only grows with time, so its size (or the
// ids held back) tells two views apart. Weak: a view lives as long as what it was made from.
const views = new WeakMap<ContentModel, { changelog: Changelog; roadmap: Roadmap; aliases: AliasTable; view: ContentModel }>();
const changelogViews = new WeakMap<Changelog, { published: number; view: Changelog }>();
const roadmapViews = new WeakMap<Roadmap, { key: string; view: Roadmap }>();
const aliasViews = new WeakMap<AliasTable, { key: string; view: AliasTable }>();
/** A shipped item as shown before its entry is published (one object per item, so views share it). */
const movedItems = new WeakMap<RoadmapItem, RoadmapItem>();

function changelogView(changelog: Changelog, published: number, today: string): Changelog {
  const known = changelogViews.get(changelog);
  if (known?.published === published) return known.view;
  const view = { entries: changelog.entries.filter((e) => e.date <= today) };
  changelogViews.set(changelog, { published, view });
  return view;
}

function roadmapView(roadmap: Roadmap, timeline: RoadmapTimeline, hidden: ReadonlySet<string>): Roadmap {
  const pending = timeline.items.filter((item) => item.shipped !== undefined && hidden.has(item.shipped) && timeline.untilShipped.has(item));
  if (pending.length === 0) return roadmap;
  const key = pending.map((item) => item.id).join('\n');
  const known = roadmapViews.get(roadmap);
  if (known?.key === key) return known.view;
  const held = new Set(pending);
  const items = timeline.items.map((item) => (held.has(item) ? moved(item, timeline.untilShipped.get(item)!) : item));
  const stages: RoadmapStage[] = timeline.stages.flatMap((head) => {
    const list = items.filter((item) => item.stage === head.key);
    if (list.length === 0) return [];
    // A stage no item left or joined is the model's own object.
    const same = roadmap.stages.find((s) => s.key === head.key);
    return [same && sameItems(same.items, list) ? same : { ...head, items: list }];
  });
  const view = { stages };
  roadmapViews.set(roadmap, { key, view });
  return view;
}

function moved(item: RoadmapItem, stage: RoadmapItem['stage']): RoadmapItem {
  let view = movedItems.get(item);
  if (!view) {
    // `shipped` appears on shipped items only.
    view = { id: item.id, title: item.title, theme: item.theme, stage, body: item.body };
    movedItems.set(item, view);
  }
  return view;
}

function aliasView(aliases: AliasTable, hidden: ReadonlySet<string>): AliasTable {
  const gone = [...aliases.changelog].filter(([, id]) => hidden.has(id)).map(([alias]) => alias);
  if (gone.length === 0) return aliases;
  const key = gone.join('\n');
  const known = aliasViews.get(aliases);
  if (known?.key === key) return known.view;
  const changelog = new Map([...aliases.changelog].filter(([, id]) => !hidden.has(id)));
  const view = { ...aliases, changelog };
  aliasViews.set(aliases, { key, view });
  return view;
}

/** One scheduled change of the published content. */
export interface ScheduledChange {
  /** The date it is published (from 00:00 UTC), `YYYY-MM-DD`. */
  readonly date: string;
  /** The file, relative to the content folder. */
  readonly path: string;
  /** What happens then, e.g. `publishes` or `moves from building to shipped`. */
  readonly what: string;
}

/**
 * Every change scheduled after `at`'s UTC date, by date then path: each changelog entry dated later, and each
 * roadmap item that moves to shipped with one.
 */
export function scheduledChanges(model: ContentModel, at: Date): ScheduledChange[] {
  const today = utcDate(at);
  const out: ScheduledChange[] = [];
  const dates = new Map<string, string>();
  for (const entry of model.changelog.entries) {
    if (entry.date <= today) continue;
    dates.set(entry.id, entry.date);
    out.push({ date: entry.date, path: changelogPath(entry.id), what: 'publishes' });
  }
  for (const [item, stage] of model.roadmapTimeline?.untilShipped ?? []) {
    const date = item.shipped === undefined ? undefined : dates.get(item.shipped);
    if (date !== undefined) out.push({ date, path: roadmapItemPath(item.id), what: `moves from ${stage} to shipped` });
  }
  return out.sort((a, b) => byCodePoint(a.date, b.date) || byCodePoint(a.path, b.path));
}

/**
 * The lines `syllabus-content validate` prints about what is scheduled:
 * `scheduled: content/changelog/foo-2026-12-01.md publishes 2026-12-01 (in 5 days)`.
 * @param display a path relative to the content folder as the user should see it
 */
export function scheduledLines(model: ContentModel, at: Date, display: (rel: string) => string = (rel) => rel): string[] {
  const today = dayNumber(utcDate(at))!;
  return scheduledChanges(model, at).map((change) => {
    const days = dayNumber(change.date)! - today;
    return `scheduled: ${display(change.path)} ${change.what} ${change.date} (in ${days} day${days === 1 ? '' : 's'})`;
  });
}
