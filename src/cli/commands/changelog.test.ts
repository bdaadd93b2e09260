import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import type { ChangelogEntry } from '../../schemas/types.generated.js';
import { DEFAULT_LIMIT, parseLimit, parseSince, selectEntries } from './changelog.js';

const entry = (id: string, date: string): ChangelogEntry => ({ id, date, kind: 'feature', title: id, blurb: '', body: '', deprecates: [] });

/** Newest first, as the API orders them: 15 entries, two per day from 2026-01-08 down. */
const changelog = {
  entries: Array.from({ length: 15 }, (_, i) => entry(`e-${i}`, `2026-01-${String(8 - Math.floor(i / 2)).padStart(2, '0')}`)),
};

describe('--since', () => {
  it('takes a calendar date that exists, as YYYY-MM-DD', () => {
    expect(parseSince('2024-02-29')).toBe('2024-02-29');
    expect(parseSince('2026-12-31')).toBe('2026-12-31');
  });

  it.each(['2023-02-29', '2026-13-01', '2026-1-5', '20260105', '2026-01-05T00:00:00Z', 'yesterday', ''])('refuses %j as a usage error', (value) => {
    expect(() => parseSince(value)).toThrow(UsageError);
    expect(() => parseSince(value)).toThrow(`--since must be a date as YYYY-MM-DD`);
  });
});

describe('--limit', () => {
  it('takes a whole number from 1', () => {
    expect(parseLimit('1')).toBe(1);
    expect(parseLimit('999999')).toBe(999999);
  });

  it.each(['0', '-1', '1.5', '01', '1e3', 'ten', '1000000'])('refuses %j as a usage error', (value) => {
    expect(() => parseLimit(value)).toThrow(UsageError);
  });
});

describe('the entries shown', () => {
  it('are the latest 10 by default, in the API order', () => {
    expect(selectEntries(changelog, undefined, undefined).entries.map((e) => e.id)).toEqual(
      changelog.entries.slice(0, DEFAULT_LIMIT).map((e) => e.id),
    );
  });

  it('are every entry on or after --since (the day itself included), at most --limit of them', () => {
    const since = selectEntries(changelog, '2026-01-03', undefined).entries;
    expect(since.map((e) => e.date)).toEqual(changelog.entries.filter((e) => e.date >= '2026-01-03').map((e) => e.date));
    expect(since.length).toBe(12);
    expect(since.at(-1)!.date).toBe('2026-01-03');
    expect(selectEntries(changelog, '2026-01-03', 4).entries).toEqual(since.slice(0, 4));
    expect(selectEntries(changelog, undefined, 3).entries).toEqual(changelog.entries.slice(0, 3));
    expect(selectEntries(changelog, '2026-02-01', undefined).entries).toEqual([]);
  });
});
