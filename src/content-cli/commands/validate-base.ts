/**
 * `syllabus-content validate --base <ref>`: after the usual checks of the working folder, every id the content
 * published at `ref` (courses, classes, lessons, changelog entries, live or as aliases) must still lead to a
 * resource ({@link brokenIds}); each one that does not is a problem like the others.
 */
import { GitContentError, type ContentModel, type ParsedFile, type Problem } from '../../content/index.js';
import { brokenIds, ModelIndex } from '../published-ids.js';
import { brokenIdProblems, folderDisplay, frontmatterOf, loadRef, removalsOf, resolveRef, type CommandIo } from './published-at.js';

/** The check of the working folder's model against the base, once the base is loaded. */
export interface BaseCheck {
  /**
   * The broken ids of `head` (the working folder's valid model) as problems; `[]` when the base is not valid.
   * @param files the folder's files as its loader parsed them (`ContentLoader.parsedFiles`)
   */
  problems(head: ContentModel, files: ReadonlyMap<string, ParsedFile>): Promise<Problem[]>;
}

/**
 * Resolves and loads the base before the folder is checked, so a bad ref is a usage error before anything else.
 * @param dir the content folder, absolute
 * @param displayDir the folder as the user wrote it (problems are printed under it)
 * @returns the check, or `undefined` after printing why the ref cannot be used (exit status 2)
 */
export async function prepareBaseCheck(
  dir: string,
  displayDir: string,
  ref: string,
  io: Pick<CommandIo, 'stderr' | 'now'>,
): Promise<BaseCheck | undefined> {
  let base;
  try {
    const { repo, commit } = await resolveRef(dir, ref);
    base = await loadRef(repo, ref, commit);
  } catch (err) {
    if (!(err instanceof GitContentError)) throw err;
    io.stderr(`syllabus-content: --base: ${err.message}`);
    return undefined;
  }
  const { result, short } = base;
  if (!result.ok) {
    const n = result.problems.length;
    // Its problems are not printed: they name files of the base, not of the change being checked.
    io.stderr(
      `syllabus-content: the base ${ref} (${short}) is not valid content (${n} problem${n === 1 ? '' : 's'}); ` +
        'the check of the ids it published is skipped',
    );
    return { problems: () => Promise.resolve([]) };
  }
  const published = new ModelIndex(result.model);
  return {
    async problems(model, files) {
      const head = new ModelIndex(model, removalsOf(files));
      const broken = brokenIds(published, head, io.now?.() ?? new Date());
      if (broken.length === 0) io.stderr(`${displayDir}: every id published at ${ref} (${short}) still leads to its resource`);
      return brokenIdProblems(broken, head, short, frontmatterOf(files), folderDisplay(displayDir));
    },
  };
}
