/**
 * Writes what the content layer reads of one commit's content folder, and nothing else: its Markdown files and
 * its symbolic links (which the loader reports as problems), selected by the loader's own rule (`read-tree.ts`).
 * Other files (images, videos, archives) never reach the disk, and nothing is read from a commit whose files are
 * larger than the loader accepts, or whose Markdown is larger than the configured bound: those are content
 * problems at that commit, like invalid frontmatter, and the previous revision stays served.
 *
 * The repository is a partial clone: blobs over {@link MAX_FILE_BYTES} are never fetched, so such a file is known
 * only as a missing object (`rev-list --missing=print`), never downloaded to learn its size.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FILE_TOO_LARGE, MAX_FILE_BYTES, SUBMODULE_PROBLEM, treeEntryKind, type Problem } from '../content/index.js';
import { GitError, runGit } from '../git/run.js';

/** Longest file name component most file systems accept, in bytes. */
const MAX_NAME_BYTES = 255;

/** Where and how to write a checkout. */
export interface CheckoutTarget {
  /** The bare repository. */
  repo: string;
  /** The commit (a full id). */
  commit: string;
  /** The content folder inside the repository, `/`-separated; `.` for the root. */
  path: string;
  /** The folder to create (must not exist); written through a temporary sibling renamed into place. */
  dir: string;
  /** Largest total size of the files written, in bytes. */
  maxTotalBytes: number;
  /** Time limit of each git command, in milliseconds. */
  timeoutMs: number;
}

/** One entry of the content folder's tree. */
interface TreeEntry {
  mode: string;
  oid: string;
  /** Path relative to the content folder. */
  rel: string;
}

/**
 * Writes the checkout (see the module comment).
 * @returns the problems that kept it from being written (each at its path, as a writer sees it in the repository),
 *   or `[]` once `target.dir` holds the content. A commit without the content folder is one problem.
 * @throws GitError when git fails on the repository (a missing commit, a timeout); the file system's error when
 *   writing fails (disk full).
 */
export async function writeCheckout(target: CheckoutTarget): Promise<Problem[]> {
  const { repo, commit, path, timeoutMs } = target;
  const shown = (rel: string): string => (path === '.' ? rel : rel === '' ? path : `${path}/${rel}`);
  const at = (rel: string, message: string): Problem => ({ path: shown(rel), line: 1, column: 1, message });
  const tree = path === '.' ? `${commit}^{tree}` : `${commit}:${path}`;
  const type = await runGit(['--git-dir', repo, 'cat-file', '-t', '--end-of-options', tree], { timeoutMs }).catch(() => '');
  if (type.trim() !== 'tree') return [at('', `the content folder "${path}" does not exist in commit ${commit.slice(0, 12)}`)];

  const problems: Problem[] = [];
  const wanted: TreeEntry[] = [];
  for (const entry of await listTree(repo, tree, timeoutMs)) {
    const kind = treeEntryKind(entry.rel, entry.mode);
    // A submodule holds nothing in the commit: a problem at its path, as in a folder (read-tree.ts).
    if (kind === 'submodule') problems.push(at(entry.rel, SUBMODULE_PROBLEM));
    if (kind !== 'markdown' && kind !== 'link') continue;
    if (entry.rel.split('/').some((name) => Buffer.byteLength(name) > MAX_NAME_BYTES)) {
      problems.push(at(entry.rel, `a file or folder name longer than ${MAX_NAME_BYTES} bytes, which no file system holds`));
      continue;
    }
    wanted.push(entry);
  }
  const missing = await missingObjects(repo, tree, timeoutMs);
  const present = wanted.filter((e) => !missing.has(e.oid));
  for (const e of wanted) if (missing.has(e.oid)) problems.push(at(e.rel, FILE_TOO_LARGE));
  const sizes = await objectSizes(repo, present, timeoutMs);
  let total = 0;
  present.forEach((e, i) => {
    const size = sizes[i]!;
    if (size > MAX_FILE_BYTES) problems.push(at(e.rel, FILE_TOO_LARGE));
    total += size;
  });
  if (total > target.maxTotalBytes) {
    problems.push(
      at(
        '',
        `the content holds ${bytes(total)} of files the service reads, more than the limit of ${bytes(target.maxTotalBytes)} (CONTENT_GIT_MAX_MIB)`,
      ),
    );
  }
  if (problems.length > 0) return problems;
  await writeEntries(target, present);
  return [];
}

