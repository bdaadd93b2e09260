/**
 * `syllabus-content new`: the files of a new lesson, class, course, changelog entry or roadmap item, with the id,
 * the order (the parent's list) and the date derived, written only when the folder they make validates.
 */
import { stringify } from 'yaml';
import defs from '../../../schemas/defs.schema.json' with { type: 'json' };
import { ID_MAX_LENGTH } from '../../contract/params.js';
import {
  CATALOG_PATH,
  changelogPath,
  classPath,
  coursePath,
  dayNumber,
  idProblem,
  lessonPath,
  ROADMAP_PATH,
  STAGE_ORDER,
  utcDate,
} from '../../content/index.js';
import type { Course, Klass } from '../../schemas/types.generated.js';
import { closest } from '../../text/nearest.js';
import { appendToList, FrontmatterEditError, setScalar } from './frontmatter-edit.js';
import { ContentFolder, NEW_EXIT, ScaffoldError, type FileChange } from './folder.js';
import { slugify } from './slug.js';

/** The kinds of change a changelog entry announces (`schemas/defs.schema.json#/$defs/ChangeKind`). */
export const CHANGE_KINDS: readonly string[] = defs.$defs.ChangeKind.enum;
/** The roadmap's stage keys, in order. */
export const STAGES: readonly string[] = STAGE_ORDER;

/** What `new` did: paths as printed (under the folder as written), the new files first, then the edited ones. */
export interface ScaffoldResult {
  created: string[];
  changed: string[];
  /** Sentences for the writer about what else changed (a status), for stderr. */
  notes: string[];
}

/** Options of `new lesson`. */
export interface NewLesson {
  /** `<course>/<class>`. */
  parent: string;
  title: string;
  id?: string;
  /** Default: the language most of the class's lessons use (then the course's). */
  lang?: string;
  blurb?: string;
  /** Make a soon class (and its course, if soon) live: a soon class lists no lessons. */
  live?: boolean;
}

/** Adds a lesson to a class: `courses/<course>/<class>/<id>.md`, and its id at the end of the class's `lessons`. */
export async function newLesson(folder: ContentFolder, o: NewLesson): Promise<ScaffoldResult> {
  const parts = o.parent.split('/');
  if (parts.length !== 2) throw usage(`expected <course>/<class>, such as python-foundations/basics, got "${o.parent}"`);
  const course = findCourse(folder, parts[0]!);
  const klass = findClass(folder, course, parts[1]!);
  const id = chooseId(o.id, o.title, 'lesson', idConvention(klass.lessons.map((l) => l.id)));
  for (const c of folder.model.catalog.courses) {
    for (const k of c.classes) {
      if (k.lessons.some((l) => l.id === id)) {
        throw refused(
          `the lesson id "${id}" is taken by ${folder.show(lessonPath(c.id, k.id, id))} (lesson ids are unique across the catalog); choose another with --id, such as --id ${freeId(id, (x) => lessonTaken(folder, x))}`,
        );
      }
    }
  }
  const renamed = folder.model.aliases.lessons.get(id);
  if (renamed !== undefined) {
    throw refused(`the lesson id "${id}" is an old id of the lesson "${renamed}" (its aliases): ids are never reused; choose another with --id`);
  }
  const changes: FileChange[] = [];
  const notes: string[] = [];
  let classText = edit(folder, classPath(course.id, klass.id), (t) => appendToList(t, 'lessons', id));
  if (klass.status === 'soon') {
    const courseSoon = course.status === 'soon';
    if (!o.live) {
      throw refused(
        `the class "${klass.id}" is soon, and a soon class lists no lessons: pass --live to make it live with this lesson` +
          (courseSoon ? ` (its course "${course.id}" is soon too, and would become live: a soon course has no live class)` : ''),
      );
    }
    classText = setScalar(classText, 'status', 'live');
    notes.push(`the class "${klass.id}" is now live`);
    if (courseSoon) {
      const rel = coursePath(course.id);
      changes.push({ rel, before: folder.text(rel)!, text: edit(folder, rel, (t) => setScalar(t, 'status', 'live')) });
      notes.push(`the course "${course.id}" is now live`);
    }
  }
  const lang = o.lang ?? commonLang(klass.lessons) ?? commonLang(course.classes.flatMap((k) => k.lessons));
  if (lang === undefined) throw usage(`the course "${course.id}" has no lesson to take the language from: pass --lang, such as --lang python`);
  const announced = klass.soon.find((topic) => topic.toLowerCase() === o.title.toLowerCase());
  if (announced !== undefined) notes.push(`the class still announces "${announced}" in its soon list: remove it there if this lesson is that topic`);
  const rel = lessonPath(course.id, klass.id, id);
  const body = `## ${o.title}\n\n<!-- Each level-2 heading (## …) starts a step of the lesson. -->\n`;
  changes.unshift(
    { rel, text: file({ title: o.title, blurb: o.blurb, lang }, body) },
    { rel: classPath(course.id, klass.id), before: folder.text(classPath(course.id, klass.id))!, text: classText },
  );
  return write(folder, changes, notes);
}

