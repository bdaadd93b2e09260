/**
 * Git follower mode: this service follows one branch of a repository itself (`CONTENT_GIT_URL`).
 *
 * It keeps a bare, shallow clone in a working slot of its own under the cache folder and fetches the branch every
 * `pollSeconds` (or at once on {@link GitFollower.refresh}: the push webhook, SIGHUP). Each new commit's content
 * folder is written by git into a fresh folder (`read-tree` + `checkout-index` with a private index), renamed into
 * place only when complete, then loaded and validated; the caller swaps its index when it is valid. Old checkouts
 * are removed: the current one and the one before it stay. A failed fetch (network, credentials, a deleted branch)
 * never drops the content being served: it is logged, retried with back-off and shown in the status.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { ContentLoader } from '../content/loader.js';
import type { LoadResult } from '../content/model.js';
import { claimSlot, type CacheSlot } from './cache-slot.js';
import { GitError, runGit } from './git-cli.js';
import { redactUrl } from './redact.js';
import type { ContentSource, ContentSourceListener, ContentSourceStatus, ContentUpdate } from './types.js';
import { backoffDelay } from './backoff.js';
import { SourceError } from './types.js';

/** Time limits of git commands, in milliseconds. */
export const GIT_TIMEOUTS = {
  /** A fetch: the only command that talks to the network. */
  fetchMs: 120_000,
  /** Writing one commit's content folder. */
  checkoutMs: 60_000,
  /** Local bookkeeping (init, config, rev-parse). */
  localMs: 10_000,
} as const;

/** Longest wait between fetches after failures, in seconds (unless the poll period is longer). */
export const MAX_BACKOFF_SECONDS = 300;

/** Options of a {@link GitFollower}. */
export interface GitFollowerOptions {
  /** What `git clone` accepts; may carry credentials, which are never logged or shown. */
  url: string;
  /** The branch followed (a valid branch name: the configuration checks it). */
  ref: string;
  /** The content folder inside the repository, relative, `/`-separated; `.` for the root. */
  path: string;
  /** Seconds between fetches. */
  pollSeconds: number;
  /** Absolute path of the cache folder, possibly shared with other processes. */
  cacheDir: string;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Clock (default `new Date()`). */
  now?: () => Date;
}

/**
 * Follows a branch; see the module comment. Problems name files relative to the repository
 * (`content/courses/x/index.md:3:1: …`), the way a writer sees them in the pull request.
 */
export class GitFollower implements ContentSource {
  readonly kind = 'git' as const;
  readonly #opts: GitFollowerOptions;
  readonly #now: () => Date;
  #listener: ContentSourceListener | undefined;
  #slot: CacheSlot | undefined;
  #repo = '';
  #checkouts = '';
  /** The last commit loaded (valid or not): a branch that stays on it is not loaded again. */
  #lastCommit: string | undefined;
  /** The last valid commit and the one before it: their checkouts are kept. */
  #kept: string[] = [];
  #syncedAt = '';
  #failures = 0;
  #failingSince: string | undefined;
  #problem: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #cycle: Promise<void> | undefined;
  #again: string | undefined;
  #closed = false;
  /** Fetches run so far (for tests and logs). */
  fetchCount = 0;

  constructor(options: GitFollowerOptions) {
    this.#opts = options;
    this.#now = options.now ?? (() => new Date());
  }

  async start(listener: ContentSourceListener): Promise<ContentUpdate> {
    const { url, ref, cacheDir } = this.#opts;
    try {
      await runGit(['--version'], { timeoutMs: GIT_TIMEOUTS.localMs });
      // One folder per repository and branch, so two configurations never mix; a slot per process within it.
      const key = createHash('sha256')
        .update(`${redactUrl(url)}\0${ref}`)
        .digest('hex')
        .slice(0, 16);
      this.#slot = await claimSlot(join(cacheDir, key));
    } catch (error) {
      throw new SourceError(
        error instanceof GitError ? `Git follower: ${error.message}` : `Git follower: the cache folder ${cacheDir} cannot be used (${codeOf(error)})`,
        { cause: error },
      );
    }
    this.#repo = join(this.#slot.dir, 'repo.git');
    this.#checkouts = join(this.#slot.dir, 'checkouts');
    let first: ContentUpdate;
    try {
      await this.#prepareRepository();
      let cached: string | undefined;
      try {
        await this.#fetch();
      } catch (error) {
        // The Git host may be down while the service restarts: a branch fetched by an earlier run still serves.
        cached = await this.#branchCommit().catch(() => undefined);
        if (cached === undefined) throw error;
        this.#fetchFailed(error);
      }
      first = await this.#load(cached ?? (await this.#branchCommit()), cached ? 'start, from the cache' : 'start');
    } catch (error) {
      await this.#slot.release();
      const why = error instanceof GitError ? error.message : codeOf(error);
      throw new SourceError(`Git follower: cannot fetch branch ${ref} of ${redactUrl(url)}: ${why}`, { cause: error });
    }
    this.#listener = listener;
    this.#schedule();
    return first;
  }

