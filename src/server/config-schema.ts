/**
 * Every environment variable the service reads, stated once: its default, its range or choices, and what it
 * means. `loadConfig` reads variables only through this table (a name outside it does not compile), takes its
 * defaults and ranges from it, and the README's configuration table is rendered from it
 * (`npx tsx scripts/config-table.ts`; `test/readme-config.test.ts` compares the two).
 */
import { join } from 'node:path';
import envPaths from 'env-paths';
import { DEFAULT_LIMITS, READ_WINDOW_SECONDS, REFERRAL_WINDOW_SECONDS } from '../http/ratelimit/budgets.js';

/** pino's levels, plus `silent`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The level logged at unless `LOG_LEVEL` says otherwise. */
export const DEFAULT_LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';

/** The shortest webhook secret accepted, in characters: a guessable secret would let anyone trigger fetches. */
export const MIN_WEBHOOK_SECRET_LENGTH = 16;

/** A whole-number variable: accepted from `min` to `max`. */
interface IntegerVariable {
  readonly kind: 'integer';
  readonly default: number | undefined;
  readonly min: number;
  readonly max: number;
  /** The README's Default cell when not the default itself. */
  readonly shownDefault?: string;
  readonly meaning: string;
}

/** A text variable (a path, URL, name, list); its own rules are checked by `loadConfig`. */
interface TextVariable {
  readonly kind: 'text';
  readonly default: string | undefined;
  readonly shownDefault?: string;
  readonly meaning: string;
}

/** One variable of the table. */
export type Variable = IntegerVariable | TextVariable;

const integer = (min: number, max: number, dflt: number | undefined, meaning: string, shownDefault?: string): IntegerVariable => ({
  kind: 'integer',
  default: dflt,
  min,
  max,
  meaning,
  ...(shownDefault !== undefined && { shownDefault }),
});
const text = (dflt: string | undefined, meaning: string, shownDefault?: string): TextVariable => ({
  kind: 'text',
  default: dflt,
  meaning,
  ...(shownDefault !== undefined && { shownDefault }),
});

/** Budgets per window are at most this many requests. */
const MAX_BUDGET = 1_000_000_000;

