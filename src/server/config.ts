/**
 * The service's configuration: every environment variable it reads, parsed and validated once at start-up.
 * A bad value is reported by name with what was wrong and what is allowed; all bad values are reported together.
 * Which variables exist, their defaults, ranges and meanings are stated once in `config-schema.ts` (the README's
 * table is rendered from it); this module parses and checks them, including the rules between variables.
 */
import { isAbsolute, resolve } from 'node:path';
import proxyAddr from 'proxy-addr';
import type { BudgetLimits } from '../http/ratelimit/budgets.js';
import { redactUrl } from '../source/redact.js';
import { DEFAULT_LOG_LEVEL, LOG_LEVELS, MIN_WEBHOOK_SECRET_LENGTH, VARIABLES, type IntegerName, type VariableName } from './config-schema.js';

export { LOG_LEVELS };
/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Which peers are trusted proxies (`TRUST_PROXY`). `none`: the socket peer is the client. `hops`: trust the
 * nearest `hops` proxies. `list`: trust peers matching these addresses, CIDRs or `proxy-addr` names
 * (`loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustProxy = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'list'; entries: string[] };

/** Where rate-limit buckets live (`RATE_LIMIT_STORE`). */
export type RateLimitStoreConfig = { kind: 'memory' } | { kind: 'redis'; url: string };

/** Requests allowed per window, per client address and kind (contract §5): the budgets' own shape. */
export type RateLimits = BudgetLimits;

/**
 * Where the content comes from. `folder` (`CONTENT_DIR`): a folder on this machine, watched; it may be a symbolic
 * link, swapped by git-sync or a deploy. `git` (`CONTENT_GIT_*`): this service follows a branch of a repository.
 */
export type ContentSourceConfig =
  | {
      kind: 'folder';
      /** Absolute path of the content folder (`CONTENT_DIR`). */
      dir: string;
    }
  | {
      kind: 'git';
      /** What `git clone` accepts: https, ssh, a local path, `file://` (`CONTENT_GIT_URL`). May hold credentials: never log it as is. */
      url: string;
      /** Branch followed (`CONTENT_GIT_REF`). */
      ref: string;
      /** The content folder inside the repository, `/`-separated and relative (`CONTENT_GIT_PATH`). */
      path: string;
      /** Seconds between fetches (`CONTENT_GIT_POLL`). */
      pollSeconds: number;
      /** Absolute path of the working folder: clones and checkouts (`CONTENT_GIT_CACHE`). */
      cacheDir: string;
      /** Shared secret of the push webhook, or `undefined` when the webhook is off (`CONTENT_GIT_WEBHOOK_SECRET`). */
      webhookSecret: string | undefined;
    };

/** The admin listener (`ADMIN_PORT`, `ADMIN_HOST`): operators' endpoints, never on the public port. */
export interface AdminListenerConfig {
  port: number;
  host: string;
}

