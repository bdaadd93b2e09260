/**
 * What a change does to the public API, compared on the model's API shapes (`Course`, `Klass`, `Lesson`,
 * `ChangelogEntry`, `RoadmapItem` of `src/schemas/types.generated.ts`): resources added, removed, renamed (an id
 * gone whose alias now lives elsewhere), fields and counts changed, deprecations and sunsets, changelog entries and
 * roadmap items. {@link diffModels} computes it; {@link renderMarkdown} prints it for a pull request.
 */
import type { RoadmapItem } from '../schemas/types.generated.js';
import {
  brokenIds,
  classKey,
  inEffect,
  ModelIndex,
  publishedIds,
  type BrokenId,
  type IdKind,
  type PublishedId,
  type Removal,
} from './published-ids.js';
import { utcDate } from '../content/index.js';
import { byCodePoint } from '../contract/order.js';

/** A scalar field of an API shape (or a list of strings) whose value differs. */
export interface FieldChange {
  field: string;
  from: FieldValue;
  to: FieldValue;
}

/** The values {@link FieldChange} compares: a shape's text, numbers, `null`, and lists of text. */
export type FieldValue = string | number | boolean | null | undefined | readonly string[];

/**
 * One resource's change. `label` names it (`course/class` for a class); `summary` describes an added or removed one.
 * An added changelog entry dated after the diff's instant is `scheduled` on that date; a removal a changelog entry
 * announces is `announcedBy` it (breaking while its date is still to come).
 */
export type ResourceChange =
  | { change: 'added'; label: string; summary: string; scheduled?: string }
  | { change: 'removed'; label: string; summary: string; breaking: boolean; announcedBy?: Removal }
  | { change: 'renamed'; label: string; to: string; fields: FieldChange[] }
  | { change: 'changed'; label: string; fields: FieldChange[] };

/** A route deprecation that the change adds, withdraws, or whose sunset it moves. */
export interface DeprecationChange {
  change: 'added' | 'removed' | 'changed';
  path: string;
  /** The changelog entry declaring it (in the new revision; in the base for a removed one). */
  entry: string;
  sunset: FieldValue;
  from?: FieldValue;
}

/** The change between two valid models. */
export interface ApiDiff {
  courses: ResourceChange[];
  classes: ResourceChange[];
  lessons: ResourceChange[];
  changelog: ResourceChange[];
  deprecations: DeprecationChange[];
  roadmap: ResourceChange[];
  /** The published ids that lead nowhere now ({@link brokenIds}): the change breaks clients. */
  broken: BrokenId[];
}

/** Whether a diff has nothing to show. */
export function isEmptyDiff(diff: ApiDiff): boolean {
  return [diff.courses, diff.classes, diff.lessons, diff.changelog, diff.deprecations, diff.roadmap].every((list) => list.length === 0);
}

/**
 * Compares two valid models (given as {@link ModelIndex}es); `at` is the instant whose published ids must not break
 * ({@link brokenIds}).
 */
export function diffModels(base: ModelIndex, head: ModelIndex, at: Date): ApiDiff {
  const broken = brokenIds(base, head, at);
  const published = publishedIds(base);
  const resources = <T extends object>(
    kind: IdKind,
    baseMap: ReadonlyMap<string, T>,
    headMap: ReadonlyMap<string, T>,
    summary: (t: T) => string,
    scheduled: (t: T) => string | undefined = () => undefined,
  ): ResourceChange[] => {
    // A class is keyed `course/class`, in the head under the course its published course id leads to now.
    const baseKey = (p: PublishedId): string => (kind === 'class' ? classKey(p.courseId!, p.id) : p.id);
    const headKey = (p: PublishedId, current: string): string =>
      kind === 'class' ? classKey(head.resolve('course', p.courseId!)!, current) : current;
    const changes: ResourceChange[] = [];
    const reached = new Set<string>();
    for (const p of published) {
      if (p.kind !== kind) continue;
      const before = baseMap.get(baseKey(p));
      const current = head.resolve(kind, p.id, p.courseId);
      if (current === undefined) {
        // An id the base published only as an alias has no fields of its own.
        const what = before ? summary(before) : 'an alias';
        const announcedBy = head.removals.announcing(p);
        changes.push(
          announcedBy
            ? { change: 'removed', label: baseKey(p), summary: what, breaking: !inEffect(announcedBy, at), announcedBy }
            : { change: 'removed', label: baseKey(p), summary: what, breaking: true },
        );
        continue;
      }
      if (!before) continue; // an alias that still leads somewhere: its resource is compared under its own id
      const key = headKey(p, current);
      reached.add(key);
      const fields = fieldChanges(before, headMap.get(key)!);
      if (current !== p.id) changes.push({ change: 'renamed', label: baseKey(p), to: key, fields });
      else if (fields.length > 0) changes.push({ change: 'changed', label: key, fields });
    }
    for (const [key, after] of headMap) {
      if (baseMap.has(key) || reached.has(key)) continue;
      const on = scheduled(after);
      changes.push(
        on === undefined
          ? { change: 'added', label: key, summary: summary(after) }
          : { change: 'added', label: key, summary: summary(after), scheduled: on },
      );
    }
    return ordered(changes);
  };
  return {
    courses: resources('course', base.courses, head.courses, (c) => `${text(c.title)}, ${c.status}`),
    classes: resources('class', base.classes, head.classes, (k) => `${text(k.name)}, ${k.status}`),
    lessons: resources('lesson', base.lessons, head.lessons, (l) => `${text(l.title)} in ${code(classKey(l.course_id, l.class_id))}`),
    changelog: resources(
      'changelog entry',
      base.entries,
      head.entries,
      (e) => `${e.date}, ${e.kind}, ${text(e.title)}`,
      (e) => (e.date > utcDate(at) ? e.date : undefined),
    ),
    deprecations: deprecationChanges(base, head),
    roadmap: roadmapChanges(base, head),
    broken,
  };
}

