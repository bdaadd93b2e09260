/**
 * Everything a command needs, built once per run from the global options and the environment.
 */
import { BudgetStore } from './budget-store.js';
import { cacheDir, debugEnabled, requestTimeoutMs, resolveBaseUrl, resolveReleaseUrl } from './config.js';
import { MAX_WAIT_SECONDS, switchedOn, type CliEnv } from './environment.js';
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

/** The global options every command sees (commander's names: `--no-wait` is `wait: false`). */
export interface GlobalOptions {
  baseUrl?: string;
  wait?: boolean;
}

/**
 * Builds the run's context.
 * @throws UsageError when `--base-url`, `SYLLABUS_BASE_URL` or `SYLLABUS_RELEASE_URL` is not a usable URL.
 */
export function createContext(options: GlobalOptions, io: CliIo): CliContext {
  const baseUrl = resolveBaseUrl(options.baseUrl, io.env);
  const releaseUrl = resolveReleaseUrl(io.env, baseUrl);
  const dir = cacheDir(io.env);
  const errStyle = styleFor(io.stderr, io.env);
  const notice = (line: string): void => {
    io.stderr.write(`${errStyle.yellow('syllabus:')} ${line}\n`);
  };
  const perRequestMs = requestTimeoutMs(io.env);
  const http = new HttpClient({
    userAgent: USER_AGENT,
    cache: new EtagCache(dir),
    budgets: new BudgetStore(dir),
    timeoutMs: perRequestMs,
    maxWaitSeconds: MAX_WAIT_SECONDS,
    wait: options.wait !== false && !switchedOn(io.env.SYLLABUS_NO_WAIT),
    notice,
    debug: debugEnabled(io.env) ? (line) => io.stderr.write(`syllabus: debug: ${line}\n`) : () => undefined,
  });
  return { ...io, baseUrl, releaseUrl, cacheDir: dir, http, timeoutMs: perRequestMs, style: styleFor(io.stdout, io.env), errStyle, notice };
}
