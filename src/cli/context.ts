/**
 * Everything a command needs, built once per run from the global options and the environment.
 */
import { cacheDir, resolveBaseUrl, resolveReleaseUrl, type CliEnv } from './config.js';
import { EtagCache } from './etag-cache.js';
import { HttpClient, type RequestPurpose } from './http.js';
import { USER_AGENT } from './meta.js';
import { styleFor, type Style, type TextSink } from './output.js';

/** The streams and environment a run uses (process.* in production). */
export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
  env: CliEnv;
}

/** A command's view of the run. */
export interface CliContext extends CliIo {
  baseUrl: URL;
  releaseUrl: URL;
  cacheDir: string;
  http: HttpClient;
  /** Per-request timeout in milliseconds (`SYLLABUS_TIMEOUT_MS`, 10 s by default). */
  timeoutMs: number;
  /** Colours for stdout (off unless stdout is a TTY and NO_COLOR is unset). */
  style: Style;
  /** Colours for stderr. */
  errStyle: Style;
  /** Writes one diagnostic line on stderr. */
  notice: (line: string) => void;
}

/** Wording for requests to the service. */
export function servicePurpose(ctx: Pick<CliContext, 'baseUrl'>): RequestPurpose {
  return {
    what: 'the Syllabus service',
    advice: `Check that the service is running at ${ctx.baseUrl.href}, or point the client at another one with --base-url or SYLLABUS_BASE_URL.`,
  };
}

/** Wording for requests to the release server. */
export const RELEASE_PURPOSE: RequestPurpose = {
  what: 'the release server',
  advice: 'Check SYLLABUS_RELEASE_URL (or --base-url) and try again later.',
};

/** Per-request timeout in milliseconds (`SYLLABUS_TIMEOUT_MS` overrides; 10 s by default). */
function timeoutMs(env: CliEnv): number {
  const value = Number(env.SYLLABUS_TIMEOUT_MS);
  return Number.isInteger(value) && value >= 100 && value <= 600_000 ? value : 10_000;
}

/**
 * Builds the run's context.
 * @throws UsageError when `--base-url`, `SYLLABUS_BASE_URL` or `SYLLABUS_RELEASE_URL` is not a usable URL.
 */
export function createContext(options: { baseUrl?: string }, io: CliIo): CliContext {
  const baseUrl = resolveBaseUrl(options.baseUrl, io.env);
  const releaseUrl = resolveReleaseUrl(io.env, baseUrl);
  const dir = cacheDir(io.env);
  const errStyle = styleFor(io.stderr, io.env);
  const notice = (line: string): void => {
    io.stderr.write(`${errStyle.yellow('syllabus:')} ${line}\n`);
  };
  const debugOn = io.env.SYLLABUS_DEBUG !== undefined && io.env.SYLLABUS_DEBUG !== '' && io.env.SYLLABUS_DEBUG !== '0';
  const perRequestMs = timeoutMs(io.env);
  const http = new HttpClient({
    userAgent: USER_AGENT,
    cache: new EtagCache(dir),
    timeoutMs: perRequestMs,
    maxWaitSeconds: 120,
    notice,
    debug: debugOn ? (line) => io.stderr.write(`syllabus: debug: ${line}\n`) : () => undefined,
  });
  return { ...io, baseUrl, releaseUrl, cacheDir: dir, http, timeoutMs: perRequestMs, style: styleFor(io.stdout, io.env), errStyle, notice };
}
