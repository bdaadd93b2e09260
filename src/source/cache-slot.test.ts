/**
 * Working slots in a shared cache folder, with real files and real processes: a lock left by an earlier run with
 * this pid (a restarted container) is taken over, as is one whose pid has gone or now names a process started at
 * another time; a running process's lock is respected; claims in one process, and claims racing from several
 * processes over stale locks, all get distinct slots.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimSlot, type CacheSlot } from './cache-slot.js';

const MODULE = join(import.meta.dirname, 'cache-slot.ts');
const linux = existsSync('/proc/self/stat');

let base: string;
/** Ends each process started, resolving once it has exited (before its folder is removed). */
const stops: Array<() => Promise<unknown>> = [];
const slots: CacheSlot[] = [];
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'syllabus-slots-'));
});
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
  for (const s of slots.splice(0)) await s.release();
  await rm(base, { recursive: true, force: true });
});

async function claim(): Promise<string> {
  const slot = await claimSlot(base);
  slots.push(slot);
  return slot.dir.slice(base.length + 1);
}

/** Writes the lock of slot `n` as an owner recorded it: what a process that is gone now left behind. */
async function leaveLock(n: number, owner: { pid: number; start?: string; run?: string }): Promise<void> {
  await mkdir(join(base, `slot-${n}.lock`), { recursive: true });
  await writeFile(join(base, `slot-${n}.lock`, 'earlier.json'), JSON.stringify(owner));
}

/** Starts a process; resolves once it runs (and, with `claim`, has claimed a slot of `base`: its folder name). */
async function startProcess(claim: boolean): Promise<{ child: ChildProcess; slot: string; exited: Promise<unknown> }> {
  const script = claim
    ? `const { claimSlot } = await import(${JSON.stringify(MODULE)}); console.log((await claimSlot(process.argv[1])).dir);`
    : 'console.log("");';
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `${script} setInterval(() => {}, 1e6);`, base], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  stops.push(() => {
    child.kill('SIGKILL');
    return exited;
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the process exited (${code}) before it ran`)));
  });
  return { child, slot: line.slice(base.length + 1), exited };
}

/** A pid that no process has any more. */
async function deadPid(): Promise<number> {
  const { child, exited } = await startProcess(false);
  child.kill('SIGKILL');
  await exited;
  return child.pid!;
}

/** Field 22 (start time) of `/proc/<pid>/stat`. */
async function startTime(pid: number): Promise<string> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3]!;
}

describe('claimSlot', () => {
  it('gives two claims in one process two slots, and a released slot to the next claim', async () => {
    const first = await claimSlot(base);
    expect(first.dir).toBe(join(base, 'slot-0'));
    expect(await claim()).toBe('slot-1');
    await first.release();
    await first.release(); // twice is harmless
    expect(await claim()).toBe('slot-0');
    expect((await readdir(base)).sort()).toEqual(['slot-0', 'slot-0.lock', 'slot-1', 'slot-1.lock']);
  });

  it('fails with a clear error when every slot is held, leaving nothing behind', async () => {
    await Promise.all(Array.from({ length: 64 }, () => claim()));
    await expect(claimSlot(base)).rejects.toThrow('every working slot in the Git cache is held by a running process (64)');
    expect((await readdir(base)).filter((name) => !/^slot-\d+(\.lock)?$/.test(name))).toEqual([]);
  });

  it('takes over the lock an earlier run with this pid left (a restarted container), keeping its folder', async () => {
    await mkdir(join(base, 'slot-0', 'repo.git'), { recursive: true });
    await leaveLock(0, { pid: process.pid, start: '1', run: 'an-earlier-run' });
    expect(await claim()).toBe('slot-0');
    expect(await readdir(join(base, 'slot-0'))).toEqual(['repo.git']);
    expect(await readdir(join(base, 'slot-0.lock'))).not.toContain('earlier.json');
  });

  it('takes over a lock whose process is gone, and a bare-pid lock file of an earlier version', async () => {
    await leaveLock(0, { pid: await deadPid(), run: 'gone' });
    await writeFile(join(base, 'slot-1.lock'), `${process.pid}\n`);
    expect([await claim(), await claim(), await claim()]).toEqual(['slot-0', 'slot-1', 'slot-2']);
  });

  it('respects the lock of a running process, and takes it over once that process is killed', async () => {
    const other = await startProcess(true);
    expect(other.slot).toBe('slot-0');
    expect(await claim()).toBe('slot-1');
    other.child.kill('SIGKILL');
    await other.exited;
    expect(await claim()).toBe('slot-0');
  });

  it('respects a bare-pid lock file of a running process', async () => {
    const other = await startProcess(false);
    await writeFile(join(base, 'slot-0.lock'), `${other.child.pid}\n`);
    expect(await claim()).toBe('slot-1');
  });

  it.runIf(linux)('takes over a lock whose pid now names a process started at another time', async () => {
    const { child } = await startProcess(false);
    const pid = child.pid!;
    await leaveLock(0, { pid, start: await startTime(pid), run: 'running' });
    await leaveLock(1, { pid, start: `${Number(await startTime(pid)) - 1}`, run: 'reused' });
    expect(await claim()).toBe('slot-1');
  });

  it('gives racing claims in one process distinct slots, taking over every stale lock', async () => {
    const dead = await deadPid();
    for (let n = 0; n < 8; n++) await leaveLock(n, n % 2 ? { pid: dead } : { pid: process.pid, run: 'an-earlier-run' });
    const dirs = await Promise.all(Array.from({ length: 12 }, () => claim()));
    expect(dirs.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))).toEqual(Array.from({ length: 12 }, (_, n) => `slot-${n}`));
  });

  it('gives processes racing over the same stale locks distinct slots', async () => {
    const dead = await deadPid();
    for (let n = 0; n < 3; n++) await leaveLock(n, { pid: dead });
    const others = await Promise.all(Array.from({ length: 3 }, () => startProcess(true)));
    expect(others.map((o) => o.slot).sort()).toEqual(['slot-0', 'slot-1', 'slot-2']);
    expect(await claim()).toBe('slot-3');
  });
});
