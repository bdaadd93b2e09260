/**
 * `syllabus doctor [--json]`: checks the service (reachable and how fast, API version, clock skew, read budget)
 * and the install (versions, install folder, update source, last update check, automatic updates).
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { apiUrl, defaultInstallRoot, updatesDisabled } from '../config.js';
import { servicePurpose, type CliContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { readRateBudget, type HttpResult } from '../http.js';
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
  return { name, ok, required, detail, ms };
}

/** GETs `path`, returning the result or the one-sentence reason it failed. */
async function probe(ctx: CliContext, path: string): Promise<HttpResult | string> {
  try {
    return await ctx.http.getText(apiUrl(ctx.baseUrl, path), servicePurpose(ctx), { cache: false });
  } catch (error) {
    if (error instanceof CliError) return error.message;
    throw error;
  }
}

function jsonField(body: string, field: string): unknown {
  try {
    const value = JSON.parse(body) as Record<string, unknown>;
    return typeof value === 'object' && value !== null ? value[field] : undefined;
  } catch {
    return undefined;
  }
}

async function serviceChecks(ctx: CliContext): Promise<Check[]> {
  const sentAt = Date.now();
  const health = await probe(ctx, '/health');
  const receivedAt = Date.now();
  const checks: Check[] = [];
  if (typeof health === 'string') {
    checks.push(check('service-health', false, health, null, true));
  } else {
    const ok = health.status === 200 && jsonField(health.body, 'status') === 'ok';
    checks.push(
      check('service-health', ok, ok ? `${health.url} answered ok in ${health.ms} ms` : `${health.url} answered ${health.status}`, health.ms, true),
    );
  }

  const v1 = await probe(ctx, '/v1/health');
  if (typeof v1 === 'string') {
    checks.push(check('api-version', false, v1, null, true));
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

  if (typeof health === 'string') {
    checks.push(check('clock-skew', false, 'not measured: the service did not answer'));
    checks.push(check('read-budget', false, 'not measured: the service did not answer'));
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

async function installChecks(ctx: CliContext): Promise<Check[]> {
  const node = process.versions.node;
  const install = detectManagedInstall();
  const checks: Check[] = [
    check('cli-version', true, `syllabus-cli ${CLI_VERSION}`),
    check(
      'node-version',
      isNodeSupported(node),
      isNodeSupported(node) ? `v${node} (supported: ${NODE_RANGE})` : `v${node} is not supported; install Node ${NODE_RANGE}`,
      null,
      true,
    ),
  ];
  if (install) {
    const folder = await writableFolder(install.root);
    checks.push(check('install-folder', folder.ok, folder.detail));
  } else {
    const root = defaultInstallRoot(ctx.env);
    const folder = await writableFolder(root);
    checks.push(
      check('install-folder', folder.ok, `running from ${process.argv[1] ?? runningModulePath()} (not an install.sh install); ${folder.detail}`),
    );
  }

  const noUpdate = updatesDisabled(ctx.env);
  if (noUpdate) {
    checks.push(check('update-source', true, `not checked: SYLLABUS_NO_UPDATE is set`));
  } else {
    try {
      const offer = await readOffer(ctx);
      checks.push(
        check(
          'update-source',
          true,
          `${offer.manifestUrl.href} offers ${offer.manifest.version}${offer.newer ? ' (newer: run syllabus update)' : ' (up to date)'}`,
          offer.ms,
        ),
      );
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      checks.push(check('update-source', false, error.message));
    }
  }

  const last = await readUpdateCheck(ctx.cacheDir);
  checks.push(
    check(
      'last-update-check',
      last?.result !== 'failed',
      last
        ? `${new Date(last.checkedAt).toISOString()} (${ago(Date.now() - last.checkedAt)}): ${last.result}${last.message ? ` — ${last.message}` : ''}`
        : 'never',
    ),
  );
  checks.push(
    check(
      'auto-update',
      true,
      noUpdate
        ? 'off: SYLLABUS_NO_UPDATE is set'
        : install
          ? 'on: at most once a day, after a command, on a terminal and outside CI'
          : 'off: not an install.sh install',
    ),
  );
  return checks;
}

/** Runs every check. @returns `{ ok, checks }` where ok means every required check passed. */
export async function runDoctor(ctx: CliContext): Promise<CliDoctorOutput> {
  const checks = [...(await serviceChecks(ctx)), ...(await installChecks(ctx))];
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
    ctx.stdout.write(result.ok ? `\n${style.green('Every required check passed.')}\n` : `\n${style.red('A required check failed (✖).')}\n`);
  }
  return result.ok ? EXIT.ok : EXIT.failed;
}
