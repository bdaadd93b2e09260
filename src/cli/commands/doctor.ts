/**
 * `syllabus doctor [--json]`: checks the service (reachable and how fast, API version, clock skew, read budget)
 * and the install (versions, install folder, update source, last update check, automatic updates).
 *
 * Every check starts at once and the report is written within one overall deadline ({@link DOCTOR_DEADLINE_MS}),
 * however the service behaves: each check has its own timeout inside it, and a check that runs out of time is
 * reported as timed out (`timed_out`), never waited for.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { apiUrl, defaultInstallRoot, updatesDisabled } from '../config.js';
import { servicePurpose, type CliContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { readRateBudget, RequestTimeout, type HttpResult } from '../http.js';
import { CLI_VERSION, NODE_RANGE, isNodeSupported } from '../meta.js';
import { writeJson } from '../output.js';
import { detectManagedInstall, runningModulePath } from '../release/layout.js';
import { readOffer } from '../release/updater.js';
import { readUpdateCheck } from '../state.js';
import type { CliDoctorOutput } from '../../schemas/types.generated.js';

/** One check's result (the JSON shape of schemas/cli/doctor.schema.json). */
export type Check = CliDoctorOutput['checks'][number];

/** The API version this client speaks. */
const EXPECTED_API_VERSION = 'v1';

/** Clock skew beyond which the doctor warns (caching and signatures depend on a sane clock), in seconds. */
const MAX_SKEW_SECONDS = 60;

/**
 * The doctor's overall deadline, in milliseconds: every check has ended, done or timed out, by then. Shorter than
 * the usual per-request timeout (10 s), so that with the client's start the whole run stays well within 12 s.
 */
export const DOCTOR_DEADLINE_MS = 8_000;

/** Own timeout of a check that reads local files (a hung network file system must not hold the report), ms. */
const LOCAL_CHECK_MS = 3_000;

const LABELS: Record<string, string> = {
  'service-health': 'service answers',
  'api-version': 'API version',
  'clock-skew': 'clock skew',
  'read-budget': 'read budget',
  'cli-version': 'CLI version',
  'node-version': 'Node version',
  'install-folder': 'install folder',
  'update-source': 'update source',
  'last-update-check': 'last update check',
  'auto-update': 'automatic updates',
};

function check(name: string, ok: boolean, detail: string, ms: number | null = null, required = false): Check {
  return { name, ok, required, timed_out: false, detail, ms };
}

/** A failed check that ran out of time; `detail` says what did not finish in time. */
function timedOut(name: string, detail: string, required = false): Check {
  return { name, ok: false, required, timed_out: true, detail: `timed out: ${detail}`, ms: null };
}

/** "<what> did not finish within <ms> s". */
function late(what: string, ms: number): string {
  return `${what} did not finish within ${seconds(ms)} s`;
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/** How a piece of work ended: its value, or out of time. */
type Outcome<T> = { done: true; value: T } | { done: false };

/**
 * Runs `work` for at most `ms` milliseconds: then `signal` aborts (its requests end) and the outcome is
 * `{ done: false }` at once, whether or not the work stops.
 */
async function within<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<Outcome<T>> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<Outcome<T>>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ done: false });
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal).then((value): Outcome<T> => ({ done: true, value })), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** A request's failure: its one-sentence reason, and whether it was a timeout. */
interface Failure {
  failed: string;
  timedOut: boolean;
}

/** GETs `path` within `ms`, returning the result or why it failed. */
async function probe(ctx: CliContext, path: string, ms: number): Promise<HttpResult | Failure> {
  const url = apiUrl(ctx.baseUrl, path);
  const outcome = await within(ms, async (signal): Promise<HttpResult | Failure> => {
    try {
      return await ctx.http.getText(url, servicePurpose(ctx), { cache: false, signal, probe: true });
    } catch (error) {
      if (error instanceof CliError) return { failed: error.message, timedOut: error instanceof RequestTimeout };
      throw error;
    }
  });
  if (outcome.done && !('failed' in outcome.value && outcome.value.timedOut)) return outcome.value;
  return { failed: `${url.href} did not answer within ${seconds(ms)} s`, timedOut: true };
}

function failedCheck(name: string, failure: Failure, required: boolean): Check {
  return failure.timedOut ? timedOut(name, failure.failed, required) : check(name, false, failure.failed, null, required);
}

function jsonField(body: string, field: string): unknown {
  try {
    const value = JSON.parse(body) as Record<string, unknown>;
    return typeof value === 'object' && value !== null ? value[field] : undefined;
  } catch {
    return undefined;
  }
}

