/**
 * The rules that span files (existence, orphans, uniqueness, statuses, roadmap ↔ changelog) and the
 * derivation of the model: the API response shapes with every count and ordering computed.
 */
import type { Catalog, Changelog, ChangelogEntry, Course, Klass, Lesson, Roadmap, RoadmapItem } from '../schemas/types.generated.js';
import { FILE_START, FrontmatterLocator, type LocalProblem } from './frontmatter.js';
import { CATALOG_PATH, ROADMAP_PATH, changelogPath, classPath, coursePath, lessonPath } from './layout.js';
import type { ParsedFile } from './parse-file.js';
import { byCodePoint, sortByCodePoint } from '../contract/order.js';
import { DerivationMemo } from './memo.js';
import type { AliasTable, RoadmapTimeline } from './model.js';
import { didYouMean } from './schema-messages.js';

type Of<K extends ParsedFile['kind']> = Extract<ParsedFile, { kind: K }>;

/** A problem with the path of its file relative to the content folder. */
export interface RelProblem extends LocalProblem {
  rel: string;
}

/** The derived parts of a content model (everything but the revision). */
export interface DerivedModel {
  catalog: Catalog;
  changelog: Changelog;
  roadmap: Roadmap;
  aliases: AliasTable;
  roadmapTimeline: RoadmapTimeline;
}

/** Keys of the memo's slots for the derived objects that have no file of their own. */
const CHANGELOG_KEY = {};
const ROADMAP_KEY = {};

/**
 * Checks the rules across files and, when every file and rule is satisfied, derives the model.
 * @param files every parsed file of the folder
 * @param memo what earlier builds derived (see {@link DerivationMemo}); default none: everything is derived
 * @returns all problems (those of single files first, by path) and the model when there are none
 */
export function buildModel(
  files: Iterable<ParsedFile>,
  memo: DerivationMemo = new DerivationMemo(),
): { problems: RelProblem[]; model?: DerivedModel } {
  return checkAndDerive(new Tree(files), memo);
}

function checkAndDerive(tree: Tree, memo: DerivationMemo): { problems: RelProblem[]; model?: DerivedModel } {
  const problems: RelProblem[] = [];
  for (const file of tree.all) for (const p of file.problems) problems.push({ rel: file.rel, ...p });
  checkCatalog(tree, problems);
  checkCourses(tree, problems);
  checkClasses(tree, problems);
  checkLessonIds(tree, problems);
  checkRoadmap(tree, problems);
  const aliases = checkAliases(tree, problems);
  if (problems.length > 0) return { problems: sortProblems(problems) };
  const catalog = deriveCatalog(tree, memo);
  const { roadmap, timeline: roadmapTimeline } = deriveRoadmap(tree, memo);
  return { problems, model: { catalog, changelog: deriveChangelog(tree, memo), roadmap, aliases, roadmapTimeline } };
}

class Tree {
  readonly all: ParsedFile[] = [];
  catalog: Of<'catalog'> | undefined;
  roadmap: Of<'roadmap'> | undefined;
  readonly courses = new Map<string, Of<'course'>>();
  /** Every class and lesson file, in the order given. */
  readonly classList: Of<'class'>[] = [];
  readonly lessonList: Of<'lesson'>[] = [];
  readonly entries = new Map<string, Of<'changelog'>>();
  readonly items: Of<'roadmap-item'>[] = [];
  // By course id, then class id (then lesson id): no key string built per file, a large share of a reload.
  readonly #classes = new Map<string, Map<string, Of<'class'>>>();
  readonly #lessons = new Map<string, Map<string, Map<string, Of<'lesson'>>>>();
  /** One locator per file with cross-file problems: one parse of its frontmatter per build, dropped with the tree. */
  readonly #locators = new Map<ParsedFile, FrontmatterLocator>();

