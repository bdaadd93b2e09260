/**
 * Every environment variable the service reads, stated once in {@link CONFIG_TABLE}: a tree in the shape of the
 * configuration whose leaves are the variables, each with its name, default, parser (what is allowed, and the message
 * for a bad value) and meaning. From this table come the `Config` type (`ValueOf`), the values `loadConfig` reads
 * (`readTable`), the "only used with" and "set one or the other" rules of its groups, the order problems are listed
 * in, and the configuration table of docs/operations.md (`npx tsx scripts/config-table.ts`; `test/config-docs.test.ts` compares
 * the two). A new variable is one row. The rules between single variables are `loadConfig`'s.
 */
import { join } from 'node:path';
import envPaths from 'env-paths';
import type { ForwardingHeader } from '../http/client-address.js';
import { DEFAULT_LIMITS, READ_WINDOW_SECONDS, REFERRAL_WINDOW_SECONDS } from '../http/ratelimit/budgets.js';
import {
  authorityList,
  baseUrl,
  boolean,
  branch,
  choiceList,
  hostName,
  integer,
  MIN_WEBHOOK_SECRET_LENGTH,
  oneOf,
  path,
  rateLimitStore,
  repositoryFolder,
  repositoryUrl,
  sharedSecret,
  trustProxy,
  type Parser,
} from './config-parsers.js';
import { HOST_LIMITS } from './host.js';

/** pino's levels, plus `silent`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Access and service logs: JSON lines for collectors, or `pretty` (pino-pretty) for people at a terminal. */
export const LOG_FORMATS = ['json', 'pretty'] as const;
/** One of {@link LOG_FORMATS}. */
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Budgets per window are at most this many requests. */
const MAX_BUDGET = 1_000_000_000;

/** What a variable states besides its name. */
interface Row<T> {
  /**
   * The text used when the variable is unset or empty, parsed like a set value; absent: none (the value is then
   * `undefined`, or derived as `shownDefault` says).
   */
  readonly default?: string;
  /** The Default cell of the configuration table, when it is not the default in backquotes (or `unset`). */
  readonly shownDefault?: string;
  /** How the text becomes a value; its problems say what is allowed. */
  readonly parse: Parser<T>;
  /** The Meaning cell of the configuration table (Markdown). */
  readonly meaning: string;
}

/** One environment variable, a leaf of the table; `T` is its value, `undefined` included when it has no default. */
export interface Variable<T = unknown, N extends string = string> extends Row<T> {
  readonly node: 'variable';
  readonly name: N;
}

/**
 * A group read only when the variable `on` is set (its value is `undefined` otherwise; inside it, `on`'s value is
 * never `undefined`). Its other variables set without `on` are ignored: an image may set them for every deployment.
 */
export interface WhenSet<G, On extends string = string> {
  readonly node: 'whenSet';
  readonly on: On;
  readonly group: G;
}

/**
 * One of two groups, tagged by `kind`: `set` when the variable `selector` (one of `set`'s) is set, else `unset`.
 * A variable of `set` given without `selector` is refused (`NAME: only used with SELECTOR, which is not set`), and
 * one of `unset` given with it (`NAME and SELECTOR: <conflict>`).
 */
export interface Either<UK extends string, U, SK extends string, S, Sel extends string = string> {
  readonly node: 'either';
  readonly selector: Sel;
  readonly conflict: string;
  readonly unset: { readonly kind: UK; readonly group: U };
  readonly set: { readonly kind: SK; readonly group: S };
}

function variable<const N extends string, T>(name: N, row: Row<T> & { readonly default: string }): Variable<T, N>;
function variable<const N extends string, T>(name: N, row: Row<T>): Variable<T | undefined, N>;
function variable(name: string, row: Row<unknown>): Variable {
  return { node: 'variable', name, ...row };
}

const whenSet = <const On extends string, G>(on: On, group: G): WhenSet<G, On> => ({ node: 'whenSet', on, group });

const either = <const UK extends string, U, const SK extends string, S, const Sel extends string>(
  spec: Omit<Either<UK, U, SK, S, Sel>, 'node'>,
): Either<UK, U, SK, S, Sel> => ({ node: 'either', ...spec });

