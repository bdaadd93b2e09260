/**
 * A working folder of its own for each running process, inside a cache folder that several processes may share
 * (`WORKERS=2`, two services on one host): `slot-<n>/` is claimed by creating `slot-<n>.lock` exclusively, with
 * the owner's pid in it. A lock whose pid no longer runs is stale and taken over, so a crash never leaks a slot
 * for good, and a restarted process usually gets its previous slot (and its clone) back.
 */
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** A claimed slot. */
export interface CacheSlot {
  /** Absolute path of the slot's folder (created). */
  dir: string;
  /** Gives the slot back (removes the lock; the folder and its clone stay for the next process). */
  release(): Promise<void>;
}

/** Slots tried before giving up: far more processes than one host runs on one cache. */
const MAX_SLOTS = 64;

/**
 * Claims the first free slot under `base` (created if needed).
 * @throws Error when all {@link MAX_SLOTS} slots are held by running processes, or the folder cannot be written.
 */
export async function claimSlot(base: string): Promise<CacheSlot> {
  await mkdir(base, { recursive: true });
  for (let n = 0; n < MAX_SLOTS; n++) {
    const lock = join(base, `slot-${n}.lock`);
    if (!(await tryLock(lock))) continue;
    const dir = join(base, `slot-${n}`);
    await mkdir(dir, { recursive: true });
    return { dir, release: () => rm(lock, { force: true }) };
  }
  throw new Error(`every working slot in the Git cache is held by a running process (${MAX_SLOTS})`);
}

async function tryLock(lock: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = Number.parseInt(await readFile(lock, 'utf8').catch(() => ''), 10);
    if (!Number.isInteger(pid) || pid <= 0) {
      // No pid yet: its owner may be between creating and writing it; only an old one is abandoned.
      const age = Date.now() - ((await stat(lock).catch(() => undefined))?.mtimeMs ?? 0);
      if (age < 10_000) return false;
    } else if (pid === process.pid || isRunning(pid)) {
      return false; // held (also by another source of this very process)
    }
    await rm(lock, { force: true }); // stale: its owner is gone; try once more (another process may win the race)
  }
  return false;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // running, as another user
  }
}
