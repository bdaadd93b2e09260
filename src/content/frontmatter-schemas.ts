/**
 * Which schema of `schemas/frontmatter/` each kind of content file follows.
 */
import type { FileKind } from './layout.js';

/** The schema of each kind of content file, relative to `schemas/`. */
export const SCHEMA_FILES: Readonly<Record<FileKind, string>> = {
  catalog: 'frontmatter/catalog.schema.json',
  course: 'frontmatter/course.schema.json',
  class: 'frontmatter/class.schema.json',
  lesson: 'frontmatter/lesson.schema.json',
  changelog: 'frontmatter/changelog-entry.schema.json',
  roadmap: 'frontmatter/roadmap.schema.json',
  'roadmap-item': 'frontmatter/roadmap-item.schema.json',
};
