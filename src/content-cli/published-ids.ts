/**
 * The rule that ids never break: every course, class, lesson and changelog entry id a base revision published
 * (as a live id or as an alias) must, in the new revision, still be a live id of its kind or an alias of one.
 * `syllabus-content validate --base` and `syllabus-content diff` both judge a change by {@link brokenIds}.
 *
 * A changelog entry may instead announce that an id is retired for good (`removes`, see {@link Removals}).
 *
 * Classes are identified within their course: a class id published under course `c` must live (or be an alias)
 * in the course `c` leads to now — `c` itself, or the course that declares `c` as an alias.
 */
import type { ChangelogEntry, ChangelogEntryFrontmatter, Course, Klass, Lesson } from '../schemas/types.generated.js';
import { CATALOG_PATH, changelogPath, classPath, coursePath, publishedAt, utcDate, type ContentModel } from '../content/index.js';
import { byCodePoint } from '../contract/order.js';

/** The kinds of resource whose ids are permanent. */
export type IdKind = 'course' | 'class' | 'lesson' | 'changelog entry';

/** An id a revision published. */
export interface PublishedId {
  kind: IdKind;
  id: string;
  /** For a class: its course. For a lesson: the course and class it was in. */
  courseId?: string;
  classId?: string;
}

/** A published id that leads nowhere now; `early` when a changelog entry removes it, but only from a later date. */
export interface BrokenId extends PublishedId {
  early?: Removal;
}

/** The changelog entry that retires an id, and the date the removal takes effect (the entry's, `YYYY-MM-DD`). */
export interface Removal {
  entry: string;
  date: string;
}

/**
 * The ids a revision's changelog retires for good (the `removes` of its entries), each with the entry that announces
 * it. A removal takes effect on the entry's date (the date in its id), when the entry is published: until then the
 * id must keep answering.
 */
export class Removals {
  readonly #byKey = new Map<string, Removal>();

  /** Collects the `removes` of changelog entries (their frontmatter, valid against the schema). */
  static of(entries: Iterable<{ entryId: string; date?: string; data?: Pick<ChangelogEntryFrontmatter, 'removes'> }>): Removals {
    const removals = new Removals();
    for (const { entryId, date, data } of entries) {
      const removes = data?.removes;
      if (!removes || date === undefined) continue;
      const removal: Removal = { entry: entryId, date };
      const set = (p: Pick<PublishedId, 'kind' | 'id' | 'courseId'>): void => {
        const key = removalKey(p);
        const earlier = removals.#byKey.get(key);
        // Announced twice: the earlier date is the removal's.
        if (!earlier || removal.date < earlier.date) removals.#byKey.set(key, removal);
      };
      for (const id of removes.courses ?? []) set({ kind: 'course', id });
      for (const { course, id } of removes.classes ?? []) set({ kind: 'class', id, courseId: course });
      for (const id of removes.lessons ?? []) set({ kind: 'lesson', id });
      for (const id of removes.changelog ?? []) set({ kind: 'changelog entry', id });
    }
    return removals;
  }

  /** The removal of `published` a changelog entry announces, if one does (whatever its date). */
  announcing(published: PublishedId): Removal | undefined {
    return this.#byKey.get(removalKey(published));
  }
}

/** Whether a removal has taken effect at `at`: its entry is published at 00:00 UTC of its date (schedule.ts). */
export function inEffect(removal: Removal, at: Date): boolean {
  return removal.date <= utcDate(at);
}

function removalKey(p: Pick<PublishedId, 'kind' | 'id' | 'courseId'>): string {
  return `${p.kind}\u0000${p.kind === 'class' ? p.courseId : ''}\u0000${p.id}`;
}

/** The resources of a model by id (classes by `course/class`), for lookups, and the removals its changelog announces. */
export class ModelIndex {
  readonly courses = new Map<string, Course>();
  readonly classes = new Map<string, Klass>();
  readonly lessons = new Map<string, Lesson>();
  readonly entries = new Map<string, ChangelogEntry>();

  constructor(
    readonly model: ContentModel,
    readonly removals: Removals = new Removals(),
  ) {
    for (const course of model.catalog.courses) {
      this.courses.set(course.id, course);
      for (const klass of course.classes) {
        this.classes.set(classKey(course.id, klass.id), klass);
        for (const lesson of klass.lessons) this.lessons.set(lesson.id, lesson);
      }
    }
    for (const entry of model.changelog.entries) this.entries.set(entry.id, entry);
  }

  /**
   * The live id an id of `kind` leads to in this model (itself, or the resource declaring it as an alias), or
   * `undefined` when it leads nowhere. For a class, `courseId` is the course it was published under.
   */
  resolve(kind: IdKind, id: string, courseId?: string): string | undefined {
    const { aliases } = this.model;
    switch (kind) {
      case 'course':
        return this.courses.has(id) ? id : aliases.courses.get(id);
      case 'class': {
        const course = courseId === undefined ? undefined : this.resolve('course', courseId);
        if (course === undefined) return undefined;
        return this.classes.has(classKey(course, id)) ? id : aliases.classes.get(course)?.get(id);
      }
      case 'lesson':
        return this.lessons.has(id) ? id : aliases.lessons.get(id);
      case 'changelog entry':
        return this.entries.has(id) ? id : aliases.changelog.get(id);
    }
  }
}