// The whole-number variables whose meaning quotes their range.
const GIT_POLL = integer(1, 86_400);
const GIT_HISTORY_DEPTH = integer(1, 1000);
const GIT_MAX_MIB = integer(1, 4096);
const STORE_TIMEOUT = integer(10, 10_000);
const CLOCK_SKEW = integer(0, 3600);
const range = ({ min, max }: { min: number; max: number }): string => `${min}–${max}`;

const LOG_LEVEL = oneOf(LOG_LEVELS);
const LOG_FORMAT = oneOf(LOG_FORMATS);
const FORWARDING_HEADER = oneOf<ForwardingHeader>(['x-forwarded-for', 'forwarded'], { lowercase: true });

/**
 * Every variable the service reads, in the shape of the configuration; depth first, in the order of docs/operations.md's table (which is
 * also the order problems are listed in).
 */
export const CONFIG_TABLE = {
  port: variable('PORT', { default: '8080', parse: integer(0, 65535), meaning: 'TCP port to listen on (`0`: any free port)' }),
  host: variable('HOST', {
    // Loopback, as most development servers: `npm start` on a laptop is reachable from this machine only. The
    // image, compose, Kubernetes and systemd files set `0.0.0.0` themselves.
    default: '127.0.0.1',
    parse: hostName,
    meaning: 'address to listen on: `0.0.0.0` (or `::` for IPv6 too) to accept other machines, as the image and the deploy files set',
  }),
  contentSource: either({
    selector: 'CONTENT_GIT_URL',
    conflict: 'set one or the other (a watched folder, or a Git branch this service follows)',
    unset: {
      kind: 'folder',
      group: {
        dir: variable('CONTENT_DIR', {
          default: 'content',
          parse: path,
          meaning:
            'the content folder (relative to the working directory); watched and reloaded on change. It, or a folder above it, may be a symbolic link swapped atomically (git-sync)',
        }),
      },
    },
    set: {
      kind: 'git',
      group: {
        url: variable('CONTENT_GIT_URL', {
          parse: repositoryUrl,
          meaning:
            'follow a Git branch instead of a folder: anything `git clone` accepts (`https://…`, `ssh://…`, `git@host:org/repo.git`, a local path, `file://…`). Not together with `CONTENT_DIR` (exit 2)',
        }),
        ref: variable('CONTENT_GIT_REF', { default: 'main', parse: branch, meaning: 'the branch followed' }),
        path: variable('CONTENT_GIT_PATH', {
          default: 'content',
          parse: repositoryFolder,
          meaning: 'the content folder inside the repository (`.` for its root)',
        }),
        pollSeconds: variable('CONTENT_GIT_POLL', {
          default: '30',
          parse: GIT_POLL,
          meaning: `seconds between fetches (${range(GIT_POLL)}); the webhook and SIGHUP fetch at once`,
        }),
        cacheDir: variable('CONTENT_GIT_CACHE', {
          // Under the OS cache folder (`$XDG_CACHE_HOME/syllabus` on Linux).
          default: join(envPaths('syllabus', { suffix: '' }).cache, 'content-git'),
          shownDefault: '`~/.cache/syllabus/content-git`',
          parse: path,
          meaning: 'working folder for the clone and the checkouts (`$XDG_CACHE_HOME/syllabus/…` when set)',
        }),
        historyDepth: variable('CONTENT_GIT_HISTORY_DEPTH', {
          default: '20',
          parse: GIT_HISTORY_DEPTH,
          meaning: `commits before an invalid branch head looked through at start for the newest valid one, when nothing valid is cached (${range(GIT_HISTORY_DEPTH)})`,
        }),
        maxContentMiB: variable('CONTENT_GIT_MAX_MIB', {
          default: '64',
          parse: GIT_MAX_MIB,
          meaning: `largest size of a commit's Markdown, in MiB (${range(GIT_MAX_MIB)}); a larger commit is refused as invalid content and the previous one stays served`,
        }),
        webhookSecret: variable('CONTENT_GIT_WEBHOOK_SECRET', {
          parse: sharedSecret,
          meaning: `shared secret of the push webhook \`POST /hooks/git\` on the admin listener (at least ${MIN_WEBHOOK_SECRET_LENGTH} characters; needs \`ADMIN_PORT\`)`,
        }),
      },
    },
  }),
  admin: whenSet('ADMIN_PORT', {
    port: variable('ADMIN_PORT', {
      shownDefault: 'unset (off)',
      parse: integer(0, 65535),
      meaning: "port of the admin listener (operators' endpoints: the push webhook); never the public port",
    }),
    host: variable('ADMIN_HOST', {
      default: '127.0.0.1',
      parse: hostName,
      meaning: 'address of the admin listener; route only your ingress for webhooks to it',
    }),
  }),
  referralsFile: variable('REFERRALS_FILE', {
    shownDefault: 'unset (no referral source)',
    parse: path,
    meaning:
      'file of SHA-256 hex digests of valid referral codes, one per line; watched. Unset: codes cannot be checked, and every `/v1/referrals/{code}` answers `503` (`referrals.sample.txt` holds published sample codes: local development only)',
  }),
  publicBaseUrl: variable('PUBLIC_BASE_URL', {
    shownDefault: '`http://localhost:<PORT>`',
    parse: baseUrl,
    meaning:
      'public URL of the service (`https://catalog.example.com`): deprecation `Link` targets, page links, the feed; when set, also the OpenAPI `servers` URL (otherwise `/`)',
  }),
  logLevel: variable('LOG_LEVEL', {
    default: 'info',
    parse: LOG_LEVEL,
    meaning: `${choiceList(LOG_LEVEL.choices)}; \`info\` writes one access-log line per request`,
  }),
  logFormat: variable('LOG_FORMAT', {
    default: 'json',
    parse: LOG_FORMAT,
    meaning: `${choiceList(LOG_FORMAT.choices)}: one JSON object per line (ISO 8601 \`time\`), or for people one coloured line each (time, level, message, then the fields as JSON)`,
  }),
  trustProxy: variable('TRUST_PROXY', {
    default: '0',
    shownDefault: 'none',
    parse: trustProxy,
    meaning: 'trusted proxies: addresses/CIDRs, `loopback`/`linklocal`/`uniquelocal`, or a hop count (see *Deployment*)',
  }),
  trustProxyHeader: variable('TRUST_PROXY_HEADER', {
    default: 'x-forwarded-for',
    parse: FORWARDING_HEADER,
    meaning: `header the trusted proxies write: ${choiceList(FORWARDING_HEADER.choices)}`,
  }),
  rateLimits: {
    verified: variable('RATE_LIMIT_VERIFIED', {
      default: `${DEFAULT_LIMITS.verified}`,
      parse: integer(1, MAX_BUDGET),
      meaning: `reads per ${READ_WINDOW_SECONDS} s per IP address for verified agents`,
    }),
    declared: variable('RATE_LIMIT_DECLARED', {
      default: `${DEFAULT_LIMITS.declared}`,
      parse: integer(1, MAX_BUDGET),
      meaning: `reads per ${READ_WINDOW_SECONDS} s for declared agents`,
    }),
    browser: variable('RATE_LIMIT_BROWSER', {
      default: `${DEFAULT_LIMITS.browser}`,
      parse: integer(1, MAX_BUDGET),
      meaning: `reads per ${READ_WINDOW_SECONDS} s for browsers`,
    }),
    anonymous: variable('RATE_LIMIT_ANONYMOUS', {
      default: `${DEFAULT_LIMITS.anonymous}`,
      parse: integer(1, MAX_BUDGET),
      meaning: `reads per ${READ_WINDOW_SECONDS} s for anything else`,
    }),
    referrals: variable('RATE_LIMIT_REFERRALS', {
      default: `${DEFAULT_LIMITS.referrals}`,
      parse: integer(1, MAX_BUDGET),
      meaning: `referral lookups per ${REFERRAL_WINDOW_SECONDS} s per IP address`,
    }),
  },
  rateLimitStore: variable('RATE_LIMIT_STORE', {
    default: 'memory',
    parse: rateLimitStore,
    meaning: '`memory`, or `redis://…`/`rediss://…` to share budgets between instances',
  }),
  rateLimitStoreTimeoutMs: variable('RATE_LIMIT_STORE_TIMEOUT_MS', {
    default: '200',
    parse: STORE_TIMEOUT,
    meaning: `longest wait for a Redis reply before counting in this process instead (${range(STORE_TIMEOUT)})`,
  }),
  workers: variable('WORKERS', {
    default: '1',
    parse: integer(1, 256),
    meaning: 'server processes sharing the port (`node:cluster`); more than 1 requires the Redis store',
  }),
  keyDirectoryAllowInsecure: variable('KEY_DIRECTORY_ALLOW_INSECURE', {
    default: 'off',
    parse: boolean,
    meaning: '`1`/`true`: allow `http://` and loopback key directories. **Tests and local development only**',
  }),
  signatureAuthorities: variable('SIGNATURE_AUTHORITIES', {
    default: '',
    shownDefault: 'none',
    parse: authorityList,
    meaning:
      "authorities (`host[:port]`, comma-separated) a verified agent's signature may name besides `PUBLIC_BASE_URL`'s host; a signature for any other site is not accepted",
  }),
  signatureClockSkewSeconds: variable('SIGNATURE_CLOCK_SKEW', {
    default: '30',
    parse: CLOCK_SKEW,
    meaning: `seconds of clock difference tolerated on signature \`created\`/\`expires\` (${range(CLOCK_SKEW)})`,
  }),
  releasesDir: variable('RELEASES_DIR', { parse: path, meaning: "a folder served at `/releases/` (the CLI's release files)" }),
  maxConnections: variable('MAX_CONNECTIONS', {
    default: String(HOST_LIMITS.maxConnections),
    parse: integer(1, 1_000_000),
    meaning: 'open connections on the public port at most; more are closed as they arrive (keep it below the descriptor limit, `ulimit -n`)',
  }),
  maxConnectionsPerAddress: variable('MAX_CONNECTIONS_PER_ADDRESS', {
    default: String(HOST_LIMITS.maxConnectionsPerAddress),
    parse: integer(1, 1_000_000),
    meaning: 'open connections from one peer address at most; trusted proxies (`TRUST_PROXY`) are exempt',
  }),
  shutdownTimeoutSeconds: variable('SHUTDOWN_TIMEOUT', {
    default: '10',
    parse: integer(0, 3600),
    meaning: 'seconds SIGTERM/SIGINT waits for in-flight requests before closing connections',
  }),
} as const;

