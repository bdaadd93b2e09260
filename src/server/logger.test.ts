import { afterEach, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { loggerOptions } from './logger.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the log time', () => {
  it("is pino's isoTime field, formatted again whenever the millisecond changes", () => {
    vi.useFakeTimers();
    const time = loggerOptions('info').timestamp as () => string;
    vi.setSystemTime(Date.UTC(2026, 10, 25, 9, 0, 0, 1));
    expect(time()).toBe(pino.stdTimeFunctions.isoTime());
    expect(time()).toBe(',"time":"2026-11-25T09:00:00.001Z"');
    vi.setSystemTime(Date.UTC(2026, 10, 25, 9, 0, 0, 2));
    expect(time()).toBe(',"time":"2026-11-25T09:00:00.002Z"');
  });
});
