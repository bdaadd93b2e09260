/**
 * Git follower mode: this service follows one branch of a repository itself (`CONTENT_GIT_URL`).
 *
 * It keeps a bare, shallow, partial clone (blobs over the loader's file limit are never fetched) in a working slot
 * of its own under the cache folder, and fetches the branch every `pollSeconds` (or at once on
 * {@link GitFollower.refresh}: the push webhook, SIGHUP). Each new commit's Markdown is written into a fresh folder
 * (`git-checkout.ts`), loaded and validated; the caller swaps its index when it is valid.
 *
 * Faults degrade, never take the instance down:
 * - A failed fetch (network, credentials, a deleted branch, the remote moved) keeps the content served, is shown
 *   in the status as a category and counted, and is retried at the next poll, so the head is served again within
 *   one poll after the fault clears.
 * - A commit that cannot be checked out, or is too large, is a content problem at that commit, like invalid
 *   content: the previous revision stays served.
 * - At start, when the head is invalid, the newest valid commit among the last `historyDepth` of the branch is
 *   served (or, offline, the one this slot served last), and the head's problems are reported after it.
 *
 * The cache stays bounded: only the current checkout and the one before it are kept, and the repository is
 * replaced by a fresh shallow fetch once it holds much more than its branch's head needs.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { ContentLoader, MAX_FILE_BYTES, type LoadResult } from '../content/index.js';
import { claimSlot, type CacheSlot } from './cache-slot.js';
import { writeCheckout } from './git-checkout.js';
import { GitError, isCommitId, runGit } from '../git/run.js';
import { redactUrl } from '../git/redact.js';
import type { ContentSource, ContentSourceListener, ContentSourceStatus, ContentUpdate, SourceFault } from './types.js';
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

/** Options of a {@link GitFollower}. */
export interface GitFollowerOptions {
  /** What `git clone` accepts; may carry credentials, which are never logged, shown or put on a command line. */
  url: string;
  /** The branch followed (a valid branch name: the configuration checks it). */
  ref: string;
  /** The content folder inside the repository, relative, `/`-separated; `.` for the root. */
  path: string;
  /** Seconds between fetches, also after a failed one. */
  pollSeconds: number;
  /** Absolute path of the cache folder, possibly shared with other processes. */
  cacheDir: string;
  /** Commits of the branch looked through at start for a valid one when the head is invalid (at least 1). */
  historyDepth: number;
  /** Largest size of the files of a commit the service reads (its Markdown), in bytes. */
  maxContentBytes: number;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Clock (default `new Date()`). */
  now?: () => Date;
}

