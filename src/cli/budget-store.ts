/**
 * Read budgets known to be spent, kept between runs in the cache folder (`<cache>/read-budgets.json`), so a new
 * process that knows a service's budget is spent (`RateLimit-Remaining: 0`, or a 429) waits for the reset or fails
 * fast without first spending a request on a 429. One entry per origin (the service's budget is per server, whatever
 * the base URL's path), expired entries dropped.
 *
 * The file is a cache: a missing, corrupt, oversized or hostile one is ignored (entry by entry), and a failure to
 * write it only means the next run learns the budget from the service again.
 */
import { join } from 'node:path';
import { readSmallFile, writeFileAtomic } from './atomic-file.js';

/** A spent budget: no request to the origin before `resetAt`. */
export interface SpentBudget {
  /** When the window resets, epoch milliseconds. */
  resetAt: number;
  /** The window's size (`RateLimit-Limit`), when the service said it. */
  limit: number | undefined;
}

/** The file's name in the cache folder. */
const FILE_NAME = 'read-budgets.json';

/** Largest file read, in bytes (a hundred entries are a few kilobytes). */
const MAX_FILE_BYTES = 64 * 1024;

/** Most entries kept (those resetting last). */
const MAX_ENTRIES = 100;

/** An entry resetting further ahead than this is not believed (a hostile file must not lock the client out). */
const MAX_AHEAD_MS = 24 * 60 * 60 * 1000;

/** The stored shape of one entry. */
interface StoredEntry {
  reset_at: number;
  limit?: number;
}

function isOrigin(key: string): boolean {
  try {
    const url = new URL(key);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === key;
  } catch {
    return false;
  }
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Spent budgets by origin, in a cache folder. */
export class BudgetStore {
  private readonly file: string;

  /** @param now the clock, epoch milliseconds (injectable for tests). */
  constructor(
    cacheDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.file = join(cacheDir, FILE_NAME);
  }

  /** The valid entries that have not reset yet (none when the file is missing or unreadable). */
  private async load(): Promise<Map<string, SpentBudget>> {
    const entries = new Map<string, SpentBudget>();
    const text = await readSmallFile(this.file, MAX_FILE_BYTES);
    if (text === undefined) return entries;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return entries;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return entries;
    const now = this.now();
    for (const [origin, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (!isOrigin(origin) || typeof value !== 'object' || value === null) continue;
      const { reset_at: resetAt, limit } = value as Partial<Record<keyof StoredEntry, unknown>>;
      if (!isCount(resetAt) || resetAt <= now || resetAt > now + MAX_AHEAD_MS) continue;
      entries.set(origin, { resetAt, limit: isCount(limit) ? limit : undefined });
    }
    return entries;
  }

  /** The spent budget of `origin` (e.g. `http://127.0.0.1:8080`) that has not reset yet, if one is known. */
  async spent(origin: string): Promise<SpentBudget | undefined> {
    return (await this.load()).get(origin);
  }

  /**
   * Records that `origin`'s budget is spent until `budget.resetAt` (capped at a day ahead). Never throws: a cache
   * folder that cannot be written is ignored.
   */
  async recordSpent(origin: string, budget: SpentBudget): Promise<void> {
    if (!isOrigin(origin)) return;
    const entries = await this.load();
    entries.set(origin, { resetAt: Math.min(budget.resetAt, this.now() + MAX_AHEAD_MS), limit: budget.limit });
    await this.save(entries);
  }

  /** Forgets `origin`'s spent budget (the service reported reads left before the reset). Never throws. */
  async forget(origin: string): Promise<void> {
    const entries = await this.load();
    if (entries.delete(origin)) await this.save(entries);
  }

  private async save(entries: Map<string, SpentBudget>): Promise<void> {
    const kept = [...entries].sort((a, b) => b[1].resetAt - a[1].resetAt).slice(0, MAX_ENTRIES);
    const stored: Record<string, StoredEntry> = {};
    for (const [key, { resetAt, limit }] of kept) stored[key] = { reset_at: resetAt, ...(limit !== undefined ? { limit } : {}) };
    try {
      await writeFileAtomic(this.file, `${JSON.stringify(stored)}\n`);
    } catch {
      // not writable: the next run learns the budget from the service
    }
  }
}
