/**
 * The revision of a content tree: its Git commit when the folder is inside a Git checkout, otherwise a
 * digest of its files.
 *
 * - Clean checkout: the commit id of `HEAD` (40 hex digits).
 * - Checkout with uncommitted or untracked `.md` changes under the folder: `<commit>-dirty-<12 hex>`, the
 *   suffix being the start of the file digest, so two different dirty states never share a revision.
 * - Not a checkout (or `git` missing, or a repository without commits): `sha256:<hex>`.
 *
 * One `git status --porcelain=v2 --branch` call per build answers both "which commit" and "is it dirty".
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isCommitId, runGit } from '../git/run.js';
import { sortByCodePoint } from '../contract/order.js';

const GIT_TIMEOUT_MS = 5_000;

/** A file as the digest sees it: never changed once made (the loader's parsed files are kept across loads). */
interface DigestedFile {
  readonly rel: string;
  /** `undefined` when the file was parsed without its hash: a bug of the caller, as no digest can be made. */
  readonly sha256: string | undefined;
}

function relOf(file: DigestedFile): string {
  return file.rel;
}

/** How many files' lines one cached piece of the digested text holds. */
const FILES_PER_PIECE = 64;

/**
 * The digest of a folder's files kept from one load to the next (one per loader), with the same value as
 * {@link digestFiles}. The text it hashes is kept in pieces of {@link FILES_PER_PIECE} files: when every file
 * is the very same object as the one at its place in the last digest, or has that one's path (an edit), the
 * files are in path order already and only the pieces holding a changed file are made again. A one-lesson reload
 * of 10,000 lessons hashed 11,240 lines, one `update` each, after a pass comparing their paths; now it compares
 * 11,240 references, makes one piece and hashes 176 of them.
 */
export class FolderDigest {
  /** The files of the last digest, in path order. */
  #files: readonly DigestedFile[] = [];
  /** The hashed text of the last digest, piece by piece. */
  #pieces: readonly string[] = [];

  /** The digest of `files` (any order), as {@link digestFiles} defines it. */
  of(files: readonly DigestedFile[]): string {
    const before = this.#files;
    const inOrder = samePlaces(files, before) ? [...files] : sortByCodePoint([...files], relOf);
    const pieces: string[] = [];
    const hash = createHash('sha256');
    for (let start = 0; start < inOrder.length; start += FILES_PER_PIECE) {
      const end = Math.min(start + FILES_PER_PIECE, inOrder.length);
      let piece = this.#pieces[start / FILES_PER_PIECE];
      if (piece === undefined || !sameRange(inOrder, before, start, end)) {
        piece = '';
        for (let i = start; i < end; i++) piece += `${inOrder[i]!.rel}\0${sha256Of(inOrder[i]!)}\n`;
      }
      pieces.push(piece);
      hash.update(piece);
    }
    this.#files = inOrder;
    this.#pieces = pieces;
    return `sha256:${hash.digest('hex')}`;
  }
}

/** The file's hash. @throws Error when it was parsed without one (`ParseOptions.digest`). */
function sha256Of(file: DigestedFile): string {
  if (file.sha256 === undefined) throw new Error(`${file.rel} was parsed without its hash: no folder digest can be made`);
  return file.sha256;
}

/** Whether each of `files` is the file at its place in `before`, or has its path: then both are in the same order. */
function samePlaces(files: readonly DigestedFile[], before: readonly DigestedFile[]): boolean {
  if (files.length !== before.length) return false;
  for (let i = 0; i < files.length; i++) if (files[i] !== before[i] && files[i]!.rel !== before[i]!.rel) return false;
  return true;
}

/** Whether `a` and `b` hold the very same files from `start` to `end` (exclusive). */
function sameRange(a: readonly DigestedFile[], b: readonly DigestedFile[], start: number, end: number): boolean {
  if (b.length < end) return false;
  for (let i = start; i < end; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The digest of a set of files: SHA-256 over their relative paths and the SHA-256 of their bytes, each file's
 * line `<path>\0<sha256>\n`, in path order (by code point, src/contract/order.ts). Returned as `sha256:<hex>`.
 */
export function digestFiles(files: Iterable<DigestedFile>): string {
  return new FolderDigest().of([...files]);
}

/**
 * Whether `git` could find a work tree for `dir`: a `.git` entry (a folder, or the file of a linked worktree or
 * submodule) in `dir` or a folder above it, or a repository named by the environment (`GIT_DIR`, `GIT_WORK_TREE`).
 * Without one, `git status` can only fail, and spawning it blocks the main thread of a large process on
 * every reload, so it is not spawned.
 */
function mayBeInCheckout(dir: string): boolean {
  if (process.env.GIT_DIR !== undefined || process.env.GIT_WORK_TREE !== undefined) return true;
  for (let folder = resolve(dir); ; folder = dirname(folder)) {
    if (existsSync(join(folder, '.git'))) return true;
    if (dirname(folder) === folder) return false;
  }
}

/** The Git state of a folder, or `undefined` when it is not inside a Git checkout with a commit. */
export async function gitState(dir: string): Promise<{ commit: string; dirty: boolean } | undefined> {
  if (!mayBeInCheckout(dir)) return undefined;
  const out = await runGit(['-C', dir, 'status', '--porcelain=v2', '--branch', '--untracked-files=all', '--ignored=no', '--', '.'], {
    timeoutMs: GIT_TIMEOUT_MS,
    maxOutputBytes: 64 * 1024 * 1024,
  }).catch(() => undefined); // not a checkout after all, or git missing: the digest is the revision
  if (out === undefined) return undefined;
  let commit: string | undefined;
  let dirty = false;
  for (const line of out.split('\n')) {
    if (line.startsWith('# branch.oid ')) commit = line.slice('# branch.oid '.length).trim();
    else if (line !== '' && !line.startsWith('#') && /\.md"?$/.test(line)) dirty = true;
  }
  if (!commit || !isCommitId(commit)) return undefined; // "(initial)": no commit yet
  return { commit, dirty };
}

/**
 * The revision of a folder in the Git state `git` ({@link gitState}: `undefined` outside a checkout), given the
 * digest of its Markdown files (called only when the revision needs it).
 * @see the module comment for the three forms.
 */
export function revisionOf(git: { commit: string; dirty: boolean } | undefined, digest: () => string): string {
  if (!git) return digest();
  if (!git.dirty) return git.commit;
  return `${git.commit}-dirty-${digest().slice('sha256:'.length, 'sha256:'.length + 12)}`;
}
