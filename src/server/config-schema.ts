/**
 * Every environment variable the service reads, stated once ({@link VARIABLES}): the field of `Config` it fills,
 * its default, how its text is parsed and what is allowed, and its meaning. From this table come the defaults
 * `loadConfig` uses, the messages for bad values (`NAME: what is wrong and what is allowed`), the "only used with"
 * rule, the order problems are listed in, and the configuration table of docs/operations.md (`npx tsx scripts/config-table.ts`;
 * `test/readme-config.test.ts` compares the two). The rules between variables are `loadConfig`'s.
 */
import { isAbsolute, join, resolve } from 'node:path';
import envPaths from 'env-paths';
import proxyAddr from 'proxy-addr';
import type { ForwardingHeader, TrustProxySetting } from '../http/client-address.js';
import { DEFAULT_LIMITS, READ_WINDOW_SECONDS, REFERRAL_WINDOW_SECONDS } from '../http/ratelimit/budgets.js';
import { HOST_LIMITS } from './host.js';
import { redactUrl } from '../git/redact.js';

/** pino's levels, plus `silent`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Access and service logs: JSON lines for collectors, or `pretty` (pino-pretty) for people at a terminal. */
export const LOG_FORMATS = ['json', 'pretty'] as const;
/** One of {@link LOG_FORMATS}. */
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Where rate-limit buckets live (`RATE_LIMIT_STORE`). */
export type RateLimitStoreConfig = { kind: 'memory' } | { kind: 'redis'; url: string };

/** The shortest webhook secret accepted, in characters: a guessable secret would let anyone trigger fetches. */
const MIN_WEBHOOK_SECRET_LENGTH = 16;
/** The most trusted proxy hops. */
const MAX_HOPS = 32;
/** Budgets per window are at most this many requests. */
const MAX_BUDGET = 1_000_000_000;

/**
 * What a parser reads from a variable's text: the value and, when the text is bad, what is wrong with it and what
 * is allowed (the message after `NAME: `). With a problem, `value` is only a stand-in that lets the other variables
 * be checked; `loadConfig` then throws.
 */
export interface Parsed<T> {
  readonly value: T;
  readonly problem?: string;
}

/**
 * How a variable's text becomes a value.
 * @param text the text as set (trimmed, not empty), or the default.
 * @param cwd the folder relative paths are resolved against.
 */
export type Parser<T> = (text: string, cwd: string) => Parsed<T>;

/** One environment variable: a row of {@link VARIABLES}. */
export interface Variable<T> {
  /** The field of `Config` its value fills, as a dotted path (`rateLimits.verified`). */
  readonly field: string;
  /**
   * The text used when the variable is unset or empty, parsed like a set value; `undefined`: none (the field is
   * then `undefined`, or derived as `shownDefault` says).
   */
  readonly default: string | undefined;
  /** The Default cell of the configuration table, when it is not the default in backquotes (or `unset`). */
  readonly shownDefault?: string;
  /** How the text becomes a value; its problems say what is allowed. */
  readonly parse: Parser<T>;
  /** The variable this one is only used with: set without it, it is reported (and not read). */
  readonly requires?: string;
  /** The Meaning cell of the configuration table (Markdown). */
  readonly meaning: string;
}

const quote = JSON.stringify;
const good = <T>(value: T): Parsed<T> => ({ value });
const bad = <T>(value: T, problem: string): Parsed<T> => ({ value, problem });

/** A whole number from `min` to `max`, digits only (stand-in: `NaN`); `min` and `max` are kept for the meanings that quote them. */
function integer(min: number, max: number): Parser<number> & { readonly min: number; readonly max: number } {
  const parse: Parser<number> = (text) =>
    /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max
      ? good(Number(text))
      : bad(NaN, `${quote(text)} is not a whole number from ${min} to ${max}`);
  return Object.assign(parse, { min, max });
}

/** One of `choices` (compared in lower case when `lowercase`); `choices` are kept for the meanings that list them. */
function oneOf<const C extends string>(choices: readonly [C, ...C[]], { lowercase = false } = {}): Parser<C> & { readonly choices: readonly C[] } {
  const isChoice = (text: string): text is C => (choices as readonly string[]).includes(text);
  const allowed = choices.length === 2 ? `neither ${choices.join(' nor ')}` : `not one of ${choices.join(', ')}`;
  const parse: Parser<C> = (text) => {
    const v = lowercase ? text.toLowerCase() : text;
    return isChoice(v) ? good(v) : bad(choices[0], `${quote(v)} is ${allowed}`);
  };
  return Object.assign(parse, { choices });
}