/** The service's checks, its two requests at once, each within `ms`. */
async function serviceChecks(ctx: CliContext, ms: number): Promise<Check[]> {
  const sentAt = Date.now();
  let receivedAt = sentAt;
  const [health, v1] = await Promise.all([
    probe(ctx, '/health', ms).finally(() => {
      receivedAt = Date.now();
    }),
    probe(ctx, '/v1/health', ms),
  ]);
  const checks: Check[] = [];
  if ('failed' in health) {
    checks.push(failedCheck('service-health', health, true));
  } else {
    const ok = health.status === 200 && jsonField(health.body, 'status') === 'ok';
    checks.push(
      check('service-health', ok, ok ? `${health.url} answered ok in ${health.ms} ms` : `${health.url} answered ${health.status}`, health.ms, true),
    );
  }

  if ('failed' in v1) {
    checks.push(failedCheck('api-version', v1, true));
  } else {
    const version = v1.status === 200 ? jsonField(v1.body, 'version') : undefined;
    const ok = version === EXPECTED_API_VERSION;
    const detail = ok
      ? `${v1.url} reports ${EXPECTED_API_VERSION}`
      : typeof version === 'string'
        ? `${v1.url} reports ${JSON.stringify(version).slice(0, 40)}; this client speaks ${EXPECTED_API_VERSION}: update the client or use a ${EXPECTED_API_VERSION} service`
        : `${v1.url} answered ${v1.status} without an API version`;
    checks.push(check('api-version', ok, detail, v1.ms, true));
  }

  if ('failed' in health) {
    const why = health.timedOut ? 'not measured: the service did not answer in time' : 'not measured: the service did not answer';
    checks.push(check('clock-skew', false, why));
    checks.push(check('read-budget', false, why));
    return checks;
  }
  const date = Date.parse(health.headers.get('date') ?? '');
  if (Number.isNaN(date)) {
    checks.push(check('clock-skew', false, 'not measured: the service sent no valid Date header'));
  } else {
    // Date is truncated to whole seconds: the server's time lies in [date, date + 1 s); compare its middle
    // with the middle of the request.
    const skew = Math.round((date + 500 - (sentAt + receivedAt) / 2) / 1000);
    const ok = Math.abs(skew) <= MAX_SKEW_SECONDS;
    const direction = skew > 0 ? 'behind' : 'ahead of';
    checks.push(
      check(
        'clock-skew',
        ok,
        skew === 0
          ? 'under 1 s'
          : `this machine's clock is ${Math.abs(skew)} s ${direction} the service's${ok ? '' : `; more than ${MAX_SKEW_SECONDS} s: fix the system clock`}`,
      ),
    );
  }
  const budget = readRateBudget(health.headers);
  checks.push(
    budget
      ? check(
          'read-budget',
          budget.remaining > 0,
          `${budget.remaining}${budget.limit !== undefined ? ` of ${budget.limit}` : ''} reads left, window resets in ${budget.reset} s`,
        )
      : check('read-budget', false, 'not reported: the service sent no RateLimit headers'),
  );
  return checks;
}

