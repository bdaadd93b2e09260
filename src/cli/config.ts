/**
 * Where the client talks to and keeps its files, resolved from options and the environment.
 * Every value from outside is validated here; a bad one is a usage error (exit code 2).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import envPaths from 'env-paths';
import { DEFAULT_BASE_URL, DEFAULT_TIMEOUT_MS, switchedOn, TIMEOUT_RANGE_MS, type CliEnv } from './environment.js';
import { UsageError } from './errors.js';

/** `http://<value>` when `value` has no scheme but reads as a host (and port, path) after one, e.g. `localhost:8080`. */
function withScheme(value: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || value === '') return undefined;
  try {
    const url = new URL(`http://${value}`);
    return url.hostname !== '' && !url.username && !url.password ? `http://${value}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Parses a service or release URL: absolute `http:` or `https:`, no user name or password, no query or fragment.
 * The result's path always ends in `/`, so relative paths resolve beneath it.
 * @param source what the value came from, named in the error (e.g. `--base-url`, `SYLLABUS_BASE_URL`).
 * @throws UsageError when the value is not such a URL; one without a scheme gets the `http://` one suggested.
 */
export function parseServiceUrl(value: string, source: string): URL {
  return parseUrl(value, source, (url) => url);
}

/** {@link parseServiceUrl}, with `fix` applied to the URL suggested for one without a scheme. */
function parseUrl(value: string, source: string, fix: (suggested: URL) => URL): URL {
  const trimmed = value.trim();
  const suggestion = withScheme(trimmed);
  if (suggestion !== undefined) {
    const fixed = fix(new URL(suggestion));
    throw new UsageError(
      `${source} must start with http:// or https://, got ${JSON.stringify(value)}; did you mean ${fixed.pathname === '/' ? fixed.origin : fixed.href}?`,
    );
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new UsageError(`${source} must be an absolute http:// or https:// URL, got ${JSON.stringify(value)}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${source} must use http:// or https://, got ${JSON.stringify(value)}.`);
  }
  if (url.username || url.password) {
    throw new UsageError(`${source} must not contain a user name or password.`);
  }
  if (url.search || url.hash) {
    throw new UsageError(`${source} must not contain a query or fragment, got ${JSON.stringify(value)}.`);
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/** An API version segment in a base URL's path (`/v1`, `/syllabus/v1/catalog`): the prefix before it. */
const API_PATH = /^(.*?\/)v\d+(?:\/.*)?$/;

/** `url` without its API path (`http://h/syllabus/v1/catalog` → `http://h/syllabus/`), or `url` itself. */
function serviceRoot(url: URL): URL {
  const prefix = API_PATH.exec(url.pathname)?.[1];
  return prefix === undefined ? url : new URL(prefix, url);
}

/**
 * Parses a base URL: a service URL ({@link parseServiceUrl}) that is the service's root (or the path prefix it is
 * served under), not an API path: the client adds `/v1/…` itself.
 * @throws UsageError when the value is not a service URL, or its path holds an API version (`/v1`), suggesting
 *   the URL without it.
 */
export function parseBaseUrl(value: string, source: string): URL {
  const url = parseUrl(value, source, serviceRoot);
  const root = serviceRoot(url);
  if (root !== url) {
    const apiPath = url.pathname.slice(root.pathname.length - 1).replace(/\/$/, '');
    throw new UsageError(`${source} is the service's root URL, without the API's ${apiPath} (the client adds /v1/… itself): use ${root.href}`);
  }
  return url;
}

/** The service's base URL: `--base-url`, then `SYLLABUS_BASE_URL`, then {@link DEFAULT_BASE_URL}. */
export function resolveBaseUrl(option: string | undefined, env: CliEnv): URL {
  if (option !== undefined) return parseBaseUrl(option, '--base-url');
  const fromEnv = env.SYLLABUS_BASE_URL;
  if (fromEnv !== undefined && fromEnv !== '') return parseBaseUrl(fromEnv, 'SYLLABUS_BASE_URL');
  return parseBaseUrl(DEFAULT_BASE_URL, 'the default base URL');
}

/** Where releases are published: `SYLLABUS_RELEASE_URL`, else `<base-url>/releases/`. */
export function resolveReleaseUrl(env: CliEnv, baseUrl: URL): URL {
  const fromEnv = env.SYLLABUS_RELEASE_URL;
  if (fromEnv !== undefined && fromEnv !== '') return parseServiceUrl(fromEnv, 'SYLLABUS_RELEASE_URL');
  return new URL('releases/', baseUrl);
}

/**
 * An API path (e.g. `/v1/catalog`) beneath the base URL, keeping any path prefix the base URL has
 * (`https://example.org/syllabus/` + `/health` → `https://example.org/syllabus/health`).
 */
export function apiUrl(baseUrl: URL, path: string): URL {
  return new URL(path.replace(/^\/+/, ''), baseUrl);
}

/** True when `SYLLABUS_NO_UPDATE` is set to anything but an empty string, `0` or `false`. */
export function updatesDisabled(env: CliEnv): boolean {
  return switchedOn(env.SYLLABUS_NO_UPDATE);
}

/** True when running under continuous integration (`CI` set to anything but an empty string, `0` or `false`). */
export function inCi(env: CliEnv): boolean {
  return switchedOn(env.CI);
}

/** True when `SYLLABUS_DEBUG` asks for request logs and stack traces. */
export function debugEnabled(env: CliEnv): boolean {
  return switchedOn(env.SYLLABUS_DEBUG);
}

/** Per-request timeout in milliseconds: `SYLLABUS_TIMEOUT_MS` when a whole number in range, else the default. */
export function requestTimeoutMs(env: CliEnv): number {
  const value = Number(env.SYLLABUS_TIMEOUT_MS);
  return Number.isInteger(value) && value >= TIMEOUT_RANGE_MS.min && value <= TIMEOUT_RANGE_MS.max ? value : DEFAULT_TIMEOUT_MS;
}

/** The client's cache folder (ETags, update checks): `SYLLABUS_CACHE_DIR`, else the platform's user cache folder. */
export function cacheDir(env: CliEnv): string {
  const fromEnv = env.SYLLABUS_CACHE_DIR;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  return envPaths('syllabus', { suffix: '' }).cache;
}

function home(env: CliEnv): string {
  return env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
}

/** Where `install.sh` and `syllabus update` keep installed versions: `SYLLABUS_INSTALL_DIR`, else `~/.local/share/syllabus`. */
export function defaultInstallRoot(env: CliEnv): string {
  const fromEnv = env.SYLLABUS_INSTALL_DIR;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  return join(home(env), '.local', 'share', 'syllabus');
}

/** Where the `syllabus` link goes: `SYLLABUS_BIN_DIR`, else `~/.local/bin`. */
export function defaultBinDir(env: CliEnv): string {
  const fromEnv = env.SYLLABUS_BIN_DIR;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  return join(home(env), '.local', 'bin');
}
