/**
 * What `validate --base` and `diff` share: the content at a Git ref of the repository that holds the content
 * folder, and the broken ids of a change as problems located in the new revision's files.
 */
import { open, readdir } from 'node:fs/promises';
import { join, posix, sep } from 'node:path';
import { FrontmatterLocator, splitFile, type SplitFile } from '../frontmatter.js';
import { loadContentAtCommit, locateRepository, resolveCommit, type CommitContent, type ContentRepository } from '../git-tree.js';
import { MAX_FILE_BYTES } from '../loader.js';
import type { Problem } from '../model.js';
import { roleOf } from '../layout.js';
import type { ChangelogEntryFrontmatter } from '../../schemas/types.generated.js';
import { brokenIdMessage, fixLocation, Removals, type ModelIndex, type PublishedId } from '../published-ids.js';

/** Where a command writes, and its environment (the shape of `CliIo` in `../cli.ts`). */
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

/** {@link FrontmatterOf} for a content folder on disk (`dir` absolute). */
export function folderFrontmatter(dir: string): FrontmatterOf {
  return async (rel) => (await readSplit(dir, rel))?.yaml;
}

/** The file `rel` of the folder `dir` split into frontmatter and body; `undefined` when it is missing or larger than the loader reads. */
async function readSplit(dir: string, rel: string): Promise<SplitFile | undefined> {
  const file = await open(join(dir, ...rel.split('/')), 'r').catch(() => undefined);
  if (!file) return undefined;
  try {
    const { size } = await file.stat();
    if (size > MAX_FILE_BYTES) return undefined;
    return splitFile(await file.readFile('utf8'));
  } finally {
    await file.close();
  }
}

/**
 * The removals the changelog of a content folder announces (`dir` absolute). Call it on a folder that has just
 * loaded as valid: the entries' frontmatter is read again here (the loader keeps it to itself), and trusted.
 */
export async function folderRemovals(dir: string): Promise<Removals> {
  const names = await readdir(join(dir, 'changelog')).catch(() => [] as string[]);
  const entries: { entryId: string; data?: Pick<ChangelogEntryFrontmatter, 'removes'> }[] = [];
  for (const name of names) {
    const role = roleOf(`changelog/${name}`);
    if (role?.kind !== 'changelog') continue;
    const data = (await readSplit(dir, `changelog/${name}`))?.data as Pick<ChangelogEntryFrontmatter, 'removes'> | undefined;
    if (data) entries.push({ entryId: role.entryId, data });
  }
  return Removals.of(entries);
}

/** The removals the changelog of a commit loaded with {@link loadRef} announces. */
export function commitRemovals(content: CommitContent): Removals {
  return Removals.of([...content.files.values()].flatMap((file) => (file.kind === 'changelog' ? [file] : [])));
}

/** {@link FrontmatterOf} for the files of a commit loaded with {@link loadRef}. */
export function commitFrontmatter(content: CommitContent): FrontmatterOf {
  return (rel) => Promise.resolve(content.files.get(rel)?.yaml);
}

/**
 * The broken ids as problems, each at the list of the new revision that should still lead to it
 * ({@link fixLocation}), in the order given.
 * @param published how the base is named in messages (its short commit id)
 * @param display the path printed for a file of the new revision (relative to the content folder)
 */
export async function brokenIdProblems(
  broken: readonly PublishedId[],
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