/** Whether `path` (or, if it does not exist yet, the nearest folder above it) is writable. */
async function writableFolder(path: string): Promise<{ ok: boolean; detail: string }> {
  let dir = path;
  for (;;) {
    try {
      await stat(dir);
      break;
    } catch {
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  try {
    await access(dir, constants.W_OK);
    return { ok: true, detail: dir === path ? `${path} is writable` : `${path} does not exist yet; ${dir} is writable` };
  } catch {
    return { ok: false, detail: `${dir} is not writable; updates cannot be installed there` };
  }
}

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s ago`;
  if (s < 7200) return `${Math.round(s / 60)} min ago`;
  if (s < 172_800) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} days ago`;
}

/** The install folder: the managed install's root, or where install.sh would put one. */
async function installFolderCheck(ctx: CliContext): Promise<Check> {
  const install = detectManagedInstall();
  if (install) {
    const folder = await writableFolder(install.root);
    return check('install-folder', folder.ok, folder.detail);
  }
  const folder = await writableFolder(defaultInstallRoot(ctx.env));
  return check('install-folder', folder.ok, `running from ${process.argv[1] ?? runningModulePath()} (not an install.sh install); ${folder.detail}`);
}

/** The release manifest (two requests), within `ms`. */
async function updateSourceCheck(ctx: CliContext, ms: number): Promise<Check> {
  if (updatesDisabled(ctx.env)) return check('update-source', true, `not checked: SYLLABUS_NO_UPDATE is set`);
  const manifest = late(`reading ${new URL('latest.json', ctx.releaseUrl).href}`, ms);
  const outcome = await within(ms, async (signal): Promise<Check> => {
    try {
      const offer = await readOffer(ctx, signal);
      const offers = `${offer.manifestUrl.href} offers ${offer.manifest.version}`;
      return check('update-source', true, `${offers}${offer.newer ? ' (newer: run syllabus update)' : ' (up to date)'}`, offer.ms);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      return error instanceof RequestTimeout ? timedOut('update-source', manifest) : check('update-source', false, error.message);
    }
  });
  return outcome.done ? outcome.value : timedOut('update-source', manifest);
}

async function lastUpdateCheck(ctx: CliContext): Promise<Check> {
  const last = await readUpdateCheck(ctx.cacheDir);
  return check(
    'last-update-check',
    last?.result !== 'failed',
    last
      ? `${new Date(last.checkedAt).toISOString()} (${ago(Date.now() - last.checkedAt)}): ${last.result}${last.message ? ` — ${last.message}` : ''}`
      : 'never',
  );
}

/** A check of local files, within `ms`. */
async function local(name: string, what: string, ms: number, run: () => Promise<Check>): Promise<Check> {
  const outcome = await within(ms, run);
  return outcome.done ? outcome.value : timedOut(name, late(what, ms));
}

function versionChecks(): Check[] {
  const node = process.versions.node;
  return [
    check('cli-version', true, `syllabus-cli ${CLI_VERSION}`),
    check(
      'node-version',
      isNodeSupported(node),
      isNodeSupported(node) ? `v${node} (supported: ${NODE_RANGE})` : `v${node} is not supported; install Node ${NODE_RANGE}`,
      null,
      true,
    ),
  ];
}

function autoUpdateCheck(ctx: CliContext): Check {
  return check(
    'auto-update',
    true,
    updatesDisabled(ctx.env)
      ? 'off: SYLLABUS_NO_UPDATE is set'
      : detectManagedInstall()
        ? 'on: at most once a day, after a command, on a terminal and outside CI'
        : 'off: not an install.sh install',
  );
}

/**
 * Runs every check at once, so the whole run takes about as long as its slowest check. Checks that make
 * requests get the per-request timeout (`SYLLABUS_TIMEOUT_MS`), checks of local files {@link LOCAL_CHECK_MS}, neither
 * more than {@link DOCTOR_DEADLINE_MS}.
 * @returns `{ ok, checks }` in a fixed order, where ok means every required check passed.
 */
export async function runDoctor(ctx: CliContext): Promise<CliDoctorOutput> {
  const requestMs = Math.min(ctx.timeoutMs, DOCTOR_DEADLINE_MS);
  const localMs = Math.min(LOCAL_CHECK_MS, DOCTOR_DEADLINE_MS);
  const [service, folder, source, last] = await Promise.all([
    serviceChecks(ctx, requestMs),
    local('install-folder', 'looking at the install folder', localMs, () => installFolderCheck(ctx)),
    updateSourceCheck(ctx, requestMs),
    local('last-update-check', 'reading the last update check', localMs, () => lastUpdateCheck(ctx)),
  ]);
  const checks = [...service, ...versionChecks(), folder, source, last, autoUpdateCheck(ctx)];
  return { ok: checks.every((c) => c.ok || !c.required), checks };
}

/** Runs the command. @returns 0 when every required check passed, else 1. */
export async function doctorCommand(ctx: CliContext, options: { json?: boolean }): Promise<number> {
  const result = await runDoctor(ctx);
  if (options.json) {
    writeJson(ctx.stdout, result);
  } else {
    const { style } = ctx;
    const width = Math.max(...result.checks.map((c) => (LABELS[c.name] ?? c.name).length));
    for (const c of result.checks) {
      const mark = c.ok ? style.green('✔') : c.required ? style.red('✖') : style.yellow('!');
      const label = (LABELS[c.name] ?? c.name).padEnd(width);
      ctx.stdout.write(`${mark} ${style.bold(label)}  ${c.detail.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')}\n`);
    }
    const late = result.checks.filter((c) => c.timed_out).map((c) => LABELS[c.name] ?? c.name);
    if (late.length > 0) ctx.stdout.write(`\n${style.yellow(`Timed out: ${late.join(', ')}.`)}`);
    ctx.stdout.write(result.ok ? `\n${style.green('Every required check passed.')}\n` : `\n${style.red('A required check failed (✖).')}\n`);
  }
  return result.ok ? EXIT.ok : EXIT.failed;
}
