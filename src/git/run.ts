/**
 * Runs the `git` command line for every part of the project (the Git follower, the content revision, the writers'
 * tools): fixed argument arrays through `execFile` or `spawn` (no shell), bounded in time and output, never
 * prompting, in the C locale so failures can be sorted into categories, with every URL's credentials hidden in
 * errors, at a lower scheduling priority than the service (Git's work is background work: serving comes first).
 * Credentials come from Git's own mechanisms
 * (SSH keys, credential helpers, `GIT_ASKPASS`), which the inherited environment keeps working, or from a URL
 * handed to git in its environment ({@link GitRunOptions.remoteUrl}): never on a command line, where any user of
 * the machine can read it (`/proc/<pid>/cmdline`).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { redactUrl } from './redact.js';

/** Why a git command failed, in words an operator can act on (shown on `/health`: no path, no secret). */
export type GitFailureCategory = 'git-missing' | 'timeout' | 'branch-missing' | 'repository-missing' | 'auth' | 'network' | 'failed';

const CATEGORY_TEXT: Record<GitFailureCategory, string> = {
  'git-missing': 'the git command is not installed',
  timeout: 'git did not finish in time',
  'branch-missing': 'the branch was not found on the remote',
  'repository-missing': 'the repository cannot be found',
  auth: 'the remote refused the credentials (or none were available)',
  network: 'the remote cannot be reached',
  failed: 'git failed',
};

/** Whether `text` is a full commit id as git prints it: 40 hex digits (SHA-1) or 64 (SHA-256). */
export function isCommitId(text: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(text);
}

/** Every category, in a fixed order (a metric's label values exist from the start). */
export const GIT_FAILURE_CATEGORIES = Object.keys(CATEGORY_TEXT) as GitFailureCategory[];

/** A failed git command: its category and git's first line of complaint, with every URL's credentials hidden. */
export class GitError extends Error {
  readonly category: GitFailureCategory;
  /** git's exit code, or `undefined` when it did not exit by itself. */
  readonly exitCode: number | undefined;
  /** The first meaningful line git wrote to stderr, credentials hidden (for logs, not `/health`). */
  readonly detail: string;
  constructor(category: GitFailureCategory, detail: string, exitCode?: number) {
    super(`${CATEGORY_TEXT[category]}${detail ? `: ${detail}` : ''}`);
    this.name = 'GitError';
    this.category = category;
    this.detail = detail;
    this.exitCode = exitCode;
  }
  /** The category as a sentence, safe for public status. */
  get summary(): string {
    return CATEGORY_TEXT[this.category];
  }
}

/** Options of {@link runGit}. */
export interface GitRunOptions {
  /** Longest run, in milliseconds; the process is killed after it. */
  timeoutMs: number;
  /** Largest stdout or stderr kept, in bytes (default 1 MiB); more is an error. */
  maxOutputBytes?: number;
  /** Extra environment variables (e.g. `GIT_INDEX_FILE`). */
  env?: Record<string, string>;
  /**
   * The URL of the remote `origin` for this command only (it may hold a token): passed as configuration in git's
   * environment (`GIT_CONFIG_COUNT`), never written to the repository's configuration nor to the command line.
   * Commands without it cannot reach the remote, so none of them can fetch an object behind the follower's back.
   */
  remoteUrl?: string;
  /** Written to git's standard input (then closed). */
  input?: string;
}

/** How much nicer than the service git runs (POSIX nice increment). */
const GIT_NICENESS = 10;

/**
 * Runs `git <args>` and resolves with its stdout.
 * @throws GitError with a category when git is missing, times out, or exits non-zero.
 */
export function runGit(args: readonly string[], options: GitRunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      {
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: options.maxOutputBytes ?? 1024 * 1024,
        encoding: 'utf8',
        env: gitEnvironment(options),
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return reject(new GitError('git-missing', ''));
        const detail = firstComplaint(stderr);
        if ((error as { killed?: boolean }).killed) return reject(new GitError('timeout', detail));
        reject(new GitError(categorise(stderr), detail, typeof error.code === 'number' ? error.code : undefined));
      },
    );
    lowerPriority(child);
    child.stdin?.on('error', () => undefined); // git may exit before reading all of its input
    child.stdin?.end(options.input);
  });
}

