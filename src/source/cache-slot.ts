/**
 * A working folder of its own for each running process, inside a cache folder that several processes may share
 * (`WORKERS=2`, two services on one host): `slot-<n>/` belongs to whoever owns the lock folder `slot-<n>.lock/`.
 *
 * The lock holds one owner file naming the pid, the pid's start time where the OS tells it (Linux), and a random
 * token of this process run. A lock this run did not take is stale when its pid has no process, or a process started
 * at another time (the pid was reused), or this very pid: in a container a restarted process usually gets the
 * crashed one's pid (1 or 2), and must take its own earlier slot back rather than clone into a new one. So a crash
 * never leaks a slot, and a restart finds its clone again (a Git outage is then served from it).
 *
 * A claim moves a complete lock folder (staged under a unique name) onto `slot-<n>.lock`: the rename succeeds only
 * while no owner file is there, so one claimant wins. A stale owner file is removed by its own unique name, so two
 * processes judging the same lock stale at once can never remove a lock the other has just taken.
 * Processes sharing a cache folder must share a PID namespace (one host, or one container).
 *
 * Slot folders stay when released, for the next process to reuse: a claim takes the lowest free slot, so a cache
 * holds no more of them than processes ever ran on it at once.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A claimed slot. */
export interface CacheSlot {
  /** Absolute path of the slot's folder (created). */
  dir: string;
  /** Gives the slot back (removes the lock; the folder and its clone stay for the next process). Idempotent. */
  release(): Promise<void>;
}

/** Who owns a lock, as its owner file records it. */
interface Owner {
  pid: number;
  /** The pid's start time (clock ticks since boot, `/proc/<pid>/stat` field 22); absent where unknown. */
  start?: string;
  /** Random per process run: tells this run's locks from an earlier run's with the same pid. */
  run?: string;
}

/** Slots tried before giving up: far more processes than one host runs on one cache. */
const MAX_SLOTS = 64;
const RUN = randomUUID();
let ownStartRead: Promise<string | undefined> | undefined;
/** This process's start time, or undefined where `/proc` does not tell it (or is another PID namespace's). */
function ownStart(): Promise<string | undefined> {
  return (ownStartRead ??= readStat('self').then((stat) => (stat && Number(stat.pid) === process.pid ? stat.start : undefined)));
}

/**
 * Claims the first free slot under `base` (created if needed), taking over stale locks.
 * @throws Error when all {@link MAX_SLOTS} slots are held by running processes, or the folder cannot be written.
 */
export async function claimSlot(base: string): Promise<CacheSlot> {
  await mkdir(base, { recursive: true });
  const owner: Owner = { pid: process.pid, start: await ownStart(), run: RUN };
  const name = `${randomUUID()}.json`;
  // Staged complete, so a lock never exists without its owner (a crash right here leaves this small folder).
  const staged = await mkdtemp(join(base, '.claim-'));
  try {
    await writeFile(join(staged, name), JSON.stringify(owner));
    for (let n = 0; n < MAX_SLOTS; n++) {
      const lock = join(base, `slot-${n}.lock`);
      if (!(await tryLock(staged, lock))) continue;
      const dir = join(base, `slot-${n}`);
      await mkdir(dir, { recursive: true });
      return { dir, release: () => release(lock, name) };
    }
  } finally {
    await rm(staged, { recursive: true, force: true }); // gone already when a lock was taken
  }
  throw new Error(`every working slot in the Git cache is held by a running process (${MAX_SLOTS})`);
}

/** Moves `staged` onto `lock`, after removing a stale owner; false when a live one holds it. */
async function tryLock(staged: string, lock: string): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await rename(staged, lock); // replaces only a missing or empty folder
      return true;
    } catch (error) {
      if (!['EEXIST', 'ENOTEMPTY', 'ENOTDIR', 'EPERM'].includes(errnoOf(error))) throw error;
    }
    if (!(await clearStale(lock))) return false;
  }
  return false; // others keep taking and releasing it: try the next slot
}

/** Removes the lock's owner when stale (then the lock itself when empty); false when it is held. */
async function clearStale(lock: string): Promise<boolean> {
  let names: string[];
  try {
    names = await readdir(lock);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return true;
    if (errnoOf(error) !== 'ENOTDIR') throw error;
    // A lock file of an earlier version, holding a bare pid.
    if (await isHeld(await readFile(lock, 'utf8').catch(() => ''))) return false;
    await unlink(lock).catch(ignore('ENOENT', 'EISDIR', 'EPERM'));
    return true;
  }
  for (const name of names) {
    const text = await readFile(join(lock, name), 'utf8').catch(ignore('ENOENT'));
    if (text !== undefined && (await isHeld(text))) return false;
    await rm(join(lock, name), { force: true }); // by its unique name: never a lock someone took meanwhile
  }
  await rmdir(lock).catch(ignore('ENOENT', 'ENOTEMPTY', 'EEXIST'));
  return true;
}

/** Removes this claim's owner file, then the lock folder if nobody took it meanwhile. */
async function release(lock: string, name: string): Promise<void> {
  await rm(join(lock, name), { force: true });
  await rmdir(lock).catch(ignore('ENOENT', 'ENOTEMPTY', 'EEXIST', 'ENOTDIR'));
}

/** Whether an owner file's text names a live owner; unreadable text has none (owners are written complete). */
async function isHeld(text: string): Promise<boolean> {
  let owner: Partial<Owner> | null;
  try {
    const parsed: unknown = JSON.parse(text);
    owner = typeof parsed === 'number' ? { pid: parsed } : (parsed as Partial<Owner> | null);
  } catch {
    return false;
  }
  const { pid, start, run } = owner ?? {};
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return run === RUN; // an earlier run with this pid is gone
  if (!isRunning(pid)) return false;
  if (typeof start !== 'string' || (await ownStart()) === undefined) return true;
  const now = (await readStat(String(pid)))?.start;
  return now === undefined || now === start; // another start time: the pid now names another process
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoOf(error) === 'EPERM'; // running, as another user
  }
}

/** Fields 1 (pid) and 22 (start time) of `/proc/<pid>/stat`; undefined without `/proc`. */
async function readStat(pid: string): Promise<{ pid: string; start: string } | undefined> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  // Field 2 is the command in parentheses and may hold spaces or parentheses: count from its closing one.
  const fields = text?.slice(text.lastIndexOf(')') + 2).split(' ');
  const start = fields?.[22 - 3];
  return text !== undefined && start !== undefined && /^\d+$/.test(start) ? { pid: text.slice(0, text.indexOf(' ')), start } : undefined;
}

function errnoOf(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? '';
}

/** A catch handler that swallows the given error codes. */
function ignore(...codes: string[]): (error: unknown) => undefined {
  return (error) => {
    if (!codes.includes(errnoOf(error))) throw error;
    return undefined;
  };
}
