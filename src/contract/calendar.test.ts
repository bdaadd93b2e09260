import { describe, expect, it } from 'vitest';
import { dayNumber, utcMidnightMs } from './calendar.js';

describe('calendar dates', () => {
  it('numbers the days that exist, and only those', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('2024-02-29')).toBe(19782);
    for (const text of ['2025-02-29', '2025-02-30', '2024-13-01', '2024-00-10', '2024-1-01', '2024-01-01T00:00Z', ''])
      expect(dayNumber(text), text).toBeUndefined();
  });

  it("gives a date's midnight UTC, the same instant for the content's schedule and the index's headers", () => {
    expect(utcMidnightMs('2026-11-29')).toBe(Date.parse('2026-11-29T00:00:00Z'));
    expect(() => utcMidnightMs('2025-02-30')).toThrow('not a YYYY-MM-DD date: "2025-02-30"');
  });
});
