/**
 * Every environment variable the client reads, with its meaning: the one table `syllabus --help` and docs/cli.md
 * show (a test checks both against the variables the code reads). {@link CliEnv} only has these names, so reading
 * another variable does not compile until it has a row here.
 */

/** The service the client talks to when neither `--base-url` nor `SYLLABUS_BASE_URL` says otherwise. */
export const DEFAULT_BASE_URL = 'http://localhost:8080';

/** Per-request timeout when `SYLLABUS_TIMEOUT_MS` does not say otherwise, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** The range `SYLLABUS_TIMEOUT_MS` may take, in milliseconds (outside it, the default applies). */
export const TIMEOUT_RANGE_MS = { min: 100, max: 600_000 } as const;

/** Longest wait for a read budget to reset (`Retry-After`, `RateLimit-Reset`) before giving up, in seconds. */
export const MAX_WAIT_SECONDS = 120;

/** One variable: its name and what it does, one line (shown as it is by `--help`). */
interface EnvironmentVariable {
  readonly name: string;
  readonly meaning: string;
}

/** The client's environment variables, in the order `--help` lists them. */
export const CLI_ENVIRONMENT = [
  { name: 'SYLLABUS_BASE_URL', meaning: `the service's root URL (default ${DEFAULT_BASE_URL}; --base-url wins)` },
  { name: 'SYLLABUS_RELEASE_URL', meaning: 'where releases are published (default <base-url>/releases/)' },
  { name: 'SYLLABUS_NO_WAIT', meaning: `=1: like --no-wait, fail at once when the read budget is spent (else wait up to ${MAX_WAIT_SECONDS} s)` },
  {
    name: 'SYLLABUS_TIMEOUT_MS',
    meaning: `per-request timeout in milliseconds, ${TIMEOUT_RANGE_MS.min} to ${TIMEOUT_RANGE_MS.max} (default ${DEFAULT_TIMEOUT_MS})`,
  },
  { name: 'SYLLABUS_DEBUG', meaning: '=1: log each request and its status on stderr, and a stack trace with an unexpected error' },
  { name: 'SYLLABUS_NO_UPDATE', meaning: '=1: no automatic update check at all (no request is made)' },
  {
    name: 'SYLLABUS_CACHE_DIR',
    meaning: 'cache folder (ETags, last update check, last known read budgets); default the user cache folder',
  },
  { name: 'XDG_CACHE_HOME', meaning: 'on Linux, the user cache folder (default ~/.cache): the cache is <it>/syllabus' },
  { name: 'SYLLABUS_INSTALL_DIR', meaning: 'where install.sh and update keep versions (default ~/.local/share/syllabus)' },
  { name: 'SYLLABUS_BIN_DIR', meaning: 'where the syllabus link is (default ~/.local/bin)' },
  { name: 'HOME', meaning: 'the home folder those defaults are in' },
  { name: 'NO_COLOR', meaning: 'set and not empty: no colour, even on a terminal' },
  { name: 'TERM', meaning: '=dumb: no colour' },
  { name: 'CI', meaning: 'set (not 0 or false): no automatic update check' },
  { name: 'SYLLABUS_ALLOW_TEST_RELEASES', meaning: '=1, tests only: accept SYLLABUS_RELEASE_TEST_KEY and plain http to loopback' },
  { name: 'SYLLABUS_RELEASE_TEST_KEY', meaning: 'tests only: a PEM public key file releases may be signed with' },
] as const satisfies readonly EnvironmentVariable[];

/** A variable's name. */
type CliEnvName = (typeof CLI_ENVIRONMENT)[number]['name'];

/** The environment variables the client reads (process.env in production, a plain object in tests). */
export type CliEnv = Readonly<Partial<Record<CliEnvName, string>>>;

/** True when a switch such as `SYLLABUS_NO_UPDATE` is set to anything but an empty string, `0` or `false`. */
export function switchedOn(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false'].includes(value.trim().toLowerCase());
}

/** The "Environment:" block of `syllabus --help`: one aligned line per variable. */
export function environmentHelp(): string {
  const width = Math.max(...CLI_ENVIRONMENT.map((v) => v.name.length));
  return `Environment:\n${CLI_ENVIRONMENT.map((v) => `  ${v.name.padEnd(width)}  ${v.meaning}`).join('\n')}\n`;
}