/** `a`, `b` or `c`, in Markdown. */
const either = (choices: readonly string[]): string =>
  choices
    .map((c) => `\`${c}\``)
    .join(', ')
    .replace(/, ([^,]*)$/, ' or $1');

/** The words of a boolean, true then false. */
const BOOLEAN_WORDS = [
  ['1', '0'],
  ['true', 'false'],
  ['yes', 'no'],
  ['on', 'off'],
] as const;
/** A boolean: one of {@link BOOLEAN_WORDS}, in any case. */
const boolean: Parser<boolean> = (text) => {
  const pair = BOOLEAN_WORDS.find((words) => (words as readonly string[]).includes(text.toLowerCase()));
  if (pair !== undefined) return good(pair[0] === text.toLowerCase());
  return bad(false, `${quote(text)} is not a boolean (${BOOLEAN_WORDS.map((words) => words.join('/')).join(', ')})`);
};

/** A host name or IP address to listen on (no spaces or slashes). */
const hostName: Parser<string> = (text) => (/\s|\//.test(text) ? bad(text, `${quote(text)} is not a host name or IP address`) : good(text));

/** A path, resolved against the working directory. */
const path: Parser<string> = (text, cwd) => good(resolve(cwd, text));

/** `host[:port]` values, comma-separated, normalised as URLs write them (lower case, no default port). */
const authorityList: Parser<string[]> = (text) => {
  const items = text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const hostOf = (item: string): string | undefined => {
    try {
      const url = new URL(`https://${item}/`);
      return url.username === '' && url.pathname === '/' && !item.includes('/') ? url.host : undefined;
    } catch {
      return undefined;
    }
  };
  const invalid = items.filter((item) => hostOf(item) === undefined);
  if (invalid.length > 0) return bad([], `not a host[:port]: ${invalid.join(', ')}`);
  return good(items.map((item) => hostOf(item)!));
};

/** An absolute http(s) URL without query, fragment or credentials; a trailing slash is dropped. */
const baseUrl: Parser<string> = (text) => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return bad(text, `${quote(text)} is not an absolute URL (e.g. https://catalog.example.com)`);
  }
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return bad(base, `${quote(text)} must use http or https`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    return bad(base, `${quote(text)} must not have a query, fragment or credentials`);
  }
  return good(base);
};

/** `false`/`0` (none), a hop count, or a comma-separated list `proxy-addr` accepts. */
const trustProxy: Parser<TrustProxySetting> = (text) => {
  if (text === 'false' || text === '0') return good({ kind: 'none' });
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops <= MAX_HOPS) return good({ kind: 'hops', hops });
    return bad(
      { kind: 'hops', hops },
      `${hops} hops is more than ${MAX_HOPS}; give a proxy count from 0 to ${MAX_HOPS} or a list of addresses/CIDRs`,
    );
  }
  const entries = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  try {
    proxyAddr.compile(entries);
  } catch (error) {
    return bad(
      { kind: 'list', entries },
      `${quote(text)} is not a hop count or a comma-separated list of IP addresses, CIDRs, loopback, linklocal or uniquelocal (${(error as Error).message})`,
    );
  }
  return good({ kind: 'list', entries });
};

/** `memory`, or a `redis://`/`rediss://` URL (never shown with its password). */
const rateLimitStore: Parser<RateLimitStoreConfig> = (text) => {
  if (text === 'memory') return good({ kind: 'memory' });
  if (URL.canParse(text) && ['redis:', 'rediss:'].includes(new URL(text).protocol)) return good({ kind: 'redis', url: text });
  return bad({ kind: 'memory' }, `${quote(redactUrl(text))} is neither "memory" nor a redis:// or rediss:// URL`);
};

/** What `git clone` accepts, and cannot be taken for an option (never shown with its credentials). */
const repositoryUrl: Parser<string> = (text) =>
  text.startsWith('-') || /[\u0000-\u001f\u007f]/.test(text) ? bad(text, `${quote(redactUrl(text))} is not a repository URL or path`) : good(text);

/**
 * Why `name` is not a branch name git accepts (the rules of `git check-ref-format --branch`, plus no leading
 * `-` so it can never be read as an option), or `undefined` when it is one.
 */
export function branchNameProblem(name: string): string | undefined {
  if (name.startsWith('-')) return 'must not start with "-"';
  if (name.startsWith('refs/')) return 'is a branch name such as main, not a full ref';
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return 'has a character git does not allow in a branch name (space, control, ~ ^ : ? * [ \\)';
  if (name.includes('..') || name.includes('@{') || name === '@') return 'has ".." or "@{", which git does not allow';
  if (name.split('/').some((part) => part === '' || part.startsWith('.') || part.endsWith('.lock'))) {
    return 'has an empty part, a part starting with "." or ending with ".lock"';
  }
  if (name.endsWith('.')) return 'must not end with "."';
  return undefined;
}