  refresh(reason: string): void {
    if (this.#closed || this.#listener === undefined) return;
    if (this.#cycle) {
      this.#again = reason; // every call during a fetch folds into one more fetch after it
      return;
    }
    this.#run(reason);
  }

  status(): ContentSourceStatus {
    return { content_source: 'git', content_synced_at: this.#syncedAt, content_watch: this.#problem ?? 'ok' };
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#cycle;
    await this.#slot?.release();
  }

  #run(reason: string): void {
    clearTimeout(this.#timer);
    this.#cycle = this.#check(reason).finally(() => {
      this.#cycle = undefined;
      const again = this.#again;
      this.#again = undefined;
      if (this.#closed) return;
      if (again !== undefined) this.#run(again);
      else this.#schedule();
    });
  }

  /** One fetch, and a load when the branch moved. */
  async #check(reason: string): Promise<void> {
    try {
      await this.#fetch();
    } catch (error) {
      this.#fetchFailed(error);
      return;
    }
    if (this.#failures > 0) this.#opts.logger.info({ after_failures: this.#failures }, 'Git fetch works again');
    this.#failures = 0;
    this.#failingSince = undefined;
    this.#setProblem(undefined);
    let commit: string;
    try {
      commit = await this.#branchCommit();
    } catch (error) {
      this.#fetchFailed(error);
      return;
    }
    if (commit === this.#lastCommit || this.#closed) return;
    try {
      const update = await this.#load(commit, reason);
      if (!this.#closed) this.#listener?.onUpdate(update);
    } catch (error) {
      // Writing the checkout failed (disk full, a git error): the next fetch tries this commit again.
      this.#lastCommit = undefined;
      this.#opts.logger.error({ err: error, commit }, 'cannot check out the new commit; still serving the previous one');
      this.#setProblem(`cannot check out commit ${commit.slice(0, 12)}; trying again at the next fetch`);
    }
  }

  async #prepareRepository(): Promise<void> {
    const local = { timeoutMs: GIT_TIMEOUTS.localMs };
    const exists = await stat(join(this.#repo, 'HEAD')).then(
      () => true,
      () => false,
    );
    if (!exists) {
      await rm(this.#repo, { recursive: true, force: true });
      await runGit(['init', '--quiet', '--bare', this.#repo], local);
    }
    // Set on every start, so a changed CONTENT_GIT_URL takes effect with the same cache.
    await runGit(['--git-dir', this.#repo, 'config', 'remote.origin.url', this.#opts.url], local);
    await mkdir(this.#checkouts, { recursive: true });
  }

  /** Shallow fetch of the branch into `refs/remotes/origin/<ref>`; `+` follows force-pushes. */
  async #fetch(): Promise<void> {
    this.fetchCount++;
    const { ref } = this.#opts;
    await runGit(
      [
        '--git-dir',
        this.#repo,
        'fetch',
        '--quiet',
        '--no-tags',
        '--depth=1',
        '--no-write-fetch-head',
        'origin',
        `+refs/heads/${ref}:refs/remotes/origin/${ref}`,
      ],
      { timeoutMs: GIT_TIMEOUTS.fetchMs },
    );
    this.#syncedAt = this.#now().toISOString();
  }

  /** The commit the fetched branch points at. @throws GitError when the branch was never fetched. */
  async #branchCommit(): Promise<string> {
    const out = await runGit(
      ['--git-dir', this.#repo, 'rev-parse', '--verify', '--quiet', '--end-of-options', `refs/remotes/origin/${this.#opts.ref}^{commit}`],
      {
        timeoutMs: GIT_TIMEOUTS.localMs,
      },
    );
    const commit = out.trim();
    if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(commit)) throw new GitError('failed', 'rev-parse did not print a commit id');
    return commit;
  }

  /** Checks `commit` out (unless already there), loads it, and removes checkouts no longer kept. */
  async #load(commit: string, reason: string): Promise<ContentUpdate> {
    const short = commit.slice(0, 12);
    const dir = join(this.#checkouts, commit);
    const path = this.#opts.path;
    this.#lastCommit = commit;
    let result: LoadResult;
    let parsed = 0;
    if (!(await this.#writeCheckout(commit, dir))) {
      result = { ok: false, problems: [{ path, line: 1, column: 1, message: `the content folder "${path}" does not exist in commit ${short}` }] };
    } else {
      const loader = new ContentLoader(dir, { revision: commit, displayRoot: path === '.' ? '' : path });
      result = await loader.load();
      parsed = loader.lastParsedCount;
    }
    if (result.ok) this.#kept = [commit, ...this.#kept.filter((c) => c !== commit)].slice(0, 2);
    await this.#prune();
    this.#opts.logger.info({ commit, reason, valid: result.ok }, result.ok ? 'Git commit checked out' : 'Git commit checked out, content invalid');
    return { result, reason: `commit ${short} (${reason})`, changedFiles: parsed, commit };
  }

  /**
   * Writes the content folder of `commit` to `dir` through a temporary sibling renamed into place, so a reader
   * never sees half of it. @returns false when the commit has no such folder.
   */
  async #writeCheckout(commit: string, dir: string): Promise<boolean> {
    if (
      await stat(dir).then(
        (s) => s.isDirectory(),
        () => false,
      )
    )
      return true;
    const tree = this.#opts.path === '.' ? `${commit}^{tree}` : `${commit}:${this.#opts.path}`;
    const type = await runGit(['--git-dir', this.#repo, 'cat-file', '-t', '--end-of-options', tree], { timeoutMs: GIT_TIMEOUTS.localMs }).catch(
      () => '',
    );
    if (type.trim() !== 'tree') return false;
    const tmp = join(this.#checkouts, `.tmp-${commit}-${randomBytes(4).toString('hex')}`);
    const index = `${tmp}.index`;
    try {
      await mkdir(tmp);
      const options = { timeoutMs: GIT_TIMEOUTS.checkoutMs, env: { GIT_INDEX_FILE: index } };
      await runGit(['--git-dir', this.#repo, '--work-tree', tmp, 'read-tree', '--end-of-options', tree], options);
      await runGit(['--git-dir', this.#repo, '--work-tree', tmp, 'checkout-index', '--all', '--force'], options);
      await rename(tmp, dir);
    } finally {
      await rm(tmp, { recursive: true, force: true });
      await rm(index, { force: true });
    }
    return true;
  }

  /** Removes every checkout but the kept ones (and leftovers of interrupted checkouts). */
  async #prune(): Promise<void> {
    for (const name of await readdir(this.#checkouts).catch(() => [] as string[])) {
      if (!this.#kept.includes(name)) await rm(join(this.#checkouts, name), { recursive: true, force: true });
    }
  }

  #fetchFailed(error: unknown): void {
    this.#failures++;
    this.#failingSince ??= this.#now().toISOString();
    const { pollSeconds, ref } = this.#opts;
    const retrySeconds = this.#retrySeconds();
    const summary = error instanceof GitError ? error.summary : 'git failed';
    this.#opts.logger.warn(
      {
        err: error instanceof GitError ? { category: error.category, detail: error.detail, exit_code: error.exitCode } : error,
        failures: this.#failures,
        retry_in_s: retrySeconds,
        poll_s: pollSeconds,
      },
      'Git fetch failed; still serving the last good content',
    );
    this.#setProblem(`fetching branch "${ref}" fails since ${this.#failingSince}: ${summary}; retrying in ${retrySeconds} s`);
  }

  /** min(poll · 2^failures, max(poll, 300)) seconds: quick while it is a blip, patient when it lasts. */
  #retrySeconds(): number {
    const { pollSeconds } = this.#opts;
    return this.#failures === 0 ? pollSeconds : backoffDelay(this.#failures, pollSeconds, Math.max(pollSeconds, MAX_BACKOFF_SECONDS));
  }

  #schedule(): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#run('poll'), this.#retrySeconds() * 1000);
    this.#timer.unref();
  }

  #setProblem(problem: string | undefined): void {
    if (problem === this.#problem) return;
    this.#problem = problem;
    this.#listener?.onStatus(this.status());
  }
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? (error instanceof Error ? error.message : String(error));
}
