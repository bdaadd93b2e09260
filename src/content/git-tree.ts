/**
 * The content of a Git commit, read without a checkout: the tree listed with `git ls-tree` and the Markdown blobs
 * read through one `git cat-file --batch` process, then parsed and checked by the loader's own functions
 * ({@link parseFile}, {@link buildModel}), so a ref's content is judged exactly like a folder's.
 *
 * The ref comes from a command line or a pull request: it is resolved with `--end-of-options` (never taken as an
 * option), and what is read is bounded (per file like the loader, and in total).
 */
import { GitError, isCommitId, runGit, streamGit } from '../git/run.js';
import { buildModel } from './build-model.js';
import { FILE_TOO_LARGE, MAX_FILE_BYTES } from './loader.js';
import type { LoadResult, Problem } from './model.js';
import { parseFile, type ParsedFile } from './parse-file.js';
import type { ContentModel } from './model.js';
import { LINK_PROBLEM, SUBMODULE_PROBLEM, treeEntryKind } from './read-tree.js';

/** The most Markdown read from one commit, in bytes: several times a large catalog's. */
export const MAX_TREE_BYTES = 256 * 1024 * 1024;

/** Longest run of one `git` command, in milliseconds (reading the blobs of a large catalog included). */
const GIT_TIMEOUT_MS = 120_000;
/** Largest `git ls-tree` listing kept, in bytes (about 100 bytes per entry). */
const MAX_LISTING_BYTES = 64 * 1024 * 1024;

/** A ref, repository or tree that cannot be read: a usage error of the command that was given it. */
export class GitContentError extends Error {
  override readonly name = 'GitContentError';
}

/** Where a content folder sits in a Git repository. */
export interface ContentRepository {
  /** The work tree's top folder (absolute). */
  top: string;
  /** The content folder's path inside the repository, `/`-separated, with a trailing `/`; `''` for the top. */
  prefix: string;
}

/**
 * The repository holding the content folder `dir`, and the folder's path inside it.
 * @throws GitContentError when `dir` is not inside a Git work tree, or `git` is missing.
 */
export async function locateRepository(dir: string): Promise<ContentRepository> {
  const out = await git(['-C', dir, 'rev-parse', '--show-toplevel', '--show-prefix']).catch((err: unknown) => {
    throw new GitContentError(`${dir} is not inside a Git work tree (${complaint(err)})`);
  });
  const [top = '', prefix = ''] = out.split('\n');
  if (top === '') throw new GitContentError(`${dir} is not inside a Git work tree`);
  return { top, prefix };
}

/**
 * The commit id `ref` names in `repo` (a branch, tag, `origin/main`, `HEAD~2`, a commit id…).
 * @throws GitContentError when `ref` is not a commit there, or is not a plausible ref at all.
 */