/** A branch name git accepts. */
const branch: Parser<string> = (text) => {
  const problem = branchNameProblem(text);
  return problem === undefined ? good(text) : bad(text, `${quote(text)} ${problem}`);
};

/** A folder inside the repository: relative, `/`-separated, without `..`; trailing slashes dropped, `.` for the root. */
const repositoryFolder: Parser<string> = (text) => {
  const folder = text.replace(/\/+$/, '') || '.';
  const outside =
    isAbsolute(folder) ||
    folder.split('/').some((part) => part === '..' || part === '') ||
    folder.startsWith('-') ||
    /[\u0000-\u001f\u007f\\]/.test(folder);
  return outside ? bad(folder, `${quote(folder)} must be a folder inside the repository, relative, without ".." (e.g. content)`) : good(folder);
};

/** A shared secret of at least {@link MIN_WEBHOOK_SECRET_LENGTH} characters. */
const sharedSecret: Parser<string> = (text) =>
  text.length < MIN_WEBHOOK_SECRET_LENGTH
    ? bad(text, `use at least ${MIN_WEBHOOK_SECRET_LENGTH} random characters (e.g. openssl rand -hex 32)`)
    : good(text);

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

/** Every variable the service reads, in the order of docs/operations.md's table (which is also the order problems are listed in). */
export const VARIABLES = {
  PORT: { field: 'port', default: '8080', parse: integer(0, 65535), meaning: 'TCP port to listen on (`0`: any free port)' },
  HOST: {
    field: 'host',
    // Loopback, as most development servers: `npm start` on a laptop is reachable from this machine only. The
    // image, compose, Kubernetes and systemd files set `0.0.0.0` themselves.
    default: '127.0.0.1',
    parse: hostName,
    meaning: 'address to listen on: `0.0.0.0` (or `::` for IPv6 too) to accept other machines, as the image and the deploy files set',
  },
  CONTENT_DIR: {
    field: 'contentSource.dir',
    default: 'content',
    parse: path,
    meaning:
      'the content folder (relative to the working directory); watched and reloaded on change. It, or a folder above it, may be a symbolic link swapped atomically (git-sync)',
  },
  CONTENT_GIT_URL: {
    field: 'contentSource.url',
    default: undefined,
    parse: repositoryUrl,
    meaning:
      'follow a Git branch instead of a folder: anything `git clone` accepts (`https://…`, `ssh://…`, `git@host:org/repo.git`, a local path, `file://…`). Not together with `CONTENT_DIR` (exit 2)',
  },
  CONTENT_GIT_REF: { field: 'contentSource.ref', default: 'main', parse: branch, requires: 'CONTENT_GIT_URL', meaning: 'the branch followed' },
  CONTENT_GIT_PATH: {
    field: 'contentSource.path',
    default: 'content',
    parse: repositoryFolder,
    requires: 'CONTENT_GIT_URL',
    meaning: 'the content folder inside the repository (`.` for its root)',
  },
  CONTENT_GIT_POLL: {
    field: 'contentSource.pollSeconds',
    default: '30',
    parse: GIT_POLL,
    requires: 'CONTENT_GIT_URL',
    meaning: `seconds between fetches (${range(GIT_POLL)}); the webhook and SIGHUP fetch at once`,
  },
  CONTENT_GIT_CACHE: {
    field: 'contentSource.cacheDir',
    // Under the OS cache folder (`$XDG_CACHE_HOME/syllabus` on Linux).
    default: join(envPaths('syllabus', { suffix: '' }).cache, 'content-git'),
    shownDefault: '`~/.cache/syllabus/content-git`',
    parse: path,
    requires: 'CONTENT_GIT_URL',
    meaning: 'working folder for the clone and the checkouts (`$XDG_CACHE_HOME/syllabus/…` when set)',
  },
  CONTENT_GIT_HISTORY_DEPTH: {
    field: 'contentSource.historyDepth',
    default: '20',
    parse: GIT_HISTORY_DEPTH,
    requires: 'CONTENT_GIT_URL',
    meaning: `commits before an invalid branch head looked through at start for the newest valid one, when nothing valid is cached (${range(GIT_HISTORY_DEPTH)})`,
  },
  CONTENT_GIT_MAX_MIB: {
    field: 'contentSource.maxContentMiB',
    default: '64',
    parse: GIT_MAX_MIB,
    requires: 'CONTENT_GIT_URL',
    meaning: `largest size of a commit's Markdown, in MiB (${range(GIT_MAX_MIB)}); a larger commit is refused as invalid content and the previous one stays served`,
  },
  CONTENT_GIT_WEBHOOK_SECRET: {
    field: 'contentSource.webhookSecret',
    default: undefined,
    parse: sharedSecret,
    requires: 'CONTENT_GIT_URL',
    meaning: `shared secret of the push webhook \`POST /hooks/git\` on the admin listener (at least ${MIN_WEBHOOK_SECRET_LENGTH} characters; needs \`ADMIN_PORT\`)`,
  },
  ADMIN_PORT: {
    field: 'admin.port',
    default: undefined,
    shownDefault: 'unset (off)',
    parse: integer(0, 65535),
    meaning: "port of the admin listener (operators' endpoints: the push webhook); never the public port",
  },
  ADMIN_HOST: {
    field: 'admin.host',
    default: '127.0.0.1',
    parse: hostName,
    meaning: 'address of the admin listener; route only your ingress for webhooks to it',
  },
  REFERRALS_FILE: {
    field: 'referralsFile',
    default: undefined,
    shownDefault: 'unset (no referral source)',
    parse: path,
    meaning:
      'file of SHA-256 hex digests of valid referral codes, one per line; watched. Unset: codes cannot be checked, and every `/v1/referrals/{code}` answers `503` (`referrals.sample.txt` holds published sample codes: local development only)',
  },
  PUBLIC_BASE_URL: {
    field: 'publicBaseUrl',
    default: undefined,
    shownDefault: '`http://localhost:<PORT>`',
    parse: baseUrl,
    meaning:
      'public URL of the service (`https://catalog.example.com`): deprecation `Link` targets, page links, the feed; when set, also the OpenAPI `servers` URL (otherwise `/`)',
  },
  LOG_LEVEL: {
    field: 'logLevel',
    default: 'info',
    parse: LOG_LEVEL,
    meaning: `${either(LOG_LEVEL.choices)}; \`info\` writes one access-log line per request`,
  },
  LOG_FORMAT: {
    field: 'logFormat',
    default: 'json',
    parse: LOG_FORMAT,
    meaning: `${either(LOG_FORMAT.choices)}: one JSON object per line (ISO 8601 \`time\`), or for people one coloured line each (time, level, message, then the fields as JSON)`,
  },
  TRUST_PROXY: {
    field: 'trustProxy',
    default: '0',
    shownDefault: 'none',
    parse: trustProxy,
    meaning: 'trusted proxies: addresses/CIDRs, `loopback`/`linklocal`/`uniquelocal`, or a hop count (see *Deployment*)',
  },
  TRUST_PROXY_HEADER: {
    field: 'trustProxyHeader',
    default: 'x-forwarded-for',
    parse: FORWARDING_HEADER,
    meaning: `header the trusted proxies write: ${either(FORWARDING_HEADER.choices)}`,
  },
  RATE_LIMIT_VERIFIED: {
    field: 'rateLimits.verified',
    default: `${DEFAULT_LIMITS.verified}`,
    parse: integer(1, MAX_BUDGET),
    meaning: `reads per ${READ_WINDOW_SECONDS} s per IP address for verified agents`,
  },
  RATE_LIMIT_DECLARED: {
    field: 'rateLimits.declared',
    default: `${DEFAULT_LIMITS.declared}`,
    parse: integer(1, MAX_BUDGET),
    meaning: `reads per ${READ_WINDOW_SECONDS} s for declared agents`,
  },
  RATE_LIMIT_BROWSER: {
    field: 'rateLimits.browser',
    default: `${DEFAULT_LIMITS.browser}`,
    parse: integer(1, MAX_BUDGET),
    meaning: `reads per ${READ_WINDOW_SECONDS} s for browsers`,
  },
  RATE_LIMIT_ANONYMOUS: {
    field: 'rateLimits.anonymous',
    default: `${DEFAULT_LIMITS.anonymous}`,
    parse: integer(1, MAX_BUDGET),
    meaning: `reads per ${READ_WINDOW_SECONDS} s for anything else`,
  },
  RATE_LIMIT_REFERRALS: {
    field: 'rateLimits.referrals',
    default: `${DEFAULT_LIMITS.referrals}`,
    parse: integer(1, MAX_BUDGET),
    meaning: `referral lookups per ${REFERRAL_WINDOW_SECONDS} s per IP address`,
  },
  RATE_LIMIT_STORE: {
    field: 'rateLimitStore',
    default: 'memory',
    parse: rateLimitStore,
    meaning: '`memory`, or `redis://…`/`rediss://…` to share budgets between instances',
  },
  RATE_LIMIT_STORE_TIMEOUT_MS: {
    field: 'rateLimitStoreTimeoutMs',
    default: '200',
    parse: STORE_TIMEOUT,
    meaning: `longest wait for a Redis reply before counting in this process instead (${range(STORE_TIMEOUT)})`,
  },
  WORKERS: {
    field: 'workers',
    default: '1',
    parse: integer(1, 256),
    meaning: 'server processes sharing the port (`node:cluster`); more than 1 requires the Redis store',
  },
  KEY_DIRECTORY_ALLOW_INSECURE: {
    field: 'keyDirectoryAllowInsecure',
    default: 'off',
    parse: boolean,
    meaning: '`1`/`true`: allow `http://` and loopback key directories. **Tests and local development only**',
  },
  SIGNATURE_AUTHORITIES: {
    field: 'signatureAuthorities',
    default: '',
    shownDefault: 'none',
    parse: authorityList,
    meaning:
      "authorities (`host[:port]`, comma-separated) a verified agent's signature may name besides `PUBLIC_BASE_URL`'s host; a signature for any other site is not accepted",
  },
  SIGNATURE_CLOCK_SKEW: {
    field: 'signatureClockSkewSeconds',
    default: '30',
    parse: CLOCK_SKEW,
    meaning: `seconds of clock difference tolerated on signature \`created\`/\`expires\` (${range(CLOCK_SKEW)})`,
  },
  RELEASES_DIR: { field: 'releasesDir', default: undefined, parse: path, meaning: "a folder served at `/releases/` (the CLI's release files)" },
  MAX_CONNECTIONS: {
    field: 'maxConnections',
    default: String(HOST_LIMITS.maxConnections),
    parse: integer(1, 1_000_000),
    meaning: 'open connections on the public port at most; more are closed as they arrive (keep it below the descriptor limit, `ulimit -n`)',
  },
  MAX_CONNECTIONS_PER_ADDRESS: {
    field: 'maxConnectionsPerAddress',
    default: String(HOST_LIMITS.maxConnectionsPerAddress),
    parse: integer(1, 1_000_000),
    meaning: 'open connections from one peer address at most; trusted proxies (`TRUST_PROXY`) are exempt',
  },
  SHUTDOWN_TIMEOUT: {
    field: 'shutdownTimeoutSeconds',
    default: '10',
    parse: integer(0, 3600),
    meaning: 'seconds SIGTERM/SIGINT waits for in-flight requests before closing connections',
  },
} as const satisfies Record<string, Variable<unknown>>;

