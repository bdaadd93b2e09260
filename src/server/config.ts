/**
 * The service's configuration: every environment variable it reads, parsed and validated once at start-up.
 * A bad value is reported by name with what was wrong and what is allowed; all bad values are reported together,
 * in the order of docs/operations.md's table. Which variables exist, their defaults, parsers, ranges, meanings and the field each fills
 * are stated once, in `config-schema.ts`; this module declares the {@link Config} type, assembles it from the
 * variables' values and checks the rules between variables.
 */
import ipaddr from 'ipaddr.js';
import type { ForwardingHeader, TrustProxySetting } from '../http/client-address.js';
import type { BudgetLimits } from '../http/ratelimit/budgets.js';
import {
  readVariable,
  VARIABLE_NAMES,
  VARIABLES,
  type LogFormat,
  type LogLevel,
  type RateLimitStoreConfig,
  type Variable,
  type VariableName,
  type VariableValue,
} from './config-schema.js';

export type { LogFormat, LogLevel, RateLimitStoreConfig } from './config-schema.js';

/**
 * Which peers are trusted proxies (`TRUST_PROXY`). `none`: the socket peer is the client. `hops`: trust the
 * nearest `hops` proxies. `list`: trust peers matching these addresses, CIDRs or `proxy-addr` names
 * (`loopback`, `linklocal`, `uniquelocal`). The client-address step's own type.
 */
export type TrustProxy = TrustProxySetting;

/** Requests allowed per window, per client address and kind (contract §5): the budgets' own shape. */
export type RateLimits = BudgetLimits;

/**
 * Where the content comes from. `folder` (`CONTENT_DIR`): a folder on this machine, watched; it may be a symbolic
 * link, swapped by git-sync or a deploy. `git` (`CONTENT_GIT_*`): this service follows a branch of a repository.
 */
export type ContentSourceConfig =
  | {
      kind: 'folder';
      /** Absolute path of the content folder. */
      dir: string;
    }
  | {
      kind: 'git';
      /** What `git clone` accepts: https, ssh, a local path, `file://`. May hold credentials: never log it as is. */
      url: string;
      /** Branch followed. */
      ref: string;
      /** The content folder inside the repository, `/`-separated and relative. */
      path: string;
      /** Seconds between fetches. */
      pollSeconds: number;
      /** Commits before an invalid head looked through at start. */
      historyDepth: number;
      /** Largest size of a commit's Markdown, in MiB. */
      maxContentMiB: number;
      /** Absolute path of the working folder: clones and checkouts. */
      cacheDir: string;
      /** Shared secret of the push webhook, or `undefined` when the webhook is off. */
      webhookSecret: string | undefined;
    };

/** The admin listener: operators' endpoints, never on the public port. */
export interface AdminListenerConfig {
  port: number;
  host: string;
}

/**
 * The validated configuration. Paths are absolute. Each field is filled by the variable of `config-schema.ts`
 * that names it (its default, range and meaning are stated there).
 */