/** Options of {@link streamGit}. */
export interface GitStreamOptions {
  /** Longest run, in milliseconds; the process is killed after it. */
  timeoutMs: number;
  /** Written to git's standard input (then closed). */
  input?: string;
}

/** The most of git's stderr kept for its error, in characters. */
const MAX_STREAM_STDERR = 64 * 1024;

/**
 * Runs `git <args>` and hands its stdout to `onData` chunk by chunk as it arrives, for output read as a stream
 * (`cat-file --batch`): the caller bounds what it keeps. Resolves when git exits with 0.
 * @throws GitError with a category when git is missing, times out, or exits non-zero; or what `onData` threw (git
 * is killed then).
 */
export function streamGit(args: readonly string[], options: GitStreamOptions, onData: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { env: gitEnvironment({}), stdio: ['pipe', 'pipe', 'pipe'] });
    lowerPriority(child);
    let settled = false;
    const settle = (error?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error === undefined) return resolve();
      child.kill('SIGKILL');
      reject(error);
    };
    let stderr = '';
    const timer = setTimeout(() => settle(new GitError('timeout', firstComplaint(stderr))), options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      if (settled) return;
      try {
        onData(chunk);
      } catch (error) {
        settle(error instanceof Error ? error : new Error(String(error)));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_STREAM_STDERR) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      settle(error.code === 'ENOENT' ? new GitError('git-missing', '') : new GitError('failed', redactUrl(error.message)));
    });
    child.on('close', (code) => {
      if (code === 0) settle();
      else settle(new GitError(categorise(stderr), firstComplaint(stderr), code ?? undefined));
    });
    child.stdin.on('error', () => undefined); // git may exit before reading all of its input
    child.stdin.end(options.input);
  });
}

/**
 * The environment of every git command: the service's own (so SSH keys and credential helpers keep working), the
 * command's extra variables, and the project's fixed rules, which no caller can change.
 */
function gitEnvironment(options: Pick<GitRunOptions, 'env' | 'remoteUrl'>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...options.env,
    ...(options.remoteUrl !== undefined && {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'remote.origin.url',
      GIT_CONFIG_VALUE_0: options.remoteUrl,
    }),
    // No prompt can ever hang the service.
    GIT_TERMINAL_PROMPT: '0',
    // A partial clone never downloads a missing object unasked (git 2.45+; older gits have no remote URL to fetch
    // from outside `fetch` anyway).
    GIT_NO_LAZY_FETCH: '1',
    // Reading a writer's checkout (`status`) never takes the index lock their own git may be waiting for.
    GIT_OPTIONAL_LOCKS: '0',
    // Messages in English, so they can be categorised.
    LC_ALL: 'C',
  };
}

/** Puts git below the service's scheduling priority, where the system allows it. */
function lowerPriority(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    setPriority(child.pid, GIT_NICENESS);
  } catch {
    // Not permitted here (or git already exited): it runs at the service's priority.
  }
}

/** Sorts git's stderr into a category (messages of git 2.x in the C locale). */
export function categorise(stderr: string): GitFailureCategory {
  if (/couldn't find remote ref|remote branch .* not found/i.test(stderr)) return 'branch-missing';
  if (
    /authentication failed|could not read (username|password)|terminal prompts disabled|permission denied \(publickey|http basic: access denied|403/i.test(
      stderr,
    )
  ) {
    return 'auth';
  }
  if (/does not appear to be a git repository|repository .* not found|not a git repository|no such file or directory/i.test(stderr))
    return 'repository-missing';
  if (
    /could not resolve host|connection (refused|timed out|reset)|network is unreachable|unable to access|timed out|could not connect/i.test(stderr)
  ) {
    return 'network';
  }
  return 'failed';
}

/** The first `fatal:`/`error:` line of stderr (else its first line), trimmed, bounded and with credentials hidden. */
function firstComplaint(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const line = lines.find((l) => /^(fatal|error):/.test(l)) ?? lines[0] ?? '';
  return redactUrl(line)
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .slice(0, 300);
}
