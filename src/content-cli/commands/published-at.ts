/**
 * What `validate --base` and `diff` share: the content at a Git ref of the repository that holds the content
 * folder, and the broken ids of a change as problems located in the new revision's files.
 */
import { posix, sep } from 'node:path';
import {
  FrontmatterLocator,
  loadContentAtCommit,
  locateRepository,
  resolveCommit,
  type CommitContent,
  type ContentModel,
  type ContentRepository,
  type ParsedFile,
  type Problem,
} from '../../content/index.js';
import { brokenIdMessage, fixLocation, Removals, type BrokenId, type ModelIndex } from '../published-ids.js';

/** Where a command writes, and its environment (the shape of `CliIo` in `../main.ts`). */
export interface CommandIo {
  stdout(line: string): void;
  stderr(line: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Clock (default the system's): which changelog entries were published yet. */
  now?: () => Date;
}

/** The content of one ref: its commit and what loading it gave. */
export interface RefContent extends CommitContent {
  ref: string;
  commit: string;
  /** The commit id's first 7 digits, as messages name it. */
  short: string;
}

/**
 * Resolves `ref` in the repository holding the content folder `dir` (absolute), without loading anything yet.
 * @throws GitContentError (a usage error) when `dir` is not in a Git work tree or `ref` names no commit.
 */
export async function resolveRef(dir: string, ref: string): Promise<{ repo: ContentRepository; commit: string }> {
  const repo = await locateRepository(dir);
  return { repo, commit: await resolveCommit(repo, ref) };
}

/** Loads the content folder as it is at `commit` (from {@link resolveRef}). */
export async function loadRef(repo: ContentRepository, ref: string, commit: string): Promise<RefContent> {
  const short = commit.slice(0, 7);
  return { ref, commit, short, ...(await loadContentAtCommit(repo, commit)) };
}

/** What a base published: a model, none at all (no content folder yet), or problems saying why it cannot be told. */
export type PublishedBase = { model: ContentModel } | { model: undefined; problems: Problem[] };

/**
 * The model whose ids a change must keep, by one rule for `validate --base` and `diff`: the base's when it is valid;
 * when it is not valid only because of entries it does not read (a submodule, a link: read-tree.ts), the model of
 * the files it holds, saying so on stderr; nothing when the commit has no content folder (it published no id). Any
 * other invalid base cannot be checked against: its problems, each saying so, fail the check (never a silent pass).
 */
export function publishedBase(base: RefContent, stderr: (line: string) => void): PublishedBase {
  const { result, short, ref } = base;
  if (result.ok) return { model: result.model };
  const n = result.problems.length;
  const counted = `${n} problem${n === 1 ? '' : 's'}`;
  if (base.readable) {
    stderr(
      `syllabus-content: the base ${ref} (${short}) is not valid content (${counted}: ${result.problems.map((p) => p.path).join(', ')} ` +
        'holding no content it reads); checking the ids of the files it holds',
    );
    return { model: base.readable };
  }
  if (base.empty) {
    stderr(`syllabus-content: the base ${ref} (${short}) has no content folder: it published no id`);
    return { model: undefined, problems: [] };
  }
  const why = `the base ${ref} (${short}) is not valid content, so the ids it published cannot be checked (fix the base branch, or name a valid commit)`;
  return { model: undefined, problems: result.problems.map((p) => ({ ...p, message: `${why}: ${p.message}` })) };
}

/**
 * How a ref is named in a summary: `` `origin/main` (abc1234) ``, or the short commit alone when the ref is a
 * commit id.
 */
export function refLabel(content: RefContent, code: (s: string) => string): string {
  return /^[0-9a-f]{4,64}$/.test(content.ref) && content.commit.startsWith(content.ref)
    ? code(content.short)
    : `${code(content.ref)} (${content.short})`;
}

/** Reads a file's frontmatter (to locate a key in it), or `undefined` when it is not there. */
export type FrontmatterOf = (rel: string) => Promise<string | undefined>;

/**
 * The removals the changelog of a revision announces, from its parsed files (a commit's, {@link loadRef}; a folder's,
 * `ContentLoader.parsedFiles`).
 */
export function removalsOf(files: ReadonlyMap<string, ParsedFile>): Removals {
  return Removals.of([...files.values()].flatMap((file) => (file.kind === 'changelog' ? [file] : [])));
}

/** {@link FrontmatterOf} for a revision's parsed files (a commit's or a folder's). */
export function frontmatterOf(files: ReadonlyMap<string, ParsedFile>): FrontmatterOf {
  return (rel) => Promise.resolve(files.get(rel)?.yaml);
}

/**
 * The broken ids as problems, each at the list of the new revision that should still lead to it
 * ({@link fixLocation}), in the order given.
 * @param published how the base is named in messages (its short commit id)
 * @param display the path printed for a file of the new revision (relative to the content folder)
 */
export async function brokenIdProblems(
  broken: readonly BrokenId[],
  head: ModelIndex,
  published: string,
  frontmatterOf: FrontmatterOf,
  display: (rel: string) => string,
): Promise<Problem[]> {
  const locators = new Map<string, FrontmatterLocator | undefined>();
  const problems: Problem[] = [];
  for (const id of broken) {
    const { rel, key } = fixLocation(id, head);
    if (!locators.has(rel)) {
      const yaml = await frontmatterOf(rel);
      locators.set(rel, yaml === undefined ? undefined : new FrontmatterLocator(yaml));
    }
    const at = key.length > 0 ? locators.get(rel)?.at(key) : undefined;
    problems.push({ path: display(rel), line: at?.line ?? 1, column: at?.column ?? 1, message: brokenIdMessage(id, published) });
  }
  return problems;
}

/**
 * The paths of problems in a folder the user named `dir`, as the loader prints them (`dir` joined with the
 * file's path, `/`-separated; nothing for `.`).
 */
export function folderDisplay(dir: string): (rel: string) => string {
  const root = dir.split(sep).join('/').replace(/\/+$/, '');
  return (rel) => (root === '' || root === '.' ? rel : posix.join(root, rel));
}
