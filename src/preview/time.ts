/**
 * Which instant the preview shows the content at, and what its pages then mark: by default now, as production; with
 * `--at` an instant (time runs on from there); with `--scheduled` never before the newest changelog entry's date.
 * The server inside runs on the clock made here, so everything it serves (API, pages, feed) is the content as
 * published at that instant (`publishedAt`), and the pages mark what is not published yet by the system's clock.
 */
import { publishedAt, utcMidnight, type ContentModel } from '../content/index.js';
import type { PageMarks, ScheduledMarks } from './page-marks.js';

/**
 * Which content the preview shows: as published now (the default, as production serves it), as it will be published
 * at an instant (`at`; time runs on from there), or with every scheduled entry published (`scheduled`).
 */
export type PreviewTime = { kind: 'now' } | { kind: 'at'; at: Date } | { kind: 'scheduled' };

/**
 * The server's clock for `time`, or undefined for the system's: `at` runs from that instant on; `scheduled` is never
 * before 00:00 UTC of the latest entry's date (`latest()`'s changelog is newest first), so every entry is published.
 */
export function previewClock(time: PreviewTime, latest: () => ContentModel | undefined): (() => Date) | undefined {
  if (time.kind === 'now') return undefined;
  if (time.kind === 'at') {
    const offset = time.at.getTime() - Date.now();
    return () => new Date(Date.now() + offset);
  }
  return () => {
    const newest = latest()?.changelog.entries[0]?.date;
    return new Date(Math.max(Date.now(), newest === undefined ? 0 : utcMidnight(newest).getTime()));
  };
}

/**
 * What the pages get besides the app's: with another instant than now, a banner naming it and a mark on each entry
 * the server publishes at its clock's instant but not yet at the system's (and each roadmap item shipped by one).
 */
export function pageMarks(time: PreviewTime, model: ContentModel | undefined, clock: (() => Date) | undefined): PageMarks {
  if (clock === undefined) return { scheduled: undefined, banner: undefined };
  const instant = clock();
  const banner =
    time.kind === 'scheduled'
      ? 'Preview with every scheduled entry published: each is marked with its date.'
      : `Preview of the content as published at ${instant.toISOString()}: what is not published yet is marked with its date.`;
  return { scheduled: model === undefined ? undefined : scheduledMarks(model, instant), banner };
}

function scheduledMarks(model: ContentModel, instant: Date): ScheduledMarks {
  const now = new Set(publishedAt(model, new Date()).model.changelog.entries.map((e) => e.id));
  const then = publishedAt(model, instant).model;
  const entries = new Map<string, string>();
  for (const entry of then.changelog.entries) if (!now.has(entry.id)) entries.set(entry.id, entry.date);
  const items = new Map<string, string>();
  for (const stage of then.roadmap.stages)
    for (const item of stage.items) {
      const date = item.shipped === undefined ? undefined : entries.get(item.shipped);
      if (date !== undefined) items.set(item.id, date);
    }
  return { entries, items };
}