  constructor(files: Iterable<ParsedFile>) {
    // The lessons of a class come one after another in path order: their map is looked up once for all of them.
    let inClass: { courseId: string; classId: string; lessons: Map<string, Of<'lesson'>> } | undefined;
    // Stores by index, not `push`: each tree's arrays start empty (V8 gives them small-integer elements), and the
    // first file pushed into one threw the optimised constructor back to the interpreter on every reload ("not a
    // Smi"), which then spent part of every reload compiling it again.
    const { all, classList, lessonList, items } = this;
    for (const file of files) {
      all[all.length] = file;
      switch (file.kind) {
        case 'catalog':
          this.catalog = file;
          break;
        case 'roadmap':
          this.roadmap = file;
          break;
        case 'course':
          this.courses.set(file.courseId, file);
          break;
        case 'class':
          classList[classList.length] = file;
          child(this.#classes, file.courseId).set(file.classId, file);
          break;
        case 'lesson':
          lessonList[lessonList.length] = file;
          if (inClass?.classId !== file.classId || inClass.courseId !== file.courseId) {
            inClass = { courseId: file.courseId, classId: file.classId, lessons: child(child(this.#lessons, file.courseId), file.classId) };
          }
          inClass.lessons.set(file.lessonId, file);
          break;
        case 'changelog':
          this.entries.set(file.entryId, file);
          break;
        case 'roadmap-item':
          items[items.length] = file;
          break;
        case 'unknown':
          break;
      }
    }
    sortByCodePoint(this.all, (file) => file.rel); // the loader's cache keeps them in this order, mostly
  }

  /** The ids of the class files of a course. */
  classIds(courseId: string): Iterable<string> {
    return this.#classes.get(courseId)?.keys() ?? [];
  }

  /** The ids of the lesson files of a class. */
  lessonIds(courseId: string, classId: string): Iterable<string> {
    return this.lessonsIn(courseId, classId).keys();
  }

  /** The lesson files of a class by lesson id: one lookup for the class, then one per lesson. */
  lessonsIn(courseId: string, classId: string): ReadonlyMap<string, Of<'lesson'>> {
    return this.#lessons.get(courseId)?.get(classId) ?? NO_LESSONS;
  }

  klass(courseId: string, classId: string): Of<'class'> | undefined {
    return this.#classes.get(courseId)?.get(classId);
  }

  /** A cross-file problem of `file` at the frontmatter value `path` (the file's start for an empty path). */
  at(file: ParsedFile, path: readonly (string | number)[], message: string): RelProblem {
    if (path.length === 0) return { rel: file.rel, ...FILE_START, message };
    let locator = this.#locators.get(file);
    if (!locator) this.#locators.set(file, (locator = new FrontmatterLocator(file.yaml)));
    return { rel: file.rel, ...locator.at(path), message };
  }
}

const NO_LESSONS: ReadonlyMap<string, Of<'lesson'>> = new Map();

/** The map under `key` in `maps`, made empty if missing. */
function child<K, V>(maps: Map<K, Map<string, V>>, key: K): Map<string, V> {
  let map = maps.get(key);
  if (!map) maps.set(key, (map = new Map<string, V>()));
  return map;
}

function checkCatalog(tree: Tree, problems: RelProblem[]): void {
  const catalog = tree.catalog;
  if (!catalog) {
    problems.push({ rel: CATALOG_PATH, ...FILE_START, message: 'missing catalog.md: it lists the course ids in display order' });
    return;
  }
  if (!catalog.data) return; // its own problems are reported; orphans would only repeat them
  const listed = new Set(catalog.data.courses);
  catalog.data.courses.forEach((id, i) => {
    if (tree.courses.has(id)) return;
    const guess = suggestion(id, tree.courses.keys(), listed);
    problems.push(tree.at(catalog, ['courses', i], `course "${id}" is listed but ${coursePath(id)} does not exist${guess}`));
  });
  for (const course of tree.courses.values()) {
    if (!listed.has(course.courseId)) problems.push(tree.at(course, [], `orphan course: catalog.md does not list "${course.courseId}"`));
  }
}

/**
 * The "did you mean" for an id a list names but no file holds: the closest id among the files present (`existing`)
 * that the list does not name, which a rename or a typo leaves behind; failing that, among all of them.
 */
function suggestion(id: string, existing: Iterable<string>, listed: Iterable<string>): string {
  const names = new Set(listed);
  const present = [...existing];
  return didYouMean(
    id,
    present.filter((other) => !names.has(other)),
    present,
  );
}

function checkCourses(tree: Tree, problems: RelProblem[]): void {
  for (const course of tree.courses.values()) {
    const data = course.data;
    if (!data) continue;
    const classes = data.classes.map((id) => tree.klass(course.courseId, id));
    data.classes.forEach((id, i) => {
      if (classes[i]) return;
      const guess = suggestion(id, tree.classIds(course.courseId), data.classes);
      problems.push(tree.at(course, ['classes', i], `class "${id}" is listed but ${classPath(course.courseId, id)} does not exist${guess}`));
    });
    const statuses = classes.map((k) => k?.data?.status);
    if (data.status === 'soon') {
      classes.forEach((k) => {
        if (k?.data?.status === 'live') {
          problems.push(tree.at(k, ['status'], `this class is live but its course "${course.courseId}" is soon: a soon course has no live class`));
        }
      });
    } else if (statuses.every((s) => s !== undefined) && !statuses.includes('live')) {
      problems.push(tree.at(course, ['status'], 'a live course has at least one live class, but none of its classes is live'));
    }
  }
  for (const klass of tree.classList) {
    const course = tree.courses.get(klass.courseId);
    if (!course) problems.push(tree.at(klass, [], `orphan class: its course file ${coursePath(klass.courseId)} does not exist`));
    else if (course.data && !course.data.classes.includes(klass.classId)) {
      problems.push(tree.at(klass, [], `orphan class: ${course.rel} does not list "${klass.classId}" in its classes`));
    }
  }
}

function checkClasses(tree: Tree, problems: RelProblem[]): void {
  for (const klass of tree.classList) {
    const listed = klass.data?.lessons ?? [];
    const present = tree.lessonsIn(klass.courseId, klass.classId);
    listed.forEach((id, i) => {
      if (present.has(id)) return;
      const guess = suggestion(id, tree.lessonIds(klass.courseId, klass.classId), listed);
      problems.push(
        tree.at(klass, ['lessons', i], `lesson "${id}" is listed but ${lessonPath(klass.courseId, klass.classId, id)} does not exist${guess}`),
      );
    });
  }
  for (const lesson of tree.lessonList) {
    const klass = tree.klass(lesson.courseId, lesson.classId);
    if (!klass) problems.push(tree.at(lesson, [], `orphan lesson: its class file ${classPath(lesson.courseId, lesson.classId)} does not exist`));
    else if (klass.data && !klass.data.lessons.includes(lesson.lessonId)) {
      problems.push(tree.at(lesson, [], `orphan lesson: ${klass.rel} does not list "${lesson.lessonId}" in its lessons`));
    }
  }
}

function checkLessonIds(tree: Tree, problems: RelProblem[]): void {
  // A list only for an id used twice: ten thousand unique ids cost one map, not ten thousand arrays.
  const first = new Map<string, Of<'lesson'>>();
  const shared = new Map<string, Of<'lesson'>[]>();
  for (const lesson of tree.lessonList) {
    const earlier = first.get(lesson.lessonId);
    if (earlier === undefined) first.set(lesson.lessonId, lesson);
    else {
      const same = shared.get(lesson.lessonId);
      if (same) same.push(lesson);
      else shared.set(lesson.lessonId, [earlier, lesson]);
    }
  }
  for (const [id, same] of shared) {
    for (const lesson of same) {
      const others = same
        .filter((l) => l !== lesson)
        .map((l) => l.rel)
        .join(', ');
      problems.push(tree.at(lesson, [], `duplicate lesson id "${id}": also used by ${others} (lesson ids are unique across the catalog)`));
    }
  }
}

function checkRoadmap(tree: Tree, problems: RelProblem[]): void {
  if (!tree.roadmap) {
    problems.push({ rel: ROADMAP_PATH, ...FILE_START, message: 'missing roadmap/index.md: it lists the roadmap stages with their labels and notes' });
  }
  for (const item of tree.items) {
    const shipped = item.data?.shipped;
    if (shipped !== undefined && !tree.entries.has(shipped)) {
      const guess = didYouMean(shipped, tree.entries.keys());
      problems.push(
        tree.at(item, ['shipped'], `"shipped" names the changelog entry "${shipped}", but ${changelogPath(shipped)} does not exist${guess}`),
      );
    }
  }
}

/** A file that may declare `aliases`, with the id it holds now and the scope its ids are unique in. */
interface AliasOwner {
  file: Of<'course'> | Of<'class'> | Of<'lesson'> | Of<'changelog'>;
  id: string;
  /** Where ids of this kind are unique: the kind, and for a class its course. */
  scope: string;
  noun: string;
  live: (id: string) => ParsedFile | undefined;
}

/**
 * Every alias is unique in its scope and is not a live id there (nor the file's own id); collects the table of
 * aliases. Class aliases are scoped by the class's course, like class ids.
 */
function checkAliases(tree: Tree, problems: RelProblem[]): AliasTable {
  // Only files that declare aliases are visited: a reload of 10,000 lessons without any costs one pass, no allocation.
  let lessons: Map<string, Of<'lesson'>> | undefined;
  const lessonNamed = (id: string) => (lessons ??= new Map(tree.lessonList.map((l) => [l.lessonId, l]))).get(id);
  const owners: AliasOwner[] = [];
  for (const file of tree.courses.values()) {
    if (file.data?.aliases) owners.push({ file, id: file.courseId, scope: 'course', noun: 'course', live: (id) => tree.courses.get(id) });
  }
  for (const file of tree.classList) {
    if (file.data?.aliases) {
      owners.push({ file, id: file.classId, scope: `class:${file.courseId}`, noun: 'class', live: (id) => tree.klass(file.courseId, id) });
    }
  }
  for (const file of tree.lessonList) {
    if (file.data?.aliases) owners.push({ file, id: file.lessonId, scope: 'lesson', noun: 'lesson', live: lessonNamed });
  }
  for (const file of tree.entries.values()) {
    if (file.data?.aliases) {
      owners.push({ file, id: file.entryId, scope: 'changelog', noun: 'changelog entry', live: (id) => tree.entries.get(id) });
    }
  }
  const claims = new Map<string, { owner: AliasOwner; index: number }[]>();
  for (const owner of owners) {
    owner.file.data?.aliases?.forEach((alias, index) => {
      const where = ['aliases', index];
      if (alias === owner.id) {
        problems.push(tree.at(owner.file, where, `alias "${alias}" is this ${owner.noun}'s own id: list only the ids it was published under before`));
        return;
      }
      const live = owner.live(alias);
      if (live) {
        problems.push(
          tree.at(owner.file, where, `alias "${alias}" is the id of a live ${owner.noun} (${live.rel}): an alias names an id no longer in use`),
        );
        return;
      }
      const key = `${owner.scope}\u0000${alias}`;
      const list = claims.get(key) ?? [];
      list.push({ owner, index });
      claims.set(key, list);
    });
  }
  const table = {
    courses: new Map<string, string>(),
    classes: new Map<string, Map<string, string>>(),
    lessons: new Map<string, string>(),
    changelog: new Map<string, string>(),
  };
  for (const [key, list] of claims) {
    const alias = key.slice(key.indexOf('\u0000') + 1);
    if (list.length > 1) {
      for (const { owner, index } of list) {
        const others = list
          .filter((c) => c.owner !== owner)
          .map((c) => c.owner.file.rel)
          .join(', ');
        problems.push(tree.at(owner.file, ['aliases', index], `alias "${alias}" is also claimed by ${others}: an old id leads to one ${owner.noun}`));
      }
      continue;
    }
    const { owner } = list[0]!;
    const file = owner.file;
    if (file.kind === 'course') table.courses.set(alias, owner.id);
    else if (file.kind === 'class') child(table.classes, file.courseId).set(alias, owner.id);
    else if (file.kind === 'lesson') table.lessons.set(alias, owner.id);
    else table.changelog.set(alias, owner.id);
  }
  return table;
}

/**
 * The warnings of `files` (what is valid but likely not meant: `ParsedFile.warnings`), by path, line and column. They
 * never make content invalid.
 */
export function fileWarnings(files: Iterable<ParsedFile>): RelProblem[] {
  const out: RelProblem[] = [];
  for (const file of files) for (const w of file.warnings) out.push({ rel: file.rel, ...w });
  return sortProblems(out);
}

function sortProblems(problems: RelProblem[]): RelProblem[] {
  return problems.sort((a, b) => byCodePoint(a.rel, b.rel) || a.line - b.line || a.column - b.column);
}

// Derivation runs only on a valid tree: every lookup below is known to succeed. Each object is derived from its
// file and its children alone (the memo's inputs): a lesson from its file; a class from its file and its lessons'
// files; a course from its file and classes; the catalog from its file and courses; the changelog from its entry
// files; the roadmap from its file and item files. So an edited lesson makes a new lesson, class, course and catalog object,
// and every other object of the model is the previous model's.

function deriveCatalog(tree: Tree, memo: DerivationMemo): Catalog {
  const file = tree.catalog!;
  const courses = file.data!.courses.map((id) => deriveCourse(tree, memo, tree.courses.get(id)!));
  return memo.reuse(file, courses, () => ({ courses }));
}

function deriveCourse(tree: Tree, memo: DerivationMemo, file: Of<'course'>): Course {
  const data = file.data!;
  const classes = data.classes.map((id) => deriveClass(tree, memo, tree.klass(file.courseId, id)!));
  return memo.reuse(file, classes, () => ({
    id: file.courseId,
    title: data.title,
    tagline: data.tagline ?? null,
    blurb: data.blurb ?? null,
    color: data.color,
    status: data.status,
    classes,
    classes_total: classes.length,
    classes_live: classes.filter((k) => k.status === 'live').length,
    lessons_live: classes.reduce((sum, k) => sum + k.lessons_live, 0),
  }));
}

function deriveClass(tree: Tree, memo: DerivationMemo, file: Of<'class'>): Klass {
  const data = file.data!;
  const present = tree.lessonsIn(file.courseId, file.classId);
  // From the lesson files rather than the lessons derived from them (the same thing, as a lesson is derived from its
  // file alone): an unchanged class is known without a memo lookup per lesson.
  const lessonFiles = data.lessons.map((id) => present.get(id)!);
  return memo.reuse(file, lessonFiles, () =>
    classOf(
      file,
      lessonFiles.map((lesson) => deriveLesson(memo, lesson)),
    ),
  );
}

function classOf(file: Of<'class'>, lessons: Lesson[]): Klass {
  const data = file.data!;
  const soon = data.soon ?? [];
  return {
    id: file.classId,
    course_id: file.courseId,
    name: data.name,
    blurb: data.blurb ?? null,
    status: data.status,
    lessons,
    lessons_live: lessons.length,
    lessons_total: lessons.length + soon.length,
    exercises: lessons.reduce((sum, l) => sum + l.steps, 0),
    soon: [...soon],
  };
}

function deriveLesson(memo: DerivationMemo, file: Of<'lesson'>): Lesson {
  const data = file.data!;
  return memo.reuse(file, [], () => ({
    id: file.lessonId,
    course_id: file.courseId,
    class_id: file.classId,
    title: data.title,
    blurb: data.blurb ?? null,
    lang: data.lang,
    steps: file.steps,
  }));
}

function deriveChangelog(tree: Tree, memo: DerivationMemo): Changelog {
  const files = [...tree.entries.values()];
  return memo.reuse(CHANGELOG_KEY, files, () => changelogOf(files));
}

function changelogOf(files: readonly Of<'changelog'>[]): Changelog {
  const entries: ChangelogEntry[] = files.map((file) => {
    const data = file.data!;
    return {
      id: file.entryId,
      date: file.date!,
      kind: data.kind,
      title: data.title,
      blurb: data.blurb,
      body: file.body!,
      deprecates: (data.deprecates ?? []).map((d) => ({ path: d.path, sunset: d.sunset })),
    };
  });
  // Newest first; on the same date, by id.
  entries.sort((a, b) => byCodePoint(b.date, a.date) || byCodePoint(a.id, b.id));
  return { entries };
}

function deriveRoadmap(tree: Tree, memo: DerivationMemo): { roadmap: Roadmap; timeline: RoadmapTimeline } {
  return memo.reuse(ROADMAP_KEY, [tree.roadmap, ...tree.items], () => roadmapOf(tree));
}

function roadmapOf(tree: Tree): { roadmap: Roadmap; timeline: RoadmapTimeline } {
  const all: { order: number | undefined; item: RoadmapItem }[] = [];
  const untilShipped = new Map<RoadmapItem, RoadmapItem['stage']>();
  for (const file of tree.items) {
    const data = file.data!;
    const item: RoadmapItem = { id: file.itemId, title: data.title, theme: data.theme, stage: data.stage, body: file.body! };
    if (data.stage === 'shipped') {
      item.shipped = data.shipped!;
      untilShipped.set(item, data.until_shipped ?? 'building');
    }
    all.push({ order: data.order, item });
  }
  // By order; items without one follow; then by title (and id, so the order never depends on the file system).
  // One order across stages: each stage's items keep it, and so does a stage an item moves to before a date.
  all.sort((a, b) => (a.order ?? Infinity) - (b.order ?? Infinity) || byCodePoint(a.item.title, b.item.title) || byCodePoint(a.item.id, b.item.id));
  const items = all.map((x) => x.item);
  const heads = tree.roadmap!.data!.stages.map((stage) => ({ key: stage.key, label: stage.label, note: stage.note }));
  const stages = heads.flatMap((head) => {
    const list = items.filter((item) => item.stage === head.key);
    return list.length === 0 ? [] : [{ ...head, items: list }];
  });
  return { roadmap: { stages }, timeline: { stages: heads, items, untilShipped } };
}