/** The validated configuration. Paths are absolute. */
export interface Config {
  /** TCP port to listen on (`PORT`, 0 = any free port). */
  port: number;
  /** Address to listen on (`HOST`). */
  host: string;
  /** Where the content comes from (`CONTENT_DIR`, or `CONTENT_GIT_URL` and its companions). */
  contentSource: ContentSourceConfig;
  /** The admin listener, or `undefined` when `ADMIN_PORT` is not set. */
  admin: AdminListenerConfig | undefined;
  /** Absolute path of the referral digests file (`REFERRALS_FILE`). */
  referralsFile: string;
  /** Public origin (and optional path prefix) of the service, no trailing slash (`PUBLIC_BASE_URL`). */
  publicBaseUrl: string;
  /** Whether `PUBLIC_BASE_URL` was set (otherwise `publicBaseUrl` is the local default, and the OpenAPI
   * document's server stays relative so it works on any port). */
  publicBaseUrlSet: boolean;
  /** Minimum level of log lines written (`LOG_LEVEL`). */
  logLevel: LogLevel;
  /** Trusted proxies (`TRUST_PROXY`). */
  trustProxy: TrustProxy;
  /** The forwarding header the trusted proxies write (`TRUST_PROXY_HEADER`: `x-forwarded-for` or `forwarded`). */
  trustProxyHeader: 'x-forwarded-for' | 'forwarded';
  /** Budgets (`RATE_LIMIT_VERIFIED`, `…_DECLARED`, `…_BROWSER`, `…_ANONYMOUS`, `…_REFERRALS`). */
  rateLimits: RateLimits;
  /** Bucket store (`RATE_LIMIT_STORE`). */
  rateLimitStore: RateLimitStoreConfig;
  /** Longest wait for the Redis store's reply before counting locally, in ms (`RATE_LIMIT_STORE_TIMEOUT_MS`). */
  rateLimitStoreTimeoutMs: number;
  /** Number of worker processes (`WORKERS`); more than 1 requires the Redis store. */
  workers: number;
  /** Allow `http://` and loopback key directories: tests and local development only (`KEY_DIRECTORY_ALLOW_INSECURE`). */
  keyDirectoryAllowInsecure: boolean;
  /** Tolerated clock difference when checking signature `created`/`expires`, in seconds (`SIGNATURE_CLOCK_SKEW`). */
  signatureClockSkewSeconds: number;
  /** Absolute path of a folder served at `/releases/`, or `undefined` when not set (`RELEASES_DIR`). */
  releasesDir: string | undefined;
  /** How long SIGTERM/SIGINT waits for in-flight requests before closing connections, in seconds (`SHUTDOWN_TIMEOUT`). */
  shutdownTimeoutSeconds: number;
}