/** A size for people: `12.3 KiB`, `4.0 MiB`. */
function bytes(n: number): string {
  return n >= 1048576 ? `${(n / 1048576).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`;
}

/** Every blob and link of `tree`, recursively (`ls-tree` without `--long`: no blob is read, none fetched). */
async function listTree(repo: string, tree: string, timeoutMs: number): Promise<TreeEntry[]> {
  const out = await runGit(['--git-dir', repo, 'ls-tree', '-r', '-z', '--end-of-options', tree], { timeoutMs, maxOutputBytes: 64 * 1024 * 1024 });
  const entries: TreeEntry[] = [];
  for (const record of out.split('\0')) {
    if (record === '') continue;
    // <mode> SP <type> SP <object> TAB <path>
    const m = /^(\d{6}) \w+ ([0-9a-f]+)\t([^]*)$/.exec(record);
    if (!m) throw new GitError('failed', `unexpected git ls-tree output: ${JSON.stringify(record.slice(0, 100))}`);
    entries.push({ mode: m[1]!, oid: m[2]!, rel: m[3]! });
  }
  return entries;
}

/** The objects of `tree` the partial clone does not hold (blobs the fetch's size filter left on the remote). */
async function missingObjects(repo: string, tree: string, timeoutMs: number): Promise<Set<string>> {
  const out = await runGit(['--git-dir', repo, 'rev-list', '--objects', '--missing=print', '--no-object-names', '--end-of-options', tree], {
    timeoutMs,
    maxOutputBytes: 64 * 1024 * 1024,
  });
  const missing = new Set<string>();
  for (const line of out.split('\n')) if (line.startsWith('?')) missing.add(line.slice(1));
  return missing;
}

/** The sizes of `entries`' blobs (all present), in bytes, in order. */
async function objectSizes(repo: string, entries: readonly TreeEntry[], timeoutMs: number): Promise<number[]> {
  if (entries.length === 0) return [];
  const out = await runGit(['--git-dir', repo, 'cat-file', '--batch-check=%(objectsize)'], {
    timeoutMs,
    input: entries.map((e) => `${e.oid}\n`).join(''),
    maxOutputBytes: 64 * 1024 * 1024,
  });
  const sizes = out.split('\n').slice(0, entries.length).map(Number);
  if (sizes.length !== entries.length || sizes.some((n) => !Number.isSafeInteger(n)))
    throw new GitError('failed', 'cat-file did not print every size');
  return sizes;
}

/** Writes `entries` through a private index into a temporary sibling of `target.dir`, then renames it into place. */
async function writeEntries(target: CheckoutTarget, entries: readonly TreeEntry[]): Promise<void> {
  const tmp = join(target.dir, '..', `.tmp-${target.commit}-${randomBytes(4).toString('hex')}`);
  const index = `${tmp}.index`;
  try {
    await mkdir(tmp);
    const options = { timeoutMs: target.timeoutMs, env: { GIT_INDEX_FILE: index } };
    const git = ['--git-dir', target.repo, '--work-tree', tmp];
    await runGit([...git, 'update-index', '-z', '--index-info'], {
      ...options,
      input: entries.map((e) => `${e.mode} ${e.oid}\t${e.rel}\0`).join(''),
    });
    await runGit([...git, 'checkout-index', '--all', '--force'], options);
    await rename(tmp, target.dir);
  } finally {
    await rm(tmp, { recursive: true, force: true });
    await rm(index, { force: true });
  }
}