/** Removed (breaking first), renamed, added, changed; each by label. */
function ordered(changes: ResourceChange[]): ResourceChange[] {
  const rank = { removed: 0, renamed: 1, added: 2, changed: 3 } as const;
  return changes.sort((a, b) => rank[a.change] - rank[b.change] || byCodePoint(a.label, b.label));
}

/**
 * The scalar fields (text, numbers, `null`, lists of text) of two versions of one API shape that differ, in the
 * shape's key order; `id` and nested resources (compared on their own) are left out.
 */
function fieldChanges(before: object, after: object): FieldChange[] {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const keys = [...Object.keys(a), ...Object.keys(b).filter((k) => !(k in a))];
  const out: FieldChange[] = [];
  for (const field of keys) {
    if (field === 'id') continue;
    const from = scalar(a[field]);
    const to = scalar(b[field]);
    if (from === NESTED || to === NESTED) continue;
    if (JSON.stringify(from ?? null) !== JSON.stringify(to ?? null)) out.push({ field, from, to });
  }
  return out;
}

const NESTED = Symbol('nested');

function scalar(value: unknown): FieldValue | typeof NESTED {
  if (value === null || value === undefined || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  return NESTED;
}

function deprecationChanges(base: ModelIndex, head: ModelIndex): DeprecationChange[] {
  const byPath = (index: ModelIndex): Map<string, { sunset: string; entry: string }> => {
    const map = new Map<string, { sunset: string; entry: string }>();
    // Oldest entry first: a path deprecated twice keeps its first announcement.
    for (const entry of [...index.model.changelog.entries].reverse()) {
      for (const d of entry.deprecates) if (!map.has(d.path)) map.set(d.path, { sunset: d.sunset, entry: entry.id });
    }
    return map;
  };
  const before = byPath(base);
  const after = byPath(head);
  const out: DeprecationChange[] = [];
  for (const [path, now] of after) {
    const then = before.get(path);
    if (!then) out.push({ change: 'added', path, entry: now.entry, sunset: now.sunset });
    else if (then.sunset !== now.sunset) out.push({ change: 'changed', path, entry: now.entry, sunset: now.sunset, from: then.sunset });
  }
  for (const [path, then] of before) if (!after.has(path)) out.push({ change: 'removed', path, entry: then.entry, sunset: then.sunset });
  const rank = { removed: 0, added: 1, changed: 2 } as const;
  return out.sort((a, b) => rank[a.change] - rank[b.change] || byCodePoint(a.path, b.path));
}

/** Roadmap items are not permanent: removing one is not breaking. */
function roadmapChanges(base: ModelIndex, head: ModelIndex): ResourceChange[] {
  const items = (index: ModelIndex): Map<string, RoadmapItem> => new Map(index.model.roadmap.stages.flatMap((s) => s.items.map((i) => [i.id, i])));
  const before = items(base);
  const after = items(head);
  const summary = (i: RoadmapItem): string => `${text(i.title)}, ${i.stage}`;
  const out: ResourceChange[] = [];
  for (const [id, item] of before) {
    const now = after.get(id);
    if (!now) out.push({ change: 'removed', label: id, summary: summary(item), breaking: false });
    else {
      const fields = fieldChanges(item, now);
      if (fields.length > 0) out.push({ change: 'changed', label: id, fields });
    }
  }
  for (const [id, item] of after) if (!before.has(id)) out.push({ change: 'added', label: id, summary: summary(item) });
  return ordered(out);
}

/** How the two sides are named in the summary's heading (each as written, e.g. `origin/main (abc1234)`). */
export interface DiffLabels {
  base: string;
  head: string;
}

/**
 * The diff as Markdown (GitHub flavoured): a heading, then one section per kind of resource that changed, one
 * line per resource; "No changes to the public API." when nothing differs. Every text of the content is in a
 * code span, so no title can inject Markdown or HTML.
 */
export function renderMarkdown(diff: ApiDiff, labels: DiffLabels): string {
  const lines = [`## Public API changes: ${labels.base} → ${labels.head}`, ''];
  if (isEmptyDiff(diff)) return [...lines, 'No changes to the public API.', ''].join('\n');
  if (diff.broken.length > 0) {
    const n = diff.broken.length;
    lines.push(
      `**Breaking:** ${n} published id${n === 1 ? ' is' : 's are'} gone (${diff.broken.map((p) => code(brokenLabel(p))).join(', ')}). ` +
        "Ids are permanent: add each one to the `aliases` of the resource that replaces it, or retire it in a changelog entry's `removes`.",
      '',
    );
  }
  const section = (title: string, items: string[]): void => {
    if (items.length === 0) return;
    lines.push(`### ${title}`, '', ...items.map((item) => `- ${item}`), '');
  };
  section(
    'Courses',
    diff.courses.map((c) => resourceLine(c)),
  );
  section(
    'Classes',
    diff.classes.map((c) => resourceLine(c)),
  );
  section(
    'Lessons',
    diff.lessons.map((c) => resourceLine(c)),
  );
  section(
    'Changelog entries',
    diff.changelog.map((c) => resourceLine(c)),
  );
  section('Deprecations and sunsets', diff.deprecations.map(deprecationLine));
  // A roadmap item whose stage changed moved on the roadmap.
  section(
    'Roadmap',
    diff.roadmap.map((c) => resourceLine(c, c.change === 'changed' && c.fields.some((f) => f.field === 'stage') ? 'Moved' : 'Changed')),
  );
  return lines.join('\n');
}

function brokenLabel(p: PublishedId): string {
  return p.kind === 'class' ? classKey(p.courseId!, p.id) : p.id;
}

function resourceLine(c: ResourceChange, verb = 'Changed'): string {
  switch (c.change) {
    case 'added':
      if (c.scheduled) return `Scheduled ${code(c.label)} for ${c.scheduled}: ${c.summary} (published at 00:00 UTC that day)`;
      return `Added ${code(c.label)}: ${c.summary}`;
    case 'removed':
      if (c.announcedBy) {
        const { entry, date } = c.announcedBy;
        const by = `retired on ${date} by changelog entry ${code(entry)}`;
        return c.breaking
          ? `Removed ${code(c.label)}: ${c.summary} (${by}) — **breaking**: the removal takes effect on ${date}, but the id is gone now`
          : `Removed ${code(c.label)}: ${c.summary} (${by})`;
      }
      return `Removed ${code(c.label)}: ${c.summary}${c.breaking ? ' — **breaking**: the id was published and no alias leads to it' : ''}`;
    case 'renamed':
      return `Renamed ${code(c.label)} → ${code(c.to)} (alias)${c.fields.length > 0 ? `; ${fieldsText(c.fields)}` : ''}`;
    case 'changed':
      return `${verb} ${code(c.label)}: ${fieldsText(c.fields)}`;
  }
}

function deprecationLine(d: DeprecationChange): string {
  const by = `changelog entry ${code(d.entry)}`;
  switch (d.change) {
    case 'added':
      return `Deprecated ${code(d.path)}: sunset ${value(d.sunset)} (${by})`;
    case 'removed':
      return `Deprecation withdrawn for ${code(d.path)}: was sunset ${value(d.sunset)} (${by})`;
    case 'changed':
      return `Sunset of ${code(d.path)} moved: ${value(d.from)} → ${value(d.sunset)} (${by})`;
  }
}

function fieldsText(fields: readonly FieldChange[]): string {
  return fields.map((f) => `${f.field} ${value(f.from)} → ${value(f.to)}`).join('; ');
}

/** Longest text shown for one value, in code points; longer text is cut with `…`. */
const MAX_VALUE_CHARS = 80;

function value(v: FieldValue): string {
  if (v === null || v === undefined) return '(none)';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return text(v);
  return v.length === 0 ? '(none)' : v.map(text).join(', ');
}

/** Content text as a code span, on one line, cut to {@link MAX_VALUE_CHARS}. */
function text(s: string): string {
  const chars = [...s.replace(/\s*\r?\n\s*/g, ' ')];
  return code(chars.length > MAX_VALUE_CHARS ? `${chars.slice(0, MAX_VALUE_CHARS - 1).join('')}…` : chars.join(''));
}

/**
 * A CommonMark code span holding `s` literally: the fence is one backtick longer than the longest run inside, and
 * a space pads text that starts or ends with a backtick (CommonMark §6.1).
 */
export function code(s: string): string {
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = s.startsWith('`') || s.endsWith('`') || (s.startsWith(' ') && s.endsWith(' ') && s.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${s}${pad}${fence}`;
}