/** The name of a variable the service reads. */
export type VariableName = keyof typeof VARIABLES;

/** The names of {@link VARIABLES}, in its order. */
export const VARIABLE_NAMES = Object.keys(VARIABLES) as VariableName[];

/** The value a variable gives: its parser's type, and `undefined` too when it has no default. */
export type VariableValue<N extends VariableName> =
  (typeof VARIABLES)[N] extends Variable<infer T> ? ((typeof VARIABLES)[N]['default'] extends string ? T : T | undefined) : never;

/**
 * Reads one variable.
 * @param text its text as set (trimmed, not empty), or `undefined` when unset.
 * @param cwd the folder relative paths are resolved against.
 * @returns its value (its default's when unset, and when the text is bad and there is a default) and, when the
 *   text is bad, the problem, starting with the variable's name.
 */
export function readVariable<N extends VariableName>(name: N, text: string | undefined, cwd: string): { value: VariableValue<N>; problem?: string } {
  const variable: Variable<unknown> = VARIABLES[name];
  const fromDefault = (): unknown => (variable.default === undefined ? undefined : variable.parse(variable.default, cwd).value);
  if (text === undefined) return { value: fromDefault() as VariableValue<N> };
  const { value, problem } = variable.parse(text, cwd);
  if (problem === undefined) return { value: value as VariableValue<N> };
  return { value: (variable.default === undefined ? value : fromDefault()) as VariableValue<N>, problem: `${name}: ${problem}` };
}

/** The Default cell of the configuration table of a variable. */
function shownDefault(variable: Variable<unknown>): string {
  if (variable.shownDefault !== undefined) return variable.shownDefault;
  return variable.default === undefined ? 'unset' : `\`${variable.default}\``;
}

/** The configuration table of docs/operations.md (Markdown, a line per variable, with its header). */
export function configurationTable(): string {
  const rows = VARIABLE_NAMES.map((name) => {
    const variable: Variable<unknown> = VARIABLES[name];
    return `| \`${name}\` | ${shownDefault(variable)} | ${variable.meaning} |`;
  });
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}