/** Options of `new class`. */
export interface NewClass {
  course: string;
  name: string;
  id?: string;
  blurb?: string;
  /** Topics announced for the class (its `soon` list). */
  soon?: string[];
}

/**
 * Adds a class to a course, soon and without lessons (a live class has at least one: `new lesson … --live` makes it
 * live with its first): `courses/<course>/<id>/index.md`, and its id at the end of the course's `classes`.
 */
export async function newClass(folder: ContentFolder, o: NewClass): Promise<ScaffoldResult> {
  const course = findCourse(folder, o.course);
  const id = chooseId(o.id, o.name, 'class');
  if (course.classes.some((k) => k.id === id)) {
    throw refused(`the course "${course.id}" already has a class "${id}" (${folder.show(classPath(course.id, id))}); choose another id with --id`);
  }
  const renamed = folder.model.aliases.classes.get(course.id)?.get(id);
  if (renamed !== undefined)
    throw refused(`"${id}" is an old id of the class "${renamed}" of "${course.id}": ids are never reused; choose another with --id`);
  const rel = coursePath(course.id);
  return write(folder, [
    {
      rel: classPath(course.id, id),
      text: file({ name: o.name, blurb: o.blurb, status: 'soon', lessons: [], soon: o.soon?.length ? o.soon : undefined }),
    },
    { rel, before: folder.text(rel)!, text: edit(folder, rel, (t) => appendToList(t, 'classes', id)) },
  ]);
}

/** Options of `new course`. */
export interface NewCourse {
  title: string;
  id?: string;
  /** `#rrggbb`; default: one derived from the id. */
  color?: string;
  tagline?: string;
  blurb?: string;
}

/**
 * Adds a course, soon and without classes (the smallest valid course: a live one needs a live class):
 * `courses/<id>/index.md`, and its id at the end of the catalog's `courses`.
 */
export async function newCourse(folder: ContentFolder, o: NewCourse): Promise<ScaffoldResult> {
  const id = chooseId(o.id, o.title, 'course');
  if (folder.model.catalog.courses.some((c) => c.id === id)) {
    throw refused(`the course "${id}" exists (${folder.show(coursePath(id))}); choose another id with --id`);
  }
  const renamed = folder.model.aliases.courses.get(id);
  if (renamed !== undefined) throw refused(`"${id}" is an old id of the course "${renamed}": ids are never reused; choose another with --id`);
  const fields = { title: o.title, tagline: o.tagline, blurb: o.blurb, color: o.color ?? colorOf(id), status: 'soon', classes: [] };
  return write(folder, [
    { rel: coursePath(id), text: file(fields) },
    { rel: CATALOG_PATH, before: folder.text(CATALOG_PATH)!, text: edit(folder, CATALOG_PATH, (t) => appendToList(t, 'courses', id)) },
  ]);
}

/** Options of `new changelog`. */
export interface NewChangelog {
  title: string;
  kind: string;
  blurb: string;
  /** One paragraph; default: the blurb. */
  body?: string;
  /** `YYYY-MM-DD`; default: today (UTC). */
  date?: string;
  /** The id's slug (before the date); default: from the title. */
  slug?: string;
}

/**
 * Adds a changelog entry `changelog/<slug>-<date>.md`, dated today (UTC, by `now`) unless `date` is given. Its
 * `blurb` is required (the feed and the API show it), and the body defaults to it: nothing is made up.
 */
