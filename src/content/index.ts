/**
 * The content library: what every other layer uses of `src/content` (dependency-cruiser keeps them to this module).
 * A folder of Markdown with YAML frontmatter in (`ContentLoader`), or a Git commit of one (`loadContentAtCommit`), a
 * valid {@link ContentModel} or problems out, each formatted `path:line:column: message` ({@link formatProblem}).
 *
 * ```ts
 * const loaded = await new ContentLoader('content').load();
 * if (!loaded.ok) console.error(loaded.problems.map(formatProblem).join('\n'));
 * ```
 *
 * Its users: `src/source` (watching and following a tree), `src/index` and `src/pages` (the model), `src/server`
 * (the model as published), the live preview and the writers' CLI (`src/content-cli`: problems in a terminal,
 * commits, and the files and rules a new file is checked by).
 */

// Loading: a folder, or a commit of a Git repository.
export { ContentLoader, FILE_TOO_LARGE, MAX_FILE_BYTES } from './loader.js';
export {
  commitPath,
  GitContentError,
  loadContentAtCommit,
  locateRepository,
  resolveCommit,
  type CommitContent,
  type ContentRepository,
} from './git-tree.js';

// The model and its problems.
export { formatProblem, type ContentModel, type LoadResult, type Problem } from './model.js';
export { problemLines, problemStyle, printable } from './print-problems.js';
export { codeFrame, readProblemSource, type ProblemFolder } from './code-frame.js';

// The model as published at an instant.
export { publishedAt, scheduledLines, utcDate, utcMidnight } from './schedule.js';

// A lesson's body as a learner reads it, its steps numbered as they are counted (the writers' preview only).
export { lessonOutline, type LessonOutline, type LessonFence } from './lesson-outline.js';

// What a content tree holds, file by file, and the rules across files.
export {
  folderEntryKind,
  treeEntryKind,
  isGitEntry,
  isHiddenPath,
  LINK_PROBLEM,
  SUBMODULE_PROBLEM,
  listContentTree,
  ContentTreeListing,
  type ContentTree,
} from './read-tree.js';
export { CATALOG_PATH, ROADMAP_PATH, changelogPath, classPath, coursePath, lessonPath } from './layout.js';
export { parseFile, STAGE_ORDER, type ParsedFile } from './parse-file.js';
export { buildModel, type DerivedModel, type RelProblem } from './build-model.js';
export { FrontmatterLocator } from './frontmatter.js';
export { idProblem } from './ids.js';
export { dayNumber } from '../contract/calendar.js';

// One burst of changes, one reload (also for the referrals file).
export { BurstDebouncer } from './burst.js';
