/**
 * The boundary between content/ and everything downstream: a folder of Markdown becomes either a valid
 * {@link ContentModel} or a list of {@link Problem}s. Nothing here knows HTTP.
 */
import type { Catalog, Changelog, Roadmap } from '../schemas/types.generated.js';

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

/** The result of loading a content folder. */
export type LoadResult = { ok: true; model: ContentModel } | { ok: false; problems: Problem[] };

/** Formats a problem the way every tool prints it: `path:line:column: message`. */
export function formatProblem(p: Problem): string {
  return `${p.path}:${p.line}:${p.column}: ${p.message}`;
}

/** The alias table of content that declares no aliases. */
export const NO_ALIASES: AliasTable = { courses: new Map(), classes: new Map(), lessons: new Map(), changelog: new Map() };