/** Thrown by {@link loadConfig} with one line per bad variable. */
export class ConfigError extends Error {
  /** One message per bad variable, each starting with the variable's name. */
  readonly problems: readonly string[];
  constructor(problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Environment variables as read by {@link loadConfig}. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads and validates the configuration.
 * @param env the environment (default `process.env`); unset and empty values take their defaults.
 * @param cwd folder relative paths are resolved against (default `process.cwd()`).
 * @throws ConfigError listing every bad value.
 */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];
  /** The variable's value as set (trimmed), or `undefined` when unset or empty. */
  const get = (name: VariableName): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  /** The variable's value as set, or its default. */
  const text = (name: VariableName): string | undefined => get(name) ?? VARIABLES[name].default?.toString();
  /** A whole-number variable within its range; its default (or 0 when it has none) when unset or invalid. */
  const int = (name: IntegerName): number => {
    const { min, max, default: dflt } = VARIABLES[name];
    const raw = get(name);
    if (raw === undefined) return dflt ?? 0;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name}: ${JSON.stringify(raw)} is not a whole number from ${min} to ${max}`);
      return dflt ?? 0;
    }
    return Number(raw);
  };

  const port = int('PORT');
  const host = text('HOST')!;
  if (/\s|\//.test(host)) problems.push(`HOST: ${JSON.stringify(host)} is not a host name or IP address`);

  const contentSource = parseContentSource(get, text, int, cwd, problems);
  const referralsFile = resolve(cwd, text('REFERRALS_FILE')!);
  const releasesRaw = get('RELEASES_DIR');
  const releasesDir = releasesRaw === undefined ? undefined : resolve(cwd, releasesRaw);

  const publicBaseUrl = parseBaseUrl(get('PUBLIC_BASE_URL'), port, problems);

  const levelRaw = text('LOG_LEVEL')!;
  let logLevel: LogLevel = DEFAULT_LOG_LEVEL;
  if ((LOG_LEVELS as readonly string[]).includes(levelRaw)) logLevel = levelRaw as LogLevel;
  else problems.push(`LOG_LEVEL: ${JSON.stringify(levelRaw)} is not one of ${LOG_LEVELS.join(', ')}`);

  const trustProxy = parseTrustProxy(get('TRUST_PROXY'), problems);
  const headerRaw = text('TRUST_PROXY_HEADER')!.toLowerCase();
  let trustProxyHeader: Config['trustProxyHeader'] = 'x-forwarded-for';
  if (headerRaw === 'x-forwarded-for' || headerRaw === 'forwarded') trustProxyHeader = headerRaw;
  else problems.push(`TRUST_PROXY_HEADER: ${JSON.stringify(headerRaw)} is neither x-forwarded-for nor forwarded`);

  const rateLimits: RateLimits = {
    verified: int('RATE_LIMIT_VERIFIED'),
    declared: int('RATE_LIMIT_DECLARED'),
    browser: int('RATE_LIMIT_BROWSER'),
    anonymous: int('RATE_LIMIT_ANONYMOUS'),
    referrals: int('RATE_LIMIT_REFERRALS'),
  };

  const rateLimitStore = parseStore(text('RATE_LIMIT_STORE')!, problems);
  const rateLimitStoreTimeoutMs = int('RATE_LIMIT_STORE_TIMEOUT_MS');
  const workers = int('WORKERS');
  if (workers > 1 && rateLimitStore.kind !== 'redis') {
    problems.push(
      `WORKERS: ${workers} workers need a shared rate-limit store: set RATE_LIMIT_STORE=redis://… (with the in-process store each worker would keep its own budgets)`,
    );
  }
  const keyDirectoryAllowInsecure = parseBool('KEY_DIRECTORY_ALLOW_INSECURE', get('KEY_DIRECTORY_ALLOW_INSECURE'), problems);
  const signatureClockSkewSeconds = int('SIGNATURE_CLOCK_SKEW');
  const shutdownTimeoutSeconds = int('SHUTDOWN_TIMEOUT');

  let admin: AdminListenerConfig | undefined;
  if (get('ADMIN_PORT') !== undefined) {
    admin = { port: int('ADMIN_PORT'), host: text('ADMIN_HOST')! };
    if (/\s|\//.test(admin.host)) problems.push(`ADMIN_HOST: ${JSON.stringify(admin.host)} is not a host name or IP address`);
    if (admin.port !== 0 && admin.port === port) problems.push(`ADMIN_PORT: ${admin.port} is also PORT; the admin listener needs a port of its own`);
  }
  if (contentSource.kind === 'git' && contentSource.webhookSecret !== undefined && admin === undefined) {
    problems.push('CONTENT_GIT_WEBHOOK_SECRET: the webhook is served on the admin listener; set ADMIN_PORT too');
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host,
    contentSource,
    admin,
    referralsFile,
    publicBaseUrl,
    publicBaseUrlSet: get('PUBLIC_BASE_URL') !== undefined,
    logLevel,
    trustProxy,
    trustProxyHeader,
    rateLimits,
    rateLimitStore,
    rateLimitStoreTimeoutMs,
    workers,
    keyDirectoryAllowInsecure,
    signatureClockSkewSeconds,
    releasesDir,
    shutdownTimeoutSeconds,
  };
}

