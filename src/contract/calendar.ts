/**
 * Calendar dates written `YYYY-MM-DD` (proleptic Gregorian, no time zone), as the content and the API write them
 * (changelog dates, sunsets): one rule of which dates exist, for the content's checks and the index's headers.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/**
 * Days since 1970-01-01 of a real calendar date, or `undefined` when `text` is not `YYYY-MM-DD` or names a
 * day that does not exist (2025-02-29, 2024-13-01).
 */
export function dayNumber(text: string): number | undefined {
  const m = DATE.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  // Date.UTC rolls 02-30 over into March: a round trip exposes days that do not exist.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return undefined;
  return Math.round(ms / DAY_MS);
}

/** 00:00 UTC of a `YYYY-MM-DD` date, in milliseconds since the epoch. @throws Error when `date` is not a real calendar date. */
export function utcMidnightMs(date: string): number {
  const day = dayNumber(date);
  if (day === undefined) throw new Error(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  return day * DAY_MS;
}
