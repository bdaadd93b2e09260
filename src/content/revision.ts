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
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { sortByCodePoint } from './order.js';

const GIT_TIMEOUT_MS = 5_000;

/** A file as the digest sees it: never changed once made (the loader's parsed files are kept across loads). */
interface DigestedFile {
  readonly rel: string;
  readonly sha256: string;
}

/**
 * The line each file adds to the digest, kept per file object: building 10,000 lines again was most of the
 * digest's cost on every reload, and an unchanged file is the very same object in the next load.
 */
const lineOf = new WeakMap<DigestedFile, string>();

function relOf(file: DigestedFile): string {
  return file.rel;
}

/**
 * The digest of a set of files: SHA-256 over their relative paths and the SHA-256 of their bytes, in path
 * order (by code point, order.ts). Returned as `sha256:<hex>`.
 */
export function digestFiles(files: Iterable<DigestedFile>): string {
  const hash = createHash('sha256');
  for (const f of sortByCodePoint([...files], relOf)) {
    let line = lineOf.get(f);
    if (line === undefined) lineOf.set(f, (line = `${f.rel}\0${f.sha256}\n`));
    hash.update(line);
  }
  return `sha256:${hash.digest('hex')}`;
}

/**
 * Whether `git` could find a work tree for `dir`: a `.git` entry (a folder, or the file of a linked worktree or
 * submodule) in `dir` or a folder above it, or a repository named by the environment (`GIT_DIR`, `GIT_WORK_TREE`).
 * Without one, `git status` can only fail; spawning it costs about 10 ms of the main thread on every reload of a
 * large process, so it is not spawned.
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
  const out = await new Promise<string | undefined>((resolve) => {
    execFile(
      'git',
      ['-C', dir, 'status', '--porcelain=v2', '--branch', '--untracked-files=all', '--ignored=no', '--', '.'],
      { timeout: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } },
      (err, stdout) => resolve(err ? undefined : stdout),
    );
  });
  if (out === undefined) return undefined;
  let commit: string | undefined;
  let dirty = false;
  for (const line of out.split('\n')) {
    if (line.startsWith('# branch.oid ')) commit = line.slice('# branch.oid '.length).trim();
    else if (line !== '' && !line.startsWith('#') && /\.md"?$/.test(line)) dirty = true;
  }
  if (!commit || !/^[0-9a-f]{40,64}$/.test(commit)) return undefined; // "(initial)": no commit yet
  return { commit, dirty };
}

/**
 * The revision of a folder in the Git state `git` ({@link gitState}: `undefined` outside a checkout) whose
 * Markdown files are `files`.
 * @see the module comment for the three forms.
 */
export function revisionOf(git: { commit: string; dirty: boolean } | undefined, files: Iterable<DigestedFile>): string {
  if (!git) return digestFiles(files);
  if (!git.dirty) return git.commit;
  return `${git.commit}-dirty-${digestFiles(files).slice('sha256:'.length, 'sha256:'.length + 12)}`;
}
