/**
 * Where the client talks to and keeps its files, resolved from options and the environment.
 * Every value from outside is validated here; a bad one is a usage error (exit code 2).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import envPaths from 'env-paths';
import { UsageError } from './errors.js';

/** The service the client talks to when neither `--base-url` nor `SYLLABUS_BASE_URL` says otherwise. */
export const DEFAULT_BASE_URL = 'http://localhost:8080';

/** The environment variables the client reads (a subset of `process.env`). */
export type CliEnv = Readonly<Record<string, string | undefined>>;

/**
 * Parses a service or release URL: absolute `http:` or `https:`, no user name or password, no query or fragment.
 * The result's path always ends in `/`, so relative paths resolve beneath it.
 * @param source what the value came from, named in the error (e.g. `--base-url`, `SYLLABUS_BASE_URL`).
 * @throws UsageError when the value is not such a URL.
 */
export function parseServiceUrl(value: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(value.trim());
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

/** The service's base URL: `--base-url`, then `SYLLABUS_BASE_URL`, then {@link DEFAULT_BASE_URL}. */
export function resolveBaseUrl(option: string | undefined, env: CliEnv): URL {
  if (option !== undefined) return parseServiceUrl(option, '--base-url');
  const fromEnv = env.SYLLABUS_BASE_URL;
  if (fromEnv !== undefined && fromEnv !== '') return parseServiceUrl(fromEnv, 'SYLLABUS_BASE_URL');
  return parseServiceUrl(DEFAULT_BASE_URL, 'the default base URL');
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
  const value = env.SYLLABUS_NO_UPDATE;
  return value !== undefined && !['', '0', 'false'].includes(value.trim().toLowerCase());
}

/** True when running under continuous integration (`CI` set to anything but an empty string, `0` or `false`). */
export function inCi(env: CliEnv): boolean {
  const value = env.CI;
  return value !== undefined && !['', '0', 'false'].includes(value.trim().toLowerCase());
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