/** `CONTENT_DIR` (folder mode) or `CONTENT_GIT_*` (Git follower mode); both at once are a mistake. */
function parseContentSource(
  get: (name: VariableName) => string | undefined,
  text: (name: VariableName) => string | undefined,
  int: (name: IntegerName) => number,
  cwd: string,
  problems: string[],
): ContentSourceConfig {
  const url = get('CONTENT_GIT_URL');
  const gitOnly = ['CONTENT_GIT_REF', 'CONTENT_GIT_PATH', 'CONTENT_GIT_POLL', 'CONTENT_GIT_CACHE', 'CONTENT_GIT_WEBHOOK_SECRET'] as const;
  if (url === undefined) {
    for (const name of gitOnly) if (get(name) !== undefined) problems.push(`${name}: only used with CONTENT_GIT_URL, which is not set`);
    return { kind: 'folder', dir: resolve(cwd, text('CONTENT_DIR')!) };
  }
  if (get('CONTENT_DIR') !== undefined) {
    problems.push('CONTENT_DIR and CONTENT_GIT_URL: set one or the other (a watched folder, or a Git branch this service follows)');
  }
  if (url.startsWith('-') || /[\u0000-\u001f\u007f]/.test(url))
    problems.push(`CONTENT_GIT_URL: ${JSON.stringify(redactUrl(url))} is not a repository URL or path`);
  const ref = text('CONTENT_GIT_REF')!;
  const refProblem = branchNameProblem(ref);
  if (refProblem) problems.push(`CONTENT_GIT_REF: ${JSON.stringify(ref)} ${refProblem}`);
  const pathRaw = text('CONTENT_GIT_PATH')!.replace(/\/+$/, '');
  const path = pathRaw === '' ? '.' : pathRaw;
  if (
    isAbsolute(path) ||
    path.split('/').some((part) => part === '..' || part === '') ||
    path.startsWith('-') ||
    /[\u0000-\u001f\u007f\\]/.test(path)
  ) {
    problems.push(`CONTENT_GIT_PATH: ${JSON.stringify(path)} must be a folder inside the repository, relative, without ".." (e.g. content)`);
  }
  const pollSeconds = int('CONTENT_GIT_POLL');
  const cacheDir = resolve(cwd, text('CONTENT_GIT_CACHE')!);
  const webhookSecret = get('CONTENT_GIT_WEBHOOK_SECRET');
  if (webhookSecret !== undefined && webhookSecret.length < MIN_WEBHOOK_SECRET_LENGTH) {
    problems.push(`CONTENT_GIT_WEBHOOK_SECRET: use at least ${MIN_WEBHOOK_SECRET_LENGTH} random characters (e.g. openssl rand -hex 32)`);
  }
  return { kind: 'git', url, ref, path, pollSeconds, cacheDir, webhookSecret };
}

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

function parseBaseUrl(raw: string | undefined, port: number, problems: string[]): string {
  const fallback = `http://localhost:${port === 0 ? VARIABLES.PORT.default : port}`;
  if (raw === undefined) return fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    problems.push(`PUBLIC_BASE_URL: ${JSON.stringify(raw)} is not an absolute URL (e.g. https://catalog.example.com)`);
    return fallback;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    problems.push(`PUBLIC_BASE_URL: ${JSON.stringify(raw)} must use http or https`);
  } else if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    problems.push(`PUBLIC_BASE_URL: ${JSON.stringify(raw)} must not have a query, fragment or credentials`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function parseTrustProxy(raw: string | undefined, problems: string[]): TrustProxy {
  if (raw === undefined || raw === 'false' || raw === '0') return { kind: 'none' };
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 32) problems.push(`TRUST_PROXY: ${hops} hops is more than 32; give a proxy count from 0 to 32 or a list of addresses/CIDRs`);
    return { kind: 'hops', hops };
  }
  const entries = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  try {
    proxyAddr.compile(entries);
  } catch (error) {
    problems.push(
      `TRUST_PROXY: ${JSON.stringify(raw)} is not a hop count or a comma-separated list of IP addresses, CIDRs, loopback, linklocal or uniquelocal (${(error as Error).message})`,
    );
  }
  return { kind: 'list', entries };
}

function parseStore(raw: string, problems: string[]): RateLimitStoreConfig {
  if (raw === 'memory') return { kind: 'memory' };
  try {
    const url = new URL(raw);
    if (url.protocol === 'redis:' || url.protocol === 'rediss:') return { kind: 'redis', url: raw };
  } catch {
    // reported below
  }
  problems.push(`RATE_LIMIT_STORE: ${JSON.stringify(redactUrl(raw))} is neither "memory" nor a redis:// or rediss:// URL`);
  return { kind: 'memory' };
}

function parseBool(name: string, raw: string | undefined, problems: string[]): boolean {
  if (raw === undefined) return false;
  const v = raw.toLowerCase();
  if (v === '1' || v === 'true' || v === 'yes' || v === 'on') return true;
  if (v === '0' || v === 'false' || v === 'no' || v === 'off') return false;
  problems.push(`${name}: ${JSON.stringify(raw)} is not a boolean (1/0, true/false, yes/no, on/off)`);
  return false;
}
