/**
 * The record of the last update check, kept in the cache folder (`<cache>/update-check.json`), so the daily
 * self-update runs at most once a day and `doctor` can say when updates were last checked.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file.js';

/** One update check. */
export interface UpdateCheckRecord {
  /** When the check started, epoch milliseconds. */
  checkedAt: number;
  /** How it ended: `started` while a background check runs. */
  result: 'started' | 'up-to-date' | 'installed' | 'failed';
  /** The newest version the manifest offered, when known. */
  latest?: string;
  /** Why it failed, one sentence. */
  message?: string;
  /**
   * The line the next run prints on stderr, once: what a background (daily) update installed, since its own output
   * went nowhere. Absent once printed, and for updates the user ran (they said what they did).
   */
  notice?: string;
}

function fileIn(cacheDir: string): string {
  return join(cacheDir, 'update-check.json');
}

/** The last update check, or `undefined` when there was none (or the record is unreadable). */
export async function readUpdateCheck(cacheDir: string): Promise<UpdateCheckRecord | undefined> {
  try {
    const value = JSON.parse(await readFile(fileIn(cacheDir), 'utf8')) as Partial<UpdateCheckRecord>;
    if (typeof value.checkedAt !== 'number' || !Number.isFinite(value.checkedAt)) return undefined;
    const result = value.result;
    if (result !== 'started' && result !== 'up-to-date' && result !== 'installed' && result !== 'failed') return undefined;
    return {
      checkedAt: value.checkedAt,
      result,
      ...(typeof value.latest === 'string' ? { latest: value.latest } : {}),
      ...(typeof value.message === 'string' ? { message: value.message } : {}),
      ...(typeof value.notice === 'string' ? { notice: value.notice } : {}),
    };
  } catch {
    return undefined;
  }
}

/** Records an update check (atomically). Write failures are ignored: the record only spaces checks out. */
export async function writeUpdateCheck(cacheDir: string, record: UpdateCheckRecord): Promise<void> {
  try {
    await writeFileAtomic(fileIn(cacheDir), `${JSON.stringify(record)}\n`);
  } catch {
    // the cache folder is not writable: checks are then not spaced out, which is harmless
  }
}