/** The file in a slot naming the last valid commit loaded, for a restart that finds the head invalid offline. */
const SERVED_FILE = 'served-commit';

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
  /** The commit the branch pointed at when last fetched. */
  #head: string | undefined;
  /** The last commit loaded (valid or not): a branch that stays on it is not loaded again. */
  #lastCommit: string | undefined;
  /** The last valid commit and the one before it: their checkouts are kept. */
  #kept: string[] = [];
  #syncedAt = '';
  #fault: SourceFault | undefined;
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
    this.#listener = listener; // failures of the first fetch are counted too; updates wait for start's answer
    let first: ContentUpdate;
    let rejectedHead: ContentUpdate | undefined;
    try {
      await this.#prepareRepository();
      let online = true;
      try {
        await this.#fetch();
      } catch (error) {
        // The Git host may be down while the service restarts: a branch fetched by an earlier run still serves.
        if ((await this.#branchCommit().catch(() => undefined)) === undefined) throw error;
        this.#fetchFailed(error);
        online = false;
      }
      const head = await this.#branchCommit();
      this.#head = head;
      first = await this.#load(head, online ? 'start' : 'start, from the cache');
      if (!first.result.ok) {
        const fallback = await this.#newestValid(head, online);
        if (fallback) {
          rejectedHead = first;
          first = fallback;
          this.#lastCommit = head; // the head stays rejected until the branch moves
        }
      }
    } catch (error) {
      this.#listener = undefined;
      await this.#slot.release();
      const why = error instanceof GitError ? error.message : codeOf(error);
      throw new SourceError(`Git follower: cannot fetch branch ${ref} of ${redactUrl(url)}: ${why}`, { cause: error });
    }
    if (rejectedHead) {
      const update = rejectedHead;
      // After start's answer: the caller serves the valid commit, then records the head's problems.
      setImmediate(() => {
        if (!this.#closed) this.#listener?.onUpdate(update);
      });
    }
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
    return { kind: 'git', syncedAt: this.#syncedAt, fault: this.#fault, ...(this.#head !== undefined && { head: this.#head }) };
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
    let commit: string;
    try {
      await this.#fetch();
      commit = await this.#branchCommit();
    } catch (error) {
      this.#fetchFailed(error);
      return;
    }
    this.#head = commit;
    this.#recovered();
    if (commit === this.#lastCommit || this.#closed) return;
    const update = await this.#load(commit, reason);
    if (!this.#closed) this.#listener?.onUpdate(update);
    await this.#keepRepositorySmall().catch((error: unknown) =>
      this.#opts.logger.warn({ err: error }, 'the Git cache could not be made smaller; trying again after the next move'),
    );
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
    // Earlier releases wrote the URL (and any token in it) into the cache's configuration: removed (exit 5: none).
    await runGit(['--git-dir', this.#repo, 'config', '--unset-all', 'remote.origin.url'], local).catch((error: unknown) => {
      if (!(error instanceof GitError && error.exitCode === 5)) throw error;
    });
    await mkdir(this.#checkouts, { recursive: true });
  }

  /**
   * Shallow fetch of the branch into `refs/remotes/origin/<ref>` (`+` follows force-pushes), `depth` commits deep,
   * without the blobs the loader would refuse anyway. The URL reaches git through its environment only.
   */
  async #fetch(depth = 1, repo = this.#repo): Promise<void> {
    this.fetchCount++;
    const { ref, url } = this.#opts;
    await runGit(
      [
        '--git-dir',
        repo,
        'fetch',
        '--quiet',
        '--no-tags',
        `--depth=${depth}`,
        `--filter=blob:limit=${MAX_FILE_BYTES}`,
        '--no-write-fetch-head',
        'origin',
        `+refs/heads/${ref}:refs/remotes/origin/${ref}`,
      ],
      { timeoutMs: GIT_TIMEOUTS.fetchMs, remoteUrl: url },
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
    return commitId(out);
  }

  /**
   * At start, with the head invalid: the newest valid commit among the `historyDepth` before it (fetched deeper
   * when the remote answers), else the one this slot served last; `undefined` when none is valid.
   */
  async #newestValid(head: string, online: boolean): Promise<ContentUpdate | undefined> {
    const { historyDepth, logger } = this.#opts;
    if (online) {
      await this.#fetch(historyDepth + 1).catch((error: unknown) => logger.warn({ err: gitErrorFields(error) }, 'cannot fetch the branch history'));
    }
    const history = await runGit(
      ['--git-dir', this.#repo, 'rev-list', '--first-parent', `--max-count=${historyDepth + 1}`, '--end-of-options', head],
      { timeoutMs: GIT_TIMEOUTS.localMs },
    ).then(
      (out) => out.split('\n').filter(isCommitId),
      () => [head], // a shallow history that ends at the head
    );
    const candidates = history.filter((c) => c !== head);
    const served = await readFile(join(this.#slot!.dir, SERVED_FILE), 'utf8').then(
      (text) => text.trim(),
      () => '',
    );
    if (isCommitId(served) && !candidates.includes(served) && served !== head) candidates.push(served);
    for (const commit of candidates) {
      const update = await this.#load(commit, `start: the branch head ${head.slice(0, 12)} is invalid`).catch(() => undefined);
      if (update?.result.ok) {
        logger.warn(
          { head, commit, looked_back: candidates.indexOf(commit) + 1 },
          'the branch head is invalid; serving the newest valid commit before it until the head is fixed',
        );
        return update;
      }
    }
    logger.error({ head, looked_back: candidates.length }, 'the branch head is invalid and no commit before it is valid');
    return undefined;
  }

  /**
   * Checks `commit` out (unless already there) and loads it. A checkout that git cannot write is an invalid update
   * at that commit; a file-system failure (disk full) too, and that commit is tried again at the next fetch.
   */
  async #load(commit: string, reason: string): Promise<ContentUpdate> {
    const short = commit.slice(0, 12);
    const dir = join(this.#checkouts, commit);
    const { path, maxContentBytes, logger } = this.#opts;
    this.#lastCommit = commit;
    let result: LoadResult;
    let parsed = 0;
    let problems;
    try {
      problems = (await isFolder(dir))
        ? []
        : await writeCheckout({ repo: this.#repo, commit, path, dir, maxTotalBytes: maxContentBytes, timeoutMs: GIT_TIMEOUTS.checkoutMs });
    } catch (error) {
      if (!(error instanceof GitError)) this.#lastCommit = undefined;
      logger.error({ err: gitErrorFields(error), commit }, 'cannot check out the commit; still serving the previous one');
      const why = error instanceof GitError ? error.summary : `the checkout could not be written (${codeOf(error)}); trying again at the next fetch`;
      problems = [{ path, line: 1, column: 1, message: `commit ${short} cannot be checked out: ${why}` }];
    }
    if (problems.length > 0) {
      result = { ok: false, problems };
    } else {
      const loader = new ContentLoader(dir, { revision: commit, displayRoot: path === '.' ? '' : path });
      result = await loader.load();
      parsed = loader.lastParsedCount;
    }
    if (result.ok) {
      this.#kept = [commit, ...this.#kept.filter((c) => c !== commit)].slice(0, 2);
      await writeFile(join(this.#slot!.dir, SERVED_FILE), `${commit}\n`);
    }
    await this.#prune();
    // Only a valid commit can be served, and only a served one's time is reported.
    const committedAt = result.ok ? await this.#commitTime(commit) : undefined;
    logger.info({ commit, reason, valid: result.ok }, result.ok ? 'Git commit checked out' : 'Git commit checked out, content invalid');
    return { result, reason: `commit ${short} (${reason})`, changedFiles: parsed, commit, ...(committedAt && { committedAt }) };
  }

  /** The committer time of `commit`, or `undefined` when git cannot say. */
  async #commitTime(commit: string): Promise<Date | undefined> {
    const out = await runGit(['--git-dir', this.#repo, 'show', '-s', '--format=%ct', '--end-of-options', commit], {
      timeoutMs: GIT_TIMEOUTS.localMs,
    }).catch(() => '');
    const seconds = Number.parseInt(out.trim(), 10);
    return Number.isSafeInteger(seconds) ? new Date(seconds * 1000) : undefined;
  }

  /** Removes every checkout but the kept ones (and leftovers of interrupted checkouts). */
  async #prune(): Promise<void> {
    for (const name of await readdir(this.#checkouts).catch(() => [] as string[])) {
      if (!this.#kept.includes(name)) await rm(join(this.#checkouts, name), { recursive: true, force: true });
    }
  }

  /**
   * A partial clone keeps every object it ever fetched (git's repack keeps promised objects), so the repository is
   * replaced by a fresh shallow fetch of the branch once it holds more than half again what the branch's head needs
   * (and 1 MiB): after a large file is pushed and removed again, or after many moves.
   */
  async #keepRepositorySmall(): Promise<void> {
    const size = await this.#repositorySizeKiB(this.#repo);
    const needed = await this.#headSizeKiB();
    if (size <= needed * 1.5 + 1024) return;
    const fresh = `${this.#repo}.fresh`;
    await rm(fresh, { recursive: true, force: true });
    await runGit(['init', '--quiet', '--bare', fresh], { timeoutMs: GIT_TIMEOUTS.localMs });
    await this.#fetch(1, fresh);
    const old = `${this.#repo}.old`;
    await rm(old, { recursive: true, force: true });
    await rename(this.#repo, old);
    await rename(fresh, this.#repo);
    await rm(old, { recursive: true, force: true });
    this.#opts.logger.info({ before_kib: size, after_kib: await this.#repositorySizeKiB(this.#repo) }, 'Git cache replaced by a fresh shallow fetch');
  }

  /** What the repository holds, in KiB (`git count-objects`). */
  async #repositorySizeKiB(repo: string): Promise<number> {
    const out = await runGit(['--git-dir', repo, 'count-objects', '-v'], { timeoutMs: GIT_TIMEOUTS.localMs });
    const field = (name: string): number => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(out)?.[1] ?? 0);
    return field('size') + field('size-pack') + field('size-garbage');
  }

  /** What the objects reachable from the fetched branch take on disk, in KiB (`rev-list --disk-usage`, git 2.38+). */
  async #headSizeKiB(): Promise<number> {
    const out = await runGit(
      [
        '--git-dir',
        this.#repo,
        'rev-list',
        '--objects',
        '--disk-usage',
        '--missing=allow-any',
        '--end-of-options',
        `refs/remotes/origin/${this.#opts.ref}`,
      ],
      { timeoutMs: GIT_TIMEOUTS.localMs },
    );
    return Number(out.trim()) / 1024;
  }

  #fetchFailed(error: unknown): void {
    const reason = error instanceof GitError ? error.category : 'failed';
    const summary = error instanceof GitError ? error.summary : 'git failed';
    const { pollSeconds, ref } = this.#opts;
    this.#listener?.onSyncFailure?.(reason);
    this.#opts.logger.warn({ err: gitErrorFields(error), reason, retry_in_s: pollSeconds }, 'Git fetch failed; still serving the last good content');
    const detail = `fetching branch "${ref}" fails: ${error instanceof GitError ? error.message : summary}; trying again every ${pollSeconds} s`;
    const since = this.#fault?.reason === reason ? this.#fault.since : this.#now().toISOString();
    const changed = this.#fault?.reason !== reason || this.#fault.detail !== detail;
    this.#fault = { reason, since, detail };
    if (changed) this.#listener?.onStatus(this.status());
  }

  #recovered(): void {
    if (this.#fault === undefined) return;
    this.#opts.logger.info({ was: this.#fault.reason, since: this.#fault.since }, 'Git fetch works again');
    this.#fault = undefined;
    this.#listener?.onStatus(this.status());
  }

  #schedule(): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#run('poll'), this.#opts.pollSeconds * 1000);
    this.#timer.unref();
  }
}

/** A commit id printed by git. @throws GitError when `out` is not one. */
function commitId(out: string): string {
  const commit = out.trim();
  if (!isCommitId(commit)) throw new GitError('failed', 'rev-parse did not print a commit id');
  return commit;
}

function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** A git failure as log fields (its category and git's own words, credentials hidden). */
function gitErrorFields(error: unknown): unknown {
  return error instanceof GitError ? { category: error.category, detail: error.detail, exit_code: error.exitCode } : error;
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? (error instanceof Error ? error.message : String(error));
}
