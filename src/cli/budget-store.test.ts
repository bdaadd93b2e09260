import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BudgetStore } from './budget-store.js';

const NOW = Date.UTC(2026, 10, 29, 8, 0, 0);
const ORIGIN = 'http://127.0.0.1:18080';
let root: string;
let n = 0;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'budget-store-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A fresh cache folder (not created yet) and a store on it at the clock `now`. */
function fresh(now = NOW): { dir: string; store: BudgetStore; file: string } {
  const dir = join(root, `cache-${n++}`);
  return { dir, store: new BudgetStore(dir, () => now), file: join(dir, 'read-budgets.json') };
}

describe('read budgets kept between runs', () => {
  it('remembers a spent budget per origin until it resets, in a private file written whole', async () => {
    const { dir, store, file } = fresh();
    expect(await store.spent(ORIGIN)).toBeUndefined();
    await store.recordSpent(ORIGIN, { resetAt: NOW + 30_000, limit: 120 });
    await store.recordSpent('https://other.example', { resetAt: NOW + 5_000, limit: undefined });
    expect(await store.spent(ORIGIN)).toEqual({ resetAt: NOW + 30_000, limit: 120 });
    expect(await store.spent('https://other.example')).toEqual({ resetAt: NOW + 5_000, limit: undefined });
    expect(await store.spent('http://127.0.0.1:18081')).toBeUndefined();
    // A later process (its clock past one reset) sees only the budget still spent.
    expect(await new BudgetStore(dir, () => NOW + 10_000).spent('https://other.example')).toBeUndefined();
    expect(await new BudgetStore(dir, () => NOW + 10_000).spent(ORIGIN)).toEqual({ resetAt: NOW + 30_000, limit: 120 });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      [ORIGIN]: { reset_at: NOW + 30_000, limit: 120 },
      'https://other.example': { reset_at: NOW + 5_000 },
    });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it('forgets an origin whose budget the service reports not spent after all, keeping the others', async () => {
    const { store, file } = fresh();
    await store.recordSpent(ORIGIN, { resetAt: NOW + 30_000, limit: 120 });
    await store.recordSpent('https://other.example', { resetAt: NOW + 30_000, limit: 120 });
    await store.forget(ORIGIN);
    expect(await store.spent(ORIGIN)).toBeUndefined();
    expect(Object.keys(JSON.parse(await readFile(file, 'utf8')) as object)).toEqual(['https://other.example']);
  });

  it('drops expired entries when it writes, and keeps the hundred resetting last', async () => {
    const { store, file } = fresh();
    await store.recordSpent('http://old.example', { resetAt: NOW + 1_000, limit: 1 });
    const later = new BudgetStore(join(file, '..'), () => NOW + 2_000);
    for (let i = 0; i < 105; i++) await later.recordSpent(`http://h${i}.example`, { resetAt: NOW + 10_000 + i, limit: 1 });
    const kept = Object.keys(JSON.parse(await readFile(file, 'utf8')) as object);
    expect(kept).toHaveLength(100);
    expect(kept).not.toContain('http://old.example');
    expect(kept).not.toContain('http://h4.example');
    expect(kept).toContain('http://h104.example');
  });

  it.each([
    ['not JSON', '{"http://127.0.0.1:18080": {"reset_at": '],
    ['an array', JSON.stringify([{ reset_at: NOW + 1 }])],
    ['a string reset', JSON.stringify({ [ORIGIN]: { reset_at: String(NOW + 30_000) } })],
    ['a fractional reset', JSON.stringify({ [ORIGIN]: { reset_at: NOW + 0.5 } })],
    ['a reset years ahead', JSON.stringify({ [ORIGIN]: { reset_at: NOW + 3 * 365 * 86_400_000 } })],
    ['a key that is not an origin', JSON.stringify({ [`${ORIGIN}/v1`]: { reset_at: NOW + 30_000 } })],
  ])('ignores a file holding %s', async (_, text) => {
    const { dir, store, file } = fresh();
    await mkdir(dir, { recursive: true });
    await writeFile(file, text);
    expect(await store.spent(ORIGIN)).toBeUndefined();
    await store.recordSpent(ORIGIN, { resetAt: NOW + 1_000, limit: 2 });
    expect(await store.spent(ORIGIN)).toEqual({ resetAt: NOW + 1_000, limit: 2 });
  });

  it('keeps the valid entries of a file with hostile ones (__proto__, a bad limit)', async () => {
    const { dir, store, file } = fresh();
    await mkdir(dir, { recursive: true });
    await writeFile(file, `{"__proto__": {"reset_at": ${NOW + 30_000}}, "${ORIGIN}": {"reset_at": ${NOW + 30_000}, "limit": -4}}`);
    expect(await store.spent(ORIGIN)).toEqual({ resetAt: NOW + 30_000, limit: undefined });
    expect(await store.spent('__proto__')).toBeUndefined();
    expect(({} as Record<string, unknown>).reset_at).toBeUndefined();
  });

  it('does not read an oversized file, a FIFO or a link to a device, and replaces a link instead of writing through it', async () => {
    const big = fresh();
    await mkdir(big.dir, { recursive: true });
    await writeFile(big.file, JSON.stringify({ [ORIGIN]: { reset_at: NOW + 30_000 }, padding: 'x'.repeat(70_000) }));
    expect(await big.store.spent(ORIGIN)).toBeUndefined();

    const fifo = fresh();
    await mkdir(fifo.dir, { recursive: true });
    execFileSync('mkfifo', [fifo.file]);
    expect(await fifo.store.spent(ORIGIN)).toBeUndefined();

    const linked = fresh();
    await mkdir(linked.dir, { recursive: true });
    await symlink('/dev/zero', linked.file);
    expect(await linked.store.spent(ORIGIN)).toBeUndefined();
    await linked.store.recordSpent(ORIGIN, { resetAt: NOW + 1_000, limit: undefined });
    expect((await stat(linked.file)).isFile()).toBe(true);
    expect(await linked.store.spent(ORIGIN)).toEqual({ resetAt: NOW + 1_000, limit: undefined });
  });

  it('caps a recorded reset at a day ahead, and ignores a cache folder it cannot write', async () => {
    const { store } = fresh();
    await store.recordSpent(ORIGIN, { resetAt: NOW + 10 * 86_400_000, limit: 1 });
    expect((await store.spent(ORIGIN))?.resetAt).toBe(NOW + 86_400_000);
    const blocked = join(root, 'a-file');
    await writeFile(blocked, '');
    const unwritable = new BudgetStore(join(blocked, 'cache'), () => NOW);
    await expect(unwritable.recordSpent(ORIGIN, { resetAt: NOW + 1_000, limit: 1 })).resolves.toBeUndefined();
    expect(await unwritable.spent(ORIGIN)).toBeUndefined();
  });
});