export async function newChangelog(folder: ContentFolder, o: NewChangelog, now: () => Date): Promise<ScaffoldResult> {
  const date = o.date ?? utcDate(now());
  if (dayNumber(date) === undefined) throw usage(`--date must be a real calendar date YYYY-MM-DD, got "${date}"`);
  // The id is `<slug>-<date>`: the slug gets what the date leaves of the longest id.
  const slug = o.slug ?? slugify(o.title, ID_MAX_LENGTH - date.length - 1);
  if (slug === undefined) throw usage(`no id can be made from the title "${o.title}": pass --slug, such as --slug new-lesson`);
  const id = `${slug}-${date}`;
  const problem = idProblem(id);
  if (problem) throw usage(`the entry id "${id}" ${problem}`);
  const renamed = folder.model.aliases.changelog.get(id);
  if (renamed !== undefined) throw refused(`"${id}" is an old id of the changelog entry "${renamed}": ids are never reused; choose another --slug`);
  const taken = (candidate: string): boolean =>
    folder.text(changelogPath(`${candidate}-${date}`)) !== undefined || folder.model.aliases.changelog.has(`${candidate}-${date}`);
  if (taken(slug)) {
    throw refused(
      `the changelog entry "${id}" exists (${folder.show(changelogPath(id))}): for another entry that day choose its slug ` +
        `with --slug, such as --slug ${freeId(slug, taken, ID_MAX_LENGTH - date.length - 1)}, or its day with --date YYYY-MM-DD`,
    );
  }
  return write(folder, [{ rel: changelogPath(id), text: file({ kind: o.kind, title: o.title, blurb: o.blurb }, `${o.body ?? o.blurb}\n`) }]);
}

/** Options of `new roadmap`. */
export interface NewRoadmap {
  title: string;
  stage: string;
  theme?: string;
  /** The item's one paragraph. */
  body?: string;
  id?: string;
  /** Position within the stage (an integer ≥ 0). */
  order?: string;
  /** The changelog entry that shipped it: required when the stage is `shipped`. */
  shipped?: string;
}

/** Adds a roadmap item `roadmap/<id>.md` (no parent list: the roadmap orders items by `order`, then title). */
export async function newRoadmap(folder: ContentFolder, o: NewRoadmap): Promise<ScaffoldResult> {
  const themes = [...new Set(folder.model.roadmap.stages.flatMap((s) => s.items.map((i) => i.theme)))].sort();
  const inUse = themes.length > 0 ? ` (themes in use: ${themes.join(', ')})` : '';
  if (o.theme === undefined) throw usage(`a roadmap item needs a theme: pass --theme${inUse}`);
  if (o.body === undefined) throw usage('a roadmap item needs its paragraph: pass --body "…" (one paragraph of Markdown)');
  const id = chooseId(o.id, o.title, 'roadmap item');
  if (`roadmap/${id}.md` === ROADMAP_PATH) throw usage(`"${id}" names the roadmap's stage list (${ROADMAP_PATH}): choose another with --id`);
  let order: number | undefined;
  if (o.order !== undefined) {
    if (!/^\d{1,9}$/.test(o.order)) throw usage(`--order must be an integer ≥ 0, got "${o.order}"`);
    order = Number(o.order);
  }
  if (o.stage === 'shipped' && o.shipped === undefined) {
    throw usage('a shipped roadmap item names the changelog entry that shipped it: pass --shipped <entry id>');
  }
  if (o.stage !== 'shipped' && o.shipped !== undefined) throw usage(`--shipped is only for the stage "shipped", not "${o.stage}"`);
  if (o.shipped !== undefined && folder.text(changelogPath(o.shipped)) === undefined) {
    throw usage(
      unknown(
        'changelog entry',
        o.shipped,
        folder.model.changelog.entries.map((e) => e.id),
        folder.model.aliases.changelog,
      ),
    );
  }
  const fields = { title: o.title, theme: o.theme, stage: o.stage, shipped: o.shipped, order };
  return write(folder, [{ rel: `roadmap/${id}.md`, text: file(fields, `${o.body}\n`) }]);
}

async function write(folder: ContentFolder, changes: FileChange[], notes: string[] = []): Promise<ScaffoldResult> {
  for (const change of changes) {
    if (change.before === undefined && folder.text(change.rel) !== undefined) {
      throw refused(`${folder.show(change.rel)} already exists: new never overwrites a file`);
    }
  }
  await folder.write(changes);
  const show = (list: FileChange[]): string[] => list.map((c) => folder.show(c.rel));
  return { created: show(changes.filter((c) => c.before === undefined)), changed: show(changes.filter((c) => c.before !== undefined)), notes };
}

/** A content file: YAML frontmatter with `fields` in the order given (undefined ones left out), then `body`. */
function file(fields: Record<string, unknown>, body = ''): string {
  const data = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  // No folding (lineWidth 0): every one-line field stays on one line.
  const yaml = stringify(data, { lineWidth: 0, flowCollectionPadding: false });
  return `---\n${yaml}---\n${body === '' ? '' : `\n${body}`}`;
}

/** The edited text of the file at `rel`, or a refusal saying why the parent's list could not be extended. */
function edit(folder: ContentFolder, rel: string, change: (text: string) => string): string {
  try {
    return change(folder.text(rel)!);
  } catch (err) {
    if (err instanceof FrontmatterEditError) throw refused(`cannot edit ${folder.show(rel)} safely: ${err.message}; nothing was written`);
    throw err;
  }
}