/** The key of a class in {@link ModelIndex.classes}, also how a class is named in messages: `course/class`. */
export const classKey = (courseId: string, classId: string): string => `${courseId}/${classId}`;

/**
 * Every id `base` published, live or as an alias, in a stable order: courses, classes, lessons, changelog entries,
 * each by id (classes by course, then id).
 */
export function publishedIds(base: ModelIndex): PublishedId[] {
  const { aliases } = base.model;
  const out: PublishedId[] = [];
  const sorted = <T>(list: T[], key: (t: T) => string): T[] => list.sort((a, b) => byCodePoint(key(a), key(b)));
  const courses = [...base.courses.keys(), ...aliases.courses.keys()].map((id) => ({ kind: 'course' as const, id }));
  out.push(...sorted(courses, (p) => p.id));
  const classes: PublishedId[] = [...base.classes.values()].map((k) => ({ kind: 'class', id: k.id, courseId: k.course_id }));
  for (const [courseId, table] of aliases.classes) for (const old of table.keys()) classes.push({ kind: 'class', id: old, courseId });
  out.push(...sorted(classes, (p) => classKey(p.courseId!, p.id)));
  const lessons: PublishedId[] = [...base.lessons.values()].map((l) => ({ kind: 'lesson', id: l.id, courseId: l.course_id, classId: l.class_id }));
  for (const [old, current] of aliases.lessons) {
    const lesson = base.lessons.get(current)!;
    lessons.push({ kind: 'lesson', id: old, courseId: lesson.course_id, classId: lesson.class_id });
  }
  out.push(...sorted(lessons, (p) => p.id));
  const entries: PublishedId[] = [...base.entries.keys(), ...aliases.changelog.keys()].map((id) => ({ kind: 'changelog entry', id }));
  out.push(...sorted(entries, (p) => p.id));
  return out;
}

/**
 * The ids `base` published by the instant `at` that lead nowhere in `head` and whose removal `head`'s changelog does
 * not announce as in effect at `at`: each one breaks a client that stored it. A removal announced by an entry dated
 * after `at` does not count yet (the id must keep answering until that entry is published): such an id is broken
 * with the removal as `early`. A changelog entry still scheduled at `at` (and an alias leading to one) was never
 * served, so renaming or dropping it breaks nobody ({@link publishedAt} decides).
 */
export function brokenIds(base: ModelIndex, head: ModelIndex, at: Date): BrokenId[] {
  const served = publishedAt(base.model, at).model;
  const servedEntries = new Set(served.changelog.entries.map((e) => e.id));
  const wasServed = (p: PublishedId) => p.kind !== 'changelog entry' || servedEntries.has(p.id) || served.aliases.changelog.has(p.id);
  const broken: BrokenId[] = [];
  for (const p of publishedIds(base)) {
    if (!wasServed(p) || head.resolve(p.kind, p.id, p.courseId) !== undefined) continue;
    const removal = head.removals.announcing(p);
    if (removal === undefined) broken.push(p);
    else if (!inEffect(removal, at)) broken.push({ ...p, early: removal });
  }
  return broken;
}

/** Where a broken id is reported in the new revision: a file (relative to the content folder) and a key in it. */
export interface FixLocation {
  rel: string;
  /** Path of the frontmatter key (empty: the file's first line). */
  key: (string | number)[];
}

/**
 * The best place to report a broken id: the file that held it is gone, so the list its parent keeps in the new
 * revision — a lesson's class `lessons:`, else its course's `classes:`, else the catalog's `courses:` — or, for a
 * changelog entry (which no list names), the path its file had.
 */
export function fixLocation(broken: PublishedId, head: ModelIndex): FixLocation {
  if (broken.kind === 'changelog entry') return { rel: changelogPath(broken.id), key: [] };
  const course = broken.courseId === undefined ? undefined : head.resolve('course', broken.courseId);
  if (broken.kind === 'lesson' && course !== undefined) {
    const klass = head.resolve('class', broken.classId!, course);
    if (klass !== undefined) return { rel: classPath(course, klass), key: ['lessons'] };
  }
  if (broken.kind !== 'course' && course !== undefined) return { rel: coursePath(course), key: ['classes'] };
  return { rel: CATALOG_PATH, key: ['courses'] };
}

/**
 * What to tell the writer about a broken id, e.g. `lesson "py-strings" was published at abc1234 and is gone: add
 * "aliases: [py-strings]" to the lesson that replaces it`.
 * @param published where the base was published, as the message names it (a short commit id).
 */
export function brokenIdMessage(broken: BrokenId, published: string): string {
  const what = broken.kind === 'class' ? `class "${broken.id}" of course "${broken.courseId}"` : `${broken.kind} "${broken.id}"`;
  if (broken.early) {
    const { entry, date } = broken.early;
    return (
      `${what} was published at ${published} and is gone, but its removal takes effect only on ${date}, the date of the ` +
      `changelog entry "${entry}" that announces it: until then the id must keep answering, so keep the ${broken.kind} ` +
      `until that day (merge its removal on or after ${date}), or date the entry today if it leaves now`
    );
  }
  const replacer = broken.kind === 'class' ? `the class of "${broken.courseId}"` : `the ${broken.kind}`;
  return (
    `${what} was published at ${published} and is gone: add "aliases: [${broken.id}]" to ${replacer} that replaces it ` +
    '(ids are permanent once published), or announce its removal in a changelog entry\'s "removes"'
  );
}