export interface Config {
  /** TCP port to listen on (0: any free port). */
  port: number;
  /** Address to listen on. */
  host: string;
  /** Where the content comes from: a folder, or a Git branch. */
  contentSource: ContentSourceConfig;
  /** The admin listener, or `undefined` when off. */
  admin: AdminListenerConfig | undefined;
  /** Path of the referral digests file; `undefined`: no referral source (every check answers `503`). */
  referralsFile: string | undefined;
  /** Public origin (and optional path prefix) of the service, no trailing slash. */
  publicBaseUrl: string;
  /** Whether `PUBLIC_BASE_URL` was set (otherwise `publicBaseUrl` is the local default, and the OpenAPI
   * document's server stays relative so it works on any port). */
  publicBaseUrlSet: boolean;
  /** Minimum level of log lines written. */
  logLevel: LogLevel;
  logFormat: LogFormat;
  /** Trusted proxies. */
  trustProxy: TrustProxy;
  /** The forwarding header the trusted proxies write. */
  trustProxyHeader: ForwardingHeader;
  /** Budgets per window. */
  rateLimits: RateLimits;
  /** Bucket store. */
  rateLimitStore: RateLimitStoreConfig;
  /** Longest wait for the Redis store's reply before counting locally, in ms. */
  rateLimitStoreTimeoutMs: number;
  /** Number of worker processes; more than 1 requires the Redis store. */
  workers: number;
  /** Allow `http://` and loopback key directories: tests and local development only. */
  keyDirectoryAllowInsecure: boolean;
  /** Authorities (`host[:port]`) a signature may name besides `PUBLIC_BASE_URL`'s host. */
  signatureAuthorities: string[];
  /** Tolerated clock difference when checking signature `created`/`expires`, in seconds. */
  signatureClockSkewSeconds: number;
  /** Folder served at `/releases/`, or `undefined` when none. */
  releasesDir: string | undefined;
  /** Open connections on the public port at most. */
  maxConnections: number;
  /** Open connections from one peer address at most (trusted proxies exempt). */
  maxConnectionsPerAddress: number;
  /** How long SIGTERM/SIGINT waits for in-flight requests before closing connections, in seconds. */
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

/** A variable's text as set (trimmed), or `undefined` when unset or empty: both mean its default. */
function variableText(env: Env, name: string): string | undefined {
  return env[name]?.trim() || undefined;
}

/**
 * Reads and validates the configuration.
 * @param env the environment (default `process.env`); unset and empty values take their defaults.
 * @param cwd folder relative paths are resolved against (default `process.cwd()`).
 * @throws ConfigError listing every bad value.
 */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const problems: { name: VariableName; message: string }[] = [];
  const report = (name: VariableName, message: string): void => void problems.push({ name, message });
  const text = (name: string): string | undefined => variableText(env, name);
  const isSet = (name: string): boolean => text(name) !== undefined;
  /**
   * The variable's value (see `readVariable`). A bad value is reported and read as its default (without one, as
   * the parser's stand-in: a set variable always has a value), so the rules between variables still run.
   */
  const value = <N extends VariableName>(name: N): VariableValue<N> => {
    const read = readVariable(name, text(name), cwd);
    if (read.problem !== undefined) report(name, read.problem);
    return read.value;
  };

  // A variable set without the one it requires (the Git follower's settings without CONTENT_GIT_URL).
  for (const name of VARIABLE_NAMES) {
    const { requires }: Variable<unknown> = VARIABLES[name];
    if (requires !== undefined && isSet(name) && !isSet(requires)) report(name, `${name}: only used with ${requires}, which is not set`);
  }

  const port = value('PORT');
  const gitUrl = value('CONTENT_GIT_URL');
  if (gitUrl !== undefined && isSet('CONTENT_DIR')) {
    report('CONTENT_DIR', 'CONTENT_DIR and CONTENT_GIT_URL: set one or the other (a watched folder, or a Git branch this service follows)');
  }
  const contentSource: ContentSourceConfig =
    gitUrl === undefined
      ? { kind: 'folder', dir: value('CONTENT_DIR') }
      : {
          kind: 'git',
          url: gitUrl,
          ref: value('CONTENT_GIT_REF'),
          path: value('CONTENT_GIT_PATH'),
          pollSeconds: value('CONTENT_GIT_POLL'),
          historyDepth: value('CONTENT_GIT_HISTORY_DEPTH'),
          maxContentMiB: value('CONTENT_GIT_MAX_MIB'),
          cacheDir: value('CONTENT_GIT_CACHE'),
          webhookSecret: value('CONTENT_GIT_WEBHOOK_SECRET'),
        };

  const adminPort = value('ADMIN_PORT');
  const admin = adminPort === undefined ? undefined : { port: adminPort, host: value('ADMIN_HOST') };
  if (admin !== undefined && admin.port !== 0 && admin.port === port) {
    report('ADMIN_PORT', `ADMIN_PORT: ${admin.port} is also PORT; the admin listener needs a port of its own`);
  }
  if (contentSource.kind === 'git' && contentSource.webhookSecret !== undefined && admin === undefined) {
    report('CONTENT_GIT_WEBHOOK_SECRET', 'CONTENT_GIT_WEBHOOK_SECRET: the webhook is served on the admin listener; set ADMIN_PORT too');
  }

  const rateLimitStore = value('RATE_LIMIT_STORE');
  const workers = value('WORKERS');
  if (workers > 1 && rateLimitStore.kind !== 'redis') {
    report(
      'WORKERS',
      `WORKERS: ${workers} workers need a shared rate-limit store: set RATE_LIMIT_STORE=redis://… (with the in-process store each worker would keep its own budgets)`,
    );
  }

