/**
 * The daily self-update: after a command has finished and written its output, at most once a day, on a terminal
 * and outside CI, a detached background process checks for a newer release and installs it as `update` does
 * (keeping the version it replaces as `previous`, for `syllabus update --rollback`). Its own output goes nowhere,
 * so what it installed is recorded and said on stderr by the next run ({@link announceBackgroundUpdate}).
 * `SYLLABUS_NO_UPDATE=1` switches it off completely: no process is started and no request is made.
 */
import { spawn } from 'node:child_process';
import { inCi, updatesDisabled } from './config.js';
import type { CliEnv } from './environment.js';
import type { CliContext } from './context.js';
import { printable, type TextSink } from './output.js';
import { detectManagedInstall, runningModulePath } from './release/layout.js';
import { runUpdate } from './release/updater.js';
import { readUpdateCheck, writeUpdateCheck } from './state.js';

/** Minimum time between two automatic checks, in milliseconds. */
export const DAILY_MS = 24 * 60 * 60 * 1000;

/** The hidden command the background process runs. */
export const DAILY_UPDATE_COMMAND = '__daily-update';

/** Why the daily self-update does not run now, or `undefined` when it should. */
export async function dailyUpdateBlocker(env: CliEnv, stdoutIsTty: boolean, cacheDir: string, now: number): Promise<string | undefined> {
  if (updatesDisabled(env)) return 'SYLLABUS_NO_UPDATE is set';
  if (inCi(env)) return 'CI is set';
  if (!stdoutIsTty) return 'stdout is not a terminal';
  if (!detectManagedInstall()) return 'not an install.sh install';
  const last = await readUpdateCheck(cacheDir);
  if (last && now - last.checkedAt < DAILY_MS && now >= last.checkedAt) return 'checked within the last day';
  return undefined;
}

/**
 * Starts the background check when {@link dailyUpdateBlocker} allows it. Returns at once: the child is detached,
 * its output discarded, so the command's own output and exit are never delayed or changed.
 * @param releaseUrl passed to the child so it uses the same release source as this run.
 */
export async function maybeStartDailyUpdate(env: CliEnv, stdoutIsTty: boolean, cacheDir: string, releaseUrl: URL): Promise<void> {
  const now = Date.now();
  if ((await dailyUpdateBlocker(env, stdoutIsTty, cacheDir, now)) !== undefined) return;
  // Claim today's check first, so commands run in quick succession start one check, not several.
  await writeUpdateCheck(cacheDir, { checkedAt: now, result: 'started' });
  const child = spawn(process.execPath, [runningModulePath(), DAILY_UPDATE_COMMAND], {
    detached: true,
    stdio: 'ignore',
    env: { ...env, SYLLABUS_RELEASE_URL: releaseUrl.href, SYLLABUS_CACHE_DIR: cacheDir },
  });
  child.on('error', () => undefined);
  child.unref();
}

/** What a background update says it did (on the next run's stderr), and how to switch it off. */
export function updatedNotice(from: string, to: string): string {
  return `updated syllabus ${from} → ${to}; SYLLABUS_NO_UPDATE=1 turns this off`;
}

/** The background process's work: check, and install a newer release, recording the line to announce. */
export async function runDailyUpdate(ctx: CliContext): Promise<void> {
  await runUpdate(ctx, detectManagedInstall(), false, updatedNotice);
}

/**
 * Says on `stderr`, once, what the last background update installed (see {@link updatedNotice}), then forgets it.
 * Runs whatever `SYLLABUS_NO_UPDATE` says: the update has happened, the user should know.
 */
export async function announceBackgroundUpdate(cacheDir: string, stderr: TextSink): Promise<void> {
  const last = await readUpdateCheck(cacheDir);
  if (last?.notice === undefined) return;
  const { notice, ...rest } = last;
  await writeUpdateCheck(cacheDir, rest);
  stderr.write(`${printable(notice)}\n`);
}
