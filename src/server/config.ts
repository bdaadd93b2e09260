/**
 * The service's configuration: every environment variable it reads, parsed and validated once at start-up.
 * A bad value is reported by name with what was wrong and what is allowed; all bad values are reported together,
 * in the order of docs/operations.md's table. Which variables exist, their defaults, parsers, ranges, meanings, the field each fills and
 * the groups they form are stated once, in `config-schema.ts`, and {@link Config} is derived from it; this module
 * adds the fields derived from other variables and checks the rules between single variables.
 */
import ipaddr from 'ipaddr.js';
import {
  CONFIG_TABLE,
  readTable,
  readVariable,
  VARIABLE_NAMES,
  variableText,
  type ConfigProblem,
  type Env,
  type ValueOf,
  type Variable,
  type VariableName,
} from './config-schema.js';

export type { LogFormat, LogLevel } from './config-schema.js';

/**
 * The validated configuration: the table's values (paths absolute; see `config-schema.ts` for each field's
 * variable, default and meaning), and the fields derived from them.
 */
export type Config = Omit<ValueOf<typeof CONFIG_TABLE>, 'publicBaseUrl'> & {
  /** Public origin (and optional path prefix) of the service, no trailing slash: `PUBLIC_BASE_URL`, or `http://localhost:<PORT>`. */
  publicBaseUrl: string;
  /**
   * Whether `PUBLIC_BASE_URL` was set (otherwise `publicBaseUrl` is the local default, and the OpenAPI document's
   * server stays relative so it works on any port).
   */
  publicBaseUrlSet: boolean;
};

/**
 * Where the content comes from. `folder` (`CONTENT_DIR`): a folder on this machine, watched; it may be a symbolic
 * link, swapped by git-sync or a deploy. `git` (`CONTENT_GIT_*`): this service follows a branch of a repository.
 */
export type ContentSourceConfig = Config['contentSource'];

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

/**
 * Reads and validates the configuration. A bad value is reported and read as its default (without one, as the
 * parser's stand-in), so the rules between variables still run.
 * @param env the environment (default `process.env`); unset and empty values take their defaults.
 * @param cwd folder relative paths are resolved against (default `process.cwd()`).
 * @throws ConfigError listing every bad value.
 */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const { config: values, problems } = readTable(env, cwd);
  const report = (name: VariableName, message: string): void => void problems.push({ name, message });
  const { port, admin, contentSource, workers, rateLimitStore } = values;

  if (admin !== undefined && admin.port !== 0 && admin.port === port) {
    report('ADMIN_PORT', `ADMIN_PORT: ${admin.port} is also PORT; the admin listener needs a port of its own`);
  }
  if (contentSource.kind === 'git' && contentSource.webhookSecret !== undefined && admin === undefined) {
    report('CONTENT_GIT_WEBHOOK_SECRET', 'CONTENT_GIT_WEBHOOK_SECRET: the webhook is served on the admin listener; set ADMIN_PORT too');
  }
  if (workers > 1 && rateLimitStore.kind !== 'redis') {
    report(
      'WORKERS',
      `WORKERS: ${workers} workers need a shared rate-limit store: set RATE_LIMIT_STORE=redis://… (with the in-process store each worker would keep its own budgets)`,
    );
  }
  if (problems.length > 0) throw new ConfigError(inTableOrder(problems).map((p) => p.message));

  const localUrl = `http://localhost:${port === 0 ? CONFIG_TABLE.port.default : port}`;
  return { ...values, publicBaseUrl: values.publicBaseUrl ?? localUrl, publicBaseUrlSet: values.publicBaseUrl !== undefined };
}

/** Problems in the table's order (a stable sort keeps a variable's own problems in the order found). */
function inTableOrder(problems: ConfigProblem[]): ConfigProblem[] {
  return problems.sort((a, b) => VARIABLE_NAMES.indexOf(a.name) - VARIABLE_NAMES.indexOf(b.name));
}

/** What the log needs: its level and format, and how long to wait for its last lines at exit. */
export type LogSettings = Pick<Config, 'logLevel' | 'logFormat' | 'shutdownTimeoutSeconds'>;

/**
 * `LOG_LEVEL`, `LOG_FORMAT` and `SHUTDOWN_TIMEOUT` read one by one, a bad value taken as its default: the settings of
 * the line reporting a {@link ConfigError}, which {@link loadConfig} throws before any configuration exists.
 * @param env the environment (default `process.env`).
 */
export function lenientLogSettings(env: Env = process.env): LogSettings {
  const { logLevel, logFormat, shutdownTimeoutSeconds } = CONFIG_TABLE;
  // None of the three is a path: the folder relative paths are resolved against is never used.
  const value = <T>(variable: Variable<T>): T => readVariable(variable, variableText(env, variable.name), '/').value;
  return { logLevel: value(logLevel), logFormat: value(logFormat), shutdownTimeoutSeconds: value(shutdownTimeoutSeconds) };
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