  const config: Config = {
    port,
    host: value('HOST'),
    contentSource,
    admin,
    referralsFile: value('REFERRALS_FILE'),
    publicBaseUrl: value('PUBLIC_BASE_URL') ?? `http://localhost:${port === 0 ? VARIABLES.PORT.default : port}`,
    publicBaseUrlSet: isSet('PUBLIC_BASE_URL'),
    logLevel: value('LOG_LEVEL'),
    logFormat: value('LOG_FORMAT'),
    trustProxy: value('TRUST_PROXY'),
    trustProxyHeader: value('TRUST_PROXY_HEADER'),
    rateLimits: {
      verified: value('RATE_LIMIT_VERIFIED'),
      declared: value('RATE_LIMIT_DECLARED'),
      browser: value('RATE_LIMIT_BROWSER'),
      anonymous: value('RATE_LIMIT_ANONYMOUS'),
      referrals: value('RATE_LIMIT_REFERRALS'),
    },
    rateLimitStore,
    rateLimitStoreTimeoutMs: value('RATE_LIMIT_STORE_TIMEOUT_MS'),
    workers,
    keyDirectoryAllowInsecure: value('KEY_DIRECTORY_ALLOW_INSECURE'),
    signatureAuthorities: value('SIGNATURE_AUTHORITIES'),
    signatureClockSkewSeconds: value('SIGNATURE_CLOCK_SKEW'),
    releasesDir: value('RELEASES_DIR'),
    maxConnections: value('MAX_CONNECTIONS'),
    maxConnectionsPerAddress: value('MAX_CONNECTIONS_PER_ADDRESS'),
    shutdownTimeoutSeconds: value('SHUTDOWN_TIMEOUT'),
  };
  if (problems.length > 0) {
    // In the table's order (a stable sort keeps a variable's own problems in the order found).
    problems.sort((a, b) => VARIABLE_NAMES.indexOf(a.name) - VARIABLE_NAMES.indexOf(b.name));
    throw new ConfigError(problems.map((p) => p.message));
  }
  return config;
}

/** What the log needs: its level and format, and how long to wait for its last lines at exit. */
export type LogSettings = Pick<Config, 'logLevel' | 'logFormat' | 'shutdownTimeoutSeconds'>;

/**
 * `LOG_LEVEL`, `LOG_FORMAT` and `SHUTDOWN_TIMEOUT` read one by one, a bad value taken as its default: the settings of
 * the line reporting a {@link ConfigError}, which {@link loadConfig} throws before any configuration exists.
 * @param env the environment (default `process.env`).
 */
export function lenientLogSettings(env: Env = process.env): LogSettings {
  const value = <N extends 'LOG_LEVEL' | 'LOG_FORMAT' | 'SHUTDOWN_TIMEOUT'>(name: N): VariableValue<N> =>
    // None of the three is a path: the folder relative paths are resolved against is never used.
    readVariable(name, variableText(env, name), '/').value;
  return { logLevel: value('LOG_LEVEL'), logFormat: value('LOG_FORMAT'), shutdownTimeoutSeconds: value('SHUTDOWN_TIMEOUT') };
}

/** Whether `host` (a `HOST` value, or a URL's hostname) only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  const address = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';
}

/**
 * Settings that work but that an operator should look at: logged at start-up and shown by the admin listener's
 * `/readyz`. Both are about listening on an address other machines reach: with `PUBLIC_BASE_URL` unset, pages, the
 * feed and deprecation links point at `http://localhost:<PORT>`; with `REFERRALS_FILE` unset, every referral check
 * answers 503 (the service has no codes to check against).
 */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (!config.publicBaseUrlSet && !isLoopbackHost(config.host)) {
    warnings.push(
      `PUBLIC_BASE_URL is not set while listening on ${config.host}: pages, the Atom feed and deprecation links point at ${config.publicBaseUrl}; set it to the URL clients use`,
    );
  }
  if (config.referralsFile === undefined && !isLoopbackHost(config.host)) {
    warnings.push(
      `REFERRALS_FILE is not set while listening on ${config.host}: every referral check answers 503 (cannot check); set it to the file of valid codes' digests`,
    );
  }
  return warnings;
}
