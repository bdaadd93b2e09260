/**
 * The boundary between content/ and everything downstream: a folder of Markdown becomes either a valid
 * {@link ContentModel} or a list of {@link Problem}s. Nothing here knows HTTP.
 */
import type { Catalog, Changelog, Roadmap, RoadmapItem, RoadmapStage } from '../schemas/types.generated.js';

/**
 * One thing wrong with the content, located for a writer: printed as `path:line:column: message`.
 * `path` is relative to the content folder's parent-facing root as given to the loader, with `/` separators;
 * `line` and `column` are 1-based and point at the offending frontmatter key (or the file's first line).
 */
export interface Problem {
  path: string;
  line: number;
  column: number;
  message: string;
}

/**
 * A valid content tree with every derived field computed: the API response shapes themselves, so the index
 * only serialises and the pages only render. Never holds lesson step content.
 */
export interface ContentModel {
  /** Git commit of the content folder when it is a Git checkout, otherwise `sha256:<hex>` digest of its files. */
  revision: string;
  /** Every course in display order, with classes, lessons and derived counts. */
  catalog: Catalog;
  /** Entries newest first; on the same date, by id. */
  changelog: Changelog;
  /** Stages shipped, building, next, exploring; empty stages omitted. */
  roadmap: Roadmap;
  /** The ids resources were published under before (their frontmatter's `aliases`). */
  aliases: AliasTable;
  /**
   * What the roadmap is before its shipped items' changelog entries are published (scheduled publishing,
   * `src/content/schedule.ts`). Absent in a model made by hand: its roadmap then never changes with the date.
   */
  roadmapTimeline?: RoadmapTimeline;
}

/**
 * The roadmap's parts a date can change: a shipped item shows in its `until_shipped` stage (default `building`)
 * until the changelog entry its `shipped` names is published.
 */
export interface RoadmapTimeline {
  /** Every stage of `roadmap/index.md` in order, with no items (a stage empty today may fill before a date). */
  readonly stages: readonly Omit<RoadmapStage, 'items'>[];
  /** Every item of the roadmap, in the roadmap's order (order, then title, then id) whatever its stage. */
  readonly items: readonly RoadmapItem[];
  /** Each shipped item (the very object in `items`) → the stage it shows in before its entry is published. */
  readonly untilShipped: ReadonlyMap<RoadmapItem, RoadmapItem['stage']>;
}

/**
 * Old ids that still name a resource, by kind: `old id → current id`. An id is permanent once published; a
 * renamed file keeps its old id in `aliases`, and requests for it are redirected (308) to the current resource.
 * No alias is a live id of its kind, and no alias names two resources. Class ids are unique within their course
 * only, so class aliases are kept per course.
 */
export interface AliasTable {
  readonly courses: ReadonlyMap<string, string>;
  /** By course id (the class's current course): old class id → class id. */
  readonly classes: ReadonlyMap<string, ReadonlyMap<string, string>>;
  readonly lessons: ReadonlyMap<string, string>;
  readonly changelog: ReadonlyMap<string, string>;
}

/**
 * The result of loading a content folder. `warnings` (absent when there is none) are what the content holds that is
 * valid but likely not meant (a comment cutting a value, a code block left open): printed, never a reason to refuse it.
 */
export type LoadResult = { ok: true; model: ContentModel; warnings?: Problem[] } | { ok: false; problems: Problem[]; warnings?: Problem[] };

/** Formats a problem the way every tool prints it: `path:line:column: message`. */
export function formatProblem(p: Problem): string {
  return `${p.path}:${p.line}:${p.column}: ${p.message}`;
}

/** The alias table of content that declares no aliases. */
export const NO_ALIASES: AliasTable = { courses: new Map(), classes: new Map(), lessons: new Map(), changelog: new Map() };