export async function resolveCommit(repo: ContentRepository, ref: string): Promise<string> {
  // `--end-of-options` already keeps `--output=x` from being an option; these give a clearer message first.
  if (ref === '' || ref.startsWith('-') || /[\u0000-\u001f\u007f]/.test(ref) || ref.length > 1024) {
    throw new GitContentError(`${JSON.stringify(ref)} is not a Git ref (a branch, tag or commit id)`);
  }
  const out = await git(['-C', repo.top, 'rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]).catch(() => undefined);
  const commit = out?.trim();
  if (!commit || !isCommitId(commit)) {
    throw new GitContentError(`${JSON.stringify(ref)} does not name a commit in ${repo.top}${await localBranchNote(repo, ref)}`);
  }
  return commit;
}

/**
 * For a ref `<remote>/<branch>` that names no commit (a clone without that remote, or not fetched) while a local
 * branch `<branch>` exists: a note naming it; else `''`.
 */
async function localBranchNote(repo: ContentRepository, ref: string): Promise<string> {
  const slash = ref.indexOf('/');
  if (slash <= 0 || slash === ref.length - 1) return '';
  const [remote, branch] = [ref.slice(0, slash), ref.slice(slash + 1)];
  const local = await git(['-C', repo.top, 'rev-parse', '--verify', '--quiet', '--end-of-options', `refs/heads/${branch}^{commit}`]).catch(() => '');
  if (!isCommitId(local.trim())) return '';
  const remotes = await git(['-C', repo.top, 'remote']).catch(() => '');
  const why = remotes.split('\n').includes(remote)
    ? `the remote "${remote}" has no branch "${branch}" fetched here (git fetch ${remote} ${branch})`
    : `this repository has no remote "${remote}"`;
  return `: ${why}, but the local branch "${branch}" exists (name it as ${JSON.stringify(branch)})`;
}

/**
 * How a file of the content folder at `commit` is named in problems: git's `<commit>:<path>` syntax with the short
 * commit id (`git show 1d17336:content/catalog.md` shows it); `rel` `''` names the folder itself.
 */
export function commitPath(repo: ContentRepository, commit: string, rel: string): string {
  return `${commit.slice(0, 7)}:${`${repo.prefix}${rel}`.replace(/\/$/, '') || '.'}`;
}

/** Options of {@link loadContentAtCommit}. */
export interface GitTreeOptions {
  /** The most Markdown read, in bytes (default {@link MAX_TREE_BYTES}). */
  maxTotalBytes?: number;
}

/** The content of a commit: the load result, and its parsed files (to locate keys in them). */
export interface CommitContent {
  result: LoadResult;
  /** Every parsed Markdown file, by path relative to the content folder. */
  files: ReadonlyMap<string, ParsedFile>;
  /** Whether the commit holds nothing at the content folder's path (before the folder existed). */
  empty: boolean;
  /**
   * When the commit is not valid only because of entries it does not read (links, submodules, files too large), the
   * model of the files it holds: what a check of the ids it published can use (its revision is the commit id).
   */
  readable?: ContentModel;
}

/**
 * Loads the content folder of `repo` as it is at `commit` (a full commit id from {@link resolveCommit}). The
 * model's revision is the commit id. Never throws for bad content: links, submodules and files that are too
 * large are problems at their paths, like the loader's (read-tree.ts states the rule).
 * @throws GitContentError when git fails (a missing object, a timeout).
 */
export async function loadContentAtCommit(repo: ContentRepository, commit: string, options: GitTreeOptions = {}): Promise<CommitContent> {
  const at = (rel: string, message: string): Problem => ({ path: commitPath(repo, commit, rel), line: 1, column: 1, message });
  const entries = await listTree(repo, commit);
  const empty = entries.length === 0;
  const problems: Problem[] = [];
  const wanted: TreeEntry[] = [];
  let total = 0;
  for (const entry of entries) {
    const kind = treeEntryKind(entry.rel, entry.mode);
    if (kind === 'submodule') problems.push(at(entry.rel, SUBMODULE_PROBLEM));
    if (kind === 'link') problems.push(at(entry.rel, LINK_PROBLEM));
    if (kind !== 'markdown') continue;
    if (entry.size > MAX_FILE_BYTES) {
      problems.push(at(entry.rel, FILE_TOO_LARGE));
      continue;
    }
    total += entry.size;
    wanted.push(entry);
  }
  const limit = options.maxTotalBytes ?? MAX_TREE_BYTES;
  if (total > limit) {
    const mib = (n: number): string => `${Math.ceil(n / 1048576)} MiB`;
    problems.push({
      path: commitPath(repo, commit, ''),
      line: 1,
      column: 1,
      message: `the content holds ${mib(total)} of Markdown, more than the ${mib(limit)} read from a commit`,
    });
    return { result: { ok: false, problems }, files: new Map(), empty };
  }
  const files = new Map<string, ParsedFile>();
  await readBlobs(
    repo,
    wanted.map((e) => e.oid),
    (i, bytes) => {
      const rel = wanted[i]!.rel;
      files.set(rel, parseFile(rel, bytes, { digest: false })); // the revision is the commit
    },
  );
  const built = buildModel([...files.values()]);
  problems.push(...built.problems.map((p) => ({ path: commitPath(repo, commit, p.rel), line: p.line, column: p.column, message: p.message })));
  const model = built.model && { revision: commit, ...built.model };
  if (!model) return { result: { ok: false, problems }, files, empty };
  return problems.length > 0 ? { result: { ok: false, problems }, files, empty, readable: model } : { result: { ok: true, model }, files, empty };
}

interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
  size: number;
  /** Path relative to the content folder. */
  rel: string;
}

/** Every entry under the content folder at `commit` (recursively; folders themselves are not listed). */
async function listTree(repo: ContentRepository, commit: string): Promise<TreeEntry[]> {
  // --literal-pathspecs: the folder's name is a path, never a glob; --full-tree: paths from the top.
  const args = ['--literal-pathspecs', '-C', repo.top, 'ls-tree', '-r', '-z', '--long', '--full-tree', commit];
  if (repo.prefix !== '') args.push('--', repo.prefix);
  const out = await git(args, MAX_LISTING_BYTES).catch((err: unknown) => {
    throw new GitContentError(`cannot list the tree of ${commit}: ${complaint(err)}`);
  });
  const entries: TreeEntry[] = [];
  for (const record of out.split('\0')) {
    if (record === '') continue;
    // <mode> SP <type> SP <object> SP+ <size> TAB <path>
    const m = /^(\d{6}) (\w+) ([0-9a-f]+) +(\d+|-)\t([^]*)$/.exec(record);
    if (!m) throw new GitContentError(`unexpected git ls-tree output: ${JSON.stringify(record.slice(0, 100))}`);
    const path = m[5]!;
    if (!path.startsWith(repo.prefix)) continue;
    entries.push({ mode: m[1]!, type: m[2]!, oid: m[3]!, size: m[4] === '-' ? 0 : Number(m[4]), rel: path.slice(repo.prefix.length) });
  }
  return entries;
}

/**
 * Reads the blobs `oids` with one `git cat-file --batch` process and hands each one's bytes to `onBlob` with its
 * index, in order. Each buffer is the blob's own (safe to keep).
 */
async function readBlobs(repo: ContentRepository, oids: readonly string[], onBlob: (index: number, bytes: Uint8Array) => void): Promise<void> {
  if (oids.length === 0) return;
  let next = 0;
  // The header being read, or the blob being filled.
  let header = Buffer.alloc(0);
  let blob: { bytes: Buffer; filled: number } | undefined;
  let needNewline = false;
  const unexpected = (): GitContentError => new GitContentError('unexpected git cat-file output');
  const onData = (chunk: Buffer): void => {
    let at = 0;
    while (at < chunk.length) {
      if (blob) {
        const n = Math.min(blob.bytes.length - blob.filled, chunk.length - at);
        chunk.copy(blob.bytes, blob.filled, at, at + n);
        blob.filled += n;
        at += n;
        if (blob.filled === blob.bytes.length) {
          onBlob(next++, blob.bytes);
          blob = undefined;
          needNewline = true;
        }
      } else if (needNewline) {
        if (chunk[at] !== 0x0a) throw unexpected();
        needNewline = false;
        at++;
      } else {
        const end = chunk.indexOf(0x0a, at);
        header = Buffer.concat([header, chunk.subarray(at, end === -1 ? chunk.length : end)]);
        if (header.length > 200) throw unexpected();
        if (end === -1) return;
        at = end + 1;
        const m = /^([0-9a-f]+) blob (\d+)$/.exec(header.toString('latin1'));
        header = Buffer.alloc(0);
        if (!m || m[1] !== oids[next]) throw new GitContentError(`git cat-file cannot read ${oids[next]}`);
        blob = { bytes: Buffer.allocUnsafe(Number(m[2])), filled: 0 };
        if (blob.bytes.length === 0) {
          onBlob(next++, blob.bytes);
          blob = undefined;
          needNewline = true;
        }
      }
    }
  };
  try {
    await streamGit(['-C', repo.top, 'cat-file', '--batch'], { timeoutMs: GIT_TIMEOUT_MS, input: `${oids.join('\n')}\n` }, onData);
  } catch (err) {
    throw err instanceof GitContentError ? err : new GitContentError(`git cat-file failed: ${complaint(err)}`);
  }
  if (next !== oids.length) throw new GitContentError(`git cat-file failed: it read ${next} of ${oids.length} blobs`);
}

/** Runs `git <args>` and resolves with stdout. @throws GitError (src/git/run.ts). */
function git(args: readonly string[], maxOutputBytes = 1024 * 1024): Promise<string> {
  return runGit(args, { timeoutMs: GIT_TIMEOUT_MS, maxOutputBytes });
}

/** What a failed git command said (its first line of complaint, credentials hidden), for a usage error. */
function complaint(err: unknown): string {
  if (err instanceof GitError) return err.detail || err.message;
  return err instanceof Error ? err.message : String(err);
}