/** The value a part of the table gives; inside a group switched on by the variable `On`, that one is never `undefined`. */
export type ValueOf<S, On extends string = never> =
  S extends Variable<infer T, infer N>
    ? [N] extends [On]
      ? NonNullable<T>
      : T
    : S extends WhenSet<infer G, infer W>
      ? ValueOf<G, On | W> | undefined
      : S extends Either<infer UK, infer U, infer SK, infer G, infer Sel>
        ? Tagged<UK, ValueOf<U, On>> | Tagged<SK, ValueOf<G, On | Sel>>
        : { -readonly [K in keyof S]: ValueOf<S[K], On> };

/** A group's value with its `kind`. */
type Tagged<K extends string, V> = { kind: K } & V;

/** The variables of a part of the table. */
type Leaves<S> = S extends Variable
  ? S
  : S extends WhenSet<infer G>
    ? Leaves<G>
    : S extends Either<string, infer U, string, infer G>
      ? Leaves<U> | Leaves<G>
      : { [K in keyof S]: Leaves<S[K]> }[keyof S];

/** The name of a variable the service reads. */
export type VariableName = Leaves<typeof CONFIG_TABLE>['name'];

/** A variable with its place in the table. */
export interface VariableRow extends Variable {
  /** The field its value fills, as a dotted path (`rateLimits.verified`). */
  readonly field: string;
  /** The variable it is only used with (a member of an {@link Either}'s `set` group). */
  readonly requires?: string;
  /** The variable it cannot be set with, and why (a member of an {@link Either}'s `unset` group). */
  readonly excludedBy?: { readonly selector: string; readonly conflict: string };
}

