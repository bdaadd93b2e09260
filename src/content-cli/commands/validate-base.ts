/**
 * `syllabus-content validate --base <ref>`: after the usual checks of the working folder, every id the content
 * published at `ref` (courses, classes, lessons, changelog entries, live or as aliases) must still lead to a
 * resource ({@link brokenIds}); each one that does not is a problem like the others.
 */
import { GitContentError, type ContentModel, type ParsedFile, type Problem } from '../../content/index.js';
import { brokenIds, ModelIndex } from '../published-ids.js';
import { brokenIdProblems, folderDisplay, frontmatterOf, loadRef, publishedBase, removalsOf, resolveRef, type CommandIo } from './published-at.js';

/** The check of the working folder's model against the base, once the base is loaded. */
export interface BaseCheck {
  /**
   * The broken ids of `head` (the working folder's valid model) as problems; when the base cannot be checked against
   * ({@link publishedBase}), its problems.
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
  const { short } = base;
  const at = publishedBase(base, (line) => io.stderr(line));
  if (at.model === undefined) return { problems: () => Promise.resolve(at.problems) };
  const published = new ModelIndex(at.model);
  return {
    async problems(model, files) {
      const head = new ModelIndex(model, removalsOf(files));
      const broken = brokenIds(published, head, io.now?.() ?? new Date());
      if (broken.length === 0) io.stderr(`${displayDir}: every id published at ${ref} (${short}) still leads to its resource`);
      return brokenIdProblems(broken, head, short, frontmatterOf(files), folderDisplay(displayDir));
    },
  };
}
