/**
 * Where each kind of file lives in a content folder, and which ids its path carries.
 *
 * ```
 * catalog.md
 * courses/<course-id>/index.md
 * courses/<course-id>/<class-id>/index.md
 * courses/<course-id>/<class-id>/<lesson-id>.md
 * changelog/<slug>-<YYYY-MM-DD>.md
 * roadmap/index.md
 * roadmap/<slug>.md
 * ```
 */

/** A file's role, decided by its path alone. */
export type FileRole =
  | { kind: 'catalog' }
  | { kind: 'course'; courseId: string }
  | { kind: 'class'; courseId: string; classId: string }
  | { kind: 'lesson'; courseId: string; classId: string; lessonId: string }
  | { kind: 'changelog'; entryId: string }
  | { kind: 'roadmap' }
  | { kind: 'roadmap-item'; itemId: string };

/** The kinds of file in the layout. */
export type FileKind = FileRole['kind'];

/** The layout, as printed in messages about files that do not belong to it. */
export const LAYOUT_SUMMARY =
  'catalog.md, courses/<course>/index.md, courses/<course>/<class>/index.md, courses/<course>/<class>/<lesson>.md, ' +
  'changelog/<slug>-<YYYY-MM-DD>.md, roadmap/index.md, roadmap/<slug>.md';

/**
 * The role of a Markdown file from its path relative to the content folder (`/`-separated), or `undefined`
 * when the path is not part of the layout. Ids are returned as written; their grammar is checked elsewhere.
 */
export function roleOf(rel: string): FileRole | undefined {
  if (!rel.endsWith('.md')) return undefined;
  const parts = rel.slice(0, -3).split('/');
  const [top, a, b, c] = parts;
  switch (parts.length) {
    case 1:
      return top === 'catalog' ? { kind: 'catalog' } : undefined;
    case 2:
      if (top === 'changelog') return { kind: 'changelog', entryId: a! };
      if (top === 'roadmap') return a === 'index' ? { kind: 'roadmap' } : { kind: 'roadmap-item', itemId: a! };
      return undefined;
    case 3:
      return top === 'courses' && b === 'index' ? { kind: 'course', courseId: a! } : undefined;
    case 4:
      if (top !== 'courses') return undefined;
      return c === 'index' ? { kind: 'class', courseId: a!, classId: b! } : { kind: 'lesson', courseId: a!, classId: b!, lessonId: c! };
    default:
      return undefined;
  }
}

/** Path (relative to the content folder) of a course's file. */
export const coursePath = (courseId: string): string => `courses/${courseId}/index.md`;
/** Path of a class's file. */
export const classPath = (courseId: string, classId: string): string => `courses/${courseId}/${classId}/index.md`;
/** Path of a lesson's file. */
export const lessonPath = (courseId: string, classId: string, lessonId: string): string => `courses/${courseId}/${classId}/${lessonId}.md`;
/** Path of the catalog file. */
export const CATALOG_PATH = 'catalog.md';
/** Path of the roadmap's stage list. */
export const ROADMAP_PATH = 'roadmap/index.md';
/** Path of a changelog entry's file. */
export const changelogPath = (entryId: string): string => `changelog/${entryId}.md`;
/** Path of a roadmap item's file. */
export const roadmapItemPath = (itemId: string): string => `roadmap/${itemId}.md`;