/** Whether a part of the table is a leaf, a switched group, a choice of two groups, or a plain group. */
type Part = Variable | WhenSet<unknown> | Either<string, unknown, string, unknown> | { readonly [key: string]: unknown };

const isNode = <K extends 'variable' | 'whenSet' | 'either'>(part: unknown, node: K): part is Extract<Part, { node: K }> =>
  (part as { node?: unknown }).node === node;

/** The variables of `part`, depth first, with their fields and the rules of the groups they are in. */
function rowsOf(part: unknown, path: readonly string[], within: Pick<VariableRow, 'requires' | 'excludedBy'>): VariableRow[] {
  if (isNode(part, 'variable')) return [{ ...part, field: path.join('.'), ...within }];
  if (isNode(part, 'whenSet')) return rowsOf(part.group, path, within);
  if (isNode(part, 'either')) {
    const { selector, conflict } = part;
    return [
      ...rowsOf(part.unset.group, path, { ...within, excludedBy: { selector, conflict } }),
      // The selector itself is what the others require.
      ...rowsOf(part.set.group, path, { ...within, requires: selector }).map((row) =>
        row.name === selector ? { ...row, requires: within.requires } : row,
      ),
    ];
  }
  return Object.entries(part as Record<string, unknown>).flatMap(([key, child]) => rowsOf(child, [...path, key], within));
}