function findCourse(folder: ContentFolder, id: string): Course {
  const course = folder.model.catalog.courses.find((c) => c.id === id);
  if (course) return course;
  throw usage(
    unknown(
      'course',
      id,
      folder.model.catalog.courses.map((c) => c.id),
      folder.model.aliases.courses,
    ),
  );
}

function findClass(folder: ContentFolder, course: Course, id: string): Klass {
  const klass = course.classes.find((k) => k.id === id);
  if (klass) return klass;
  const ids = course.classes.map((k) => k.id);
  throw usage(unknown('class', id, ids, folder.model.aliases.classes.get(course.id) ?? new Map(), ` in the course "${course.id}"`));
}

/** Known ids listed in full after an unknown one; a longer list gets only the guess. */
const KNOWN_LISTED = 20;

/**
 * `unknown course "x" (did you mean "y"?); known: …`, or the current id when `id` is an old one.
 * @param where after the id: ` in the course "c"`
 */
function unknown(noun: string, id: string, known: readonly string[], aliases: ReadonlyMap<string, string>, where = ''): string {
  const current = aliases.get(id);
  if (current !== undefined) return `"${id}" is the old id of the ${noun} "${current}"${where}: use "${current}"`;
  const guess = closest(id, known);
  const list = known.length > 0 && known.length <= KNOWN_LISTED ? `; known: ${known.join(', ')}` : '';
  return `unknown ${noun} "${id}"${where}${guess ? ` (did you mean "${guess}"?)` : ''}${list}`;
}

/**
 * `--id` when given (checked against the id grammar), else the id the title suggests, starting with `prefix` (the
 * siblings' convention, {@link idConvention}) when it does not already.
 */
function chooseId(given: string | undefined, title: string, noun: string, prefix = ''): string {
  const slug = given === undefined ? slugify(title, ID_MAX_LENGTH - prefix.length) : undefined;
  const id = given ?? (slug === undefined || slug.startsWith(prefix) ? slug : `${prefix}${slug}`);
  if (id === undefined) throw usage(`no ${noun} id can be made from "${title}" (it has no Latin letter or digit): pass --id`);
  const problem = idProblem(id);
  if (problem) throw usage(`the ${noun} id "${id}" ${problem}`);
  return id;
}

/**
 * The prefix every one of `ids` starts with, up to and including a hyphen (`py-` for `py-numbers`, `py-strings`), or
 * `''`: a class's lesson ids follow a convention only when it has two lessons or more that share one.
 */
function idConvention(ids: readonly string[]): string {
  if (ids.length < 2) return '';
  let common = ids[0]!;
  for (const id of ids) while (!id.startsWith(common)) common = common.slice(0, -1);
  return common.slice(0, common.lastIndexOf('-') + 1);
}

function lessonTaken(folder: ContentFolder, id: string): boolean {
  return folder.model.aliases.lessons.has(id) || folder.model.catalog.courses.some((c) => c.classes.some((k) => k.lessons.some((l) => l.id === id)));
}

/** `id-2`, `id-3`, … (shortened to fit `max` characters, default the longest id): the first that `taken` does not claim. */
function freeId(id: string, taken: (id: string) => boolean, max = ID_MAX_LENGTH): string {
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${id.slice(0, max - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
}

/** The language most of `lessons` use (on a tie, the one of the later lesson); `undefined` when there are none. */
function commonLang(lessons: readonly { lang: string }[]): string | undefined {
  const counts = new Map<string, number>();
  let best: string | undefined;
  for (const { lang } of lessons) {
    const n = (counts.get(lang) ?? 0) + 1;
    counts.set(lang, n);
    if (best === undefined || n >= counts.get(best)!) best = lang;
  }
  return best;
}

/**
 * A colour for a course from its id: the hue from a hash of the id, saturation and lightness fixed so that white
 * text on it stays readable (lightness 40%). Stable: the same id always gets the same colour.
 */
function colorOf(id: string): string {
  let hash = 2166136261; // FNV-1a, 32 bits
  for (const c of id) hash = Math.imul(hash ^ c.codePointAt(0)!, 16777619) >>> 0;
  const [h, s, l] = [hash % 360, 0.55, 0.4];
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number): string => {
    const k = (n + h / 30) % 12;
    const v = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

const usage = (message: string): ScaffoldError => new ScaffoldError(message, NEW_EXIT.usage);
const refused = (message: string): ScaffoldError => new ScaffoldError(message, NEW_EXIT.refused);