/** The variables, in the README's order. */
export const VARIABLES = {
  PORT: integer(0, 65535, 8080, 'TCP port to listen on (`0`: any free port)'),
  HOST: text('0.0.0.0', 'address to listen on (`127.0.0.1` for local only, `::` for IPv6)'),
  CONTENT_DIR: text(
    'content',
    'the content folder (relative to the working directory); watched and reloaded on change. It, or a folder above it, may be a symbolic link swapped atomically (git-sync)',
  ),
  CONTENT_GIT_URL: text(
    undefined,
    'follow a Git branch instead of a folder: anything `git clone` accepts (`https://…`, `ssh://…`, `git@host:org/repo.git`, a local path, `file://…`). Not together with `CONTENT_DIR` (exit 2)',
  ),
  CONTENT_GIT_REF: text('main', 'the branch followed'),
  CONTENT_GIT_PATH: text('content', 'the content folder inside the repository (`.` for its root)'),
  CONTENT_GIT_POLL: integer(1, 86_400, 30, 'seconds between fetches (1–86400); the webhook and SIGHUP fetch at once'),
  CONTENT_GIT_CACHE: text(
    // Under the OS cache folder (`$XDG_CACHE_HOME/syllabus` on Linux).
    join(envPaths('syllabus', { suffix: '' }).cache, 'content-git'),
    'working folder for the clone and the checkouts (`$XDG_CACHE_HOME/syllabus/…` when set)',
    '`~/.cache/syllabus/content-git`',
  ),
  CONTENT_GIT_WEBHOOK_SECRET: text(
    undefined,
    `shared secret of the push webhook \`POST /hooks/git\` on the admin listener (at least ${MIN_WEBHOOK_SECRET_LENGTH} characters; needs \`ADMIN_PORT\`)`,
  ),
  ADMIN_PORT: integer(
    0,
    65535,
    undefined,
    "port of the admin listener (operators' endpoints: the push webhook); never the public port",
    'unset (off)',
  ),
  ADMIN_HOST: text('127.0.0.1', 'address of the admin listener; route only your ingress for webhooks to it'),
  REFERRALS_FILE: text('referrals.sample.txt', 'file of SHA-256 hex digests of valid referral codes, one per line; watched'),
  PUBLIC_BASE_URL: text(
    undefined,
    'public URL of the service (`https://catalog.example.com`): deprecation `Link` targets, page links, the feed; when set, also the OpenAPI `servers` URL (otherwise `/`)',
    '`http://localhost:<PORT>`',
  ),
  LOG_LEVEL: text(DEFAULT_LOG_LEVEL, '`fatal`, `error`, `warn`, `info` (one access-log line per request), `debug`, `trace` or `silent`'),
  TRUST_PROXY: text(undefined, 'trusted proxies: addresses/CIDRs, `loopback`/`linklocal`/`uniquelocal`, or a hop count (see *Deployment*)', 'none'),
  TRUST_PROXY_HEADER: text('x-forwarded-for', 'header the trusted proxies write: `x-forwarded-for` or `forwarded`'),
  RATE_LIMIT_VERIFIED: integer(1, MAX_BUDGET, DEFAULT_LIMITS.verified, `reads per ${READ_WINDOW_SECONDS} s per IP address for verified agents`),
  RATE_LIMIT_DECLARED: integer(1, MAX_BUDGET, DEFAULT_LIMITS.declared, `reads per ${READ_WINDOW_SECONDS} s for declared agents`),
  RATE_LIMIT_BROWSER: integer(1, MAX_BUDGET, DEFAULT_LIMITS.browser, `reads per ${READ_WINDOW_SECONDS} s for browsers`),
  RATE_LIMIT_ANONYMOUS: integer(1, MAX_BUDGET, DEFAULT_LIMITS.anonymous, `reads per ${READ_WINDOW_SECONDS} s for anything else`),
  RATE_LIMIT_REFERRALS: integer(1, MAX_BUDGET, DEFAULT_LIMITS.referrals, `referral lookups per ${REFERRAL_WINDOW_SECONDS} s per IP address`),
  RATE_LIMIT_STORE: text('memory', '`memory`, or `redis://…`/`rediss://…` to share budgets between instances'),
  RATE_LIMIT_STORE_TIMEOUT_MS: integer(10, 10_000, 200, 'longest wait for a Redis reply before counting in this process instead (10–10000)'),
  WORKERS: integer(1, 256, 1, 'server processes sharing the port (`node:cluster`); more than 1 requires the Redis store'),
  KEY_DIRECTORY_ALLOW_INSECURE: text(
    undefined,
    '`1`/`true`: allow `http://` and loopback key directories. **Tests and local development only**',
    'off',
  ),
  SIGNATURE_CLOCK_SKEW: integer(0, 3600, 30, 'seconds of clock difference tolerated on signature `created`/`expires` (0–3600)'),
  RELEASES_DIR: text(undefined, "a folder served at `/releases/` (the CLI's release files)"),
  SHUTDOWN_TIMEOUT: integer(0, 3600, 10, 'seconds SIGTERM/SIGINT waits for in-flight requests before closing connections'),
} as const satisfies Record<string, Variable>;

/** The name of a variable the service reads. */
export type VariableName = keyof typeof VARIABLES;
/** The names of the whole-number variables. */
export type IntegerName = { [N in VariableName]: (typeof VARIABLES)[N] extends IntegerVariable ? N : never }[VariableName];

/** The README's Default cell of a variable. */
function shownDefault(variable: Variable): string {
  if (variable.shownDefault !== undefined) return variable.shownDefault;
  return variable.default === undefined ? 'unset' : `\`${variable.default}\``;
}

/** The README's configuration table (Markdown, a line per variable, with its header). */
export function configurationTable(): string {
  const rows = Object.entries(VARIABLES).map(([name, v]: [string, Variable]) => `| \`${name}\` | ${shownDefault(v)} | ${v.meaning} |`);
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}