const ROWS = rowsOf(CONFIG_TABLE, [], {});

/** Every variable by name, in the table's order. */
export const VARIABLES = Object.fromEntries(ROWS.map((row) => [row.name, row])) as Readonly<Record<VariableName, VariableRow>>;

/** The names of {@link VARIABLES}, in its order. */
export const VARIABLE_NAMES = ROWS.map((row) => row.name) as VariableName[];

/** Environment variables as read by `loadConfig`. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A variable's text as set (trimmed), or `undefined` when unset or empty: both mean its default. */
export function variableText(env: Env, name: string): string | undefined {
  return env[name]?.trim() || undefined;
}

/**
 * Reads one variable.
 * @param text its text as set (trimmed, not empty), or `undefined` when unset.
 * @param cwd the folder relative paths are resolved against.
 * @returns its value (its default's when unset, and when the text is bad and there is a default; without a default,
 *   the parser's stand-in, so a set variable always has a value) and, when the text is bad, the problem, starting
 *   with the variable's name.
 */
export function readVariable<T>(variable: Variable<T>, text: string | undefined, cwd: string): { value: T; problem?: string } {
  const fromDefault = (): T => (variable.default === undefined ? undefined : variable.parse(variable.default, cwd).value) as T;
  if (text === undefined) return { value: fromDefault() };
  const { value, problem } = variable.parse(text, cwd);
  if (problem === undefined) return { value };
  return { value: variable.default === undefined ? value : fromDefault(), problem: `${variable.name}: ${problem}` };
}

/** A problem of the configuration, under the variable it is listed with. */
export interface ConfigProblem {
  readonly name: VariableName;
  readonly message: string;
}

/**
 * Reads the table's values from `env`: each group as its switch or selector says, every variable read as
 * {@link readVariable} does. Problems: each bad value, and each variable set where its group does not read it.
 */
export function readTable(env: Env, cwd: string): { config: ValueOf<typeof CONFIG_TABLE>; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const report = (name: string, message: string): void => void problems.push({ name: name as VariableName, message });
  const isSet = (name: string): boolean => variableText(env, name) !== undefined;
  for (const { name, requires, excludedBy } of ROWS) {
    if (!isSet(name)) continue;
    if (requires !== undefined && !isSet(requires)) report(name, `${name}: only used with ${requires}, which is not set`);
    if (excludedBy !== undefined && isSet(excludedBy.selector)) report(name, `${name} and ${excludedBy.selector}: ${excludedBy.conflict}`);
  }
  const read = (part: unknown): unknown => {
    if (isNode(part, 'variable')) {
      const { value, problem } = readVariable(part, variableText(env, part.name), cwd);
      if (problem !== undefined) report(part.name, problem);
      return value;
    }
    if (isNode(part, 'whenSet')) return isSet(part.on) ? read(part.group) : undefined;
    if (isNode(part, 'either')) {
      const { kind, group } = isSet(part.selector) ? part.set : part.unset;
      return { kind, ...(read(group) as object) };
    }
    return Object.fromEntries(Object.entries(part as Record<string, unknown>).map(([key, child]) => [key, read(child)]));
  };
  return { config: read(CONFIG_TABLE) as ValueOf<typeof CONFIG_TABLE>, problems };
}

/** The Default cell of the configuration table of a variable. */
function shownDefault(variable: Variable): string {
  if (variable.shownDefault !== undefined) return variable.shownDefault;
  return variable.default === undefined ? 'unset' : `\`${variable.default}\``;
}

/** The configuration table of docs/operations.md (Markdown, a line per variable, with its header). */
export function configurationTable(): string {
  const rows = ROWS.map((variable) => `| \`${variable.name}\` | ${shownDefault(variable)} | ${variable.meaning} |`);
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}
