import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../test/helpers/fake-clock.js';
import { MAX_TIMER_MS, PublishTimer } from './publish-timer.js';

describe('PublishTimer', () => {
  it('calls back once the clock reaches the instant, not before', () => {
    const clock = new FakeClock('2026-11-30T23:00:00Z');
    const due: string[] = [];
    const timer = new PublishTimer(clock.now, () => due.push(clock.now().toISOString()), clock.timers);
    timer.arm(new Date('2026-12-01T00:00:00Z'));
    expect(clock.delays).toEqual([3_600_000]);
    clock.set('2026-11-30T23:59:59.999Z');
    expect(due).toEqual([]);
    expect(timer.at?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    clock.set('2026-12-01T00:00:00Z');
    expect(due).toEqual(['2026-12-01T00:00:00.000Z']);
    expect(timer.at).toBeUndefined();
  });

  it('never asks setTimeout for more than 2^31-1 ms: a date weeks away is reached in several steps', () => {
    const clock = new FakeClock('2026-01-01T00:00:00Z');
    let calls = 0;
    const timer = new PublishTimer(clock.now, () => calls++, clock.timers);
    timer.arm(new Date('2026-03-01T00:00:00Z')); // 59 days
    clock.set('2026-02-28T23:59:59Z');
    expect(calls).toBe(0);
    clock.set('2026-03-01T00:00:00Z');
    expect(calls).toBe(1);
    expect(clock.delays.length).toBe(3);
    expect(Math.max(...clock.delays)).toBe(MAX_TIMER_MS);
    expect(clock.delays.reduce((a, b) => a + b, 0)).toBe(59 * 86_400_000);
  });

  it('fires at once for an instant already past, replaces what was armed, and clears', () => {
    const clock = new FakeClock('2026-05-01T12:00:00Z');
    let calls = 0;
    const timer = new PublishTimer(clock.now, () => calls++, clock.timers);
    timer.arm(new Date('2026-05-02T00:00:00Z'));
    timer.arm(new Date('2026-05-03T00:00:00Z'));
    expect(clock.armed).toBe(1);
    clock.set('2026-05-02T06:00:00Z');
    expect(calls).toBe(0);
    timer.clear();
    expect(clock.armed).toBe(0);
    clock.set('2026-05-04T00:00:00Z');
    expect(calls).toBe(0);
    timer.arm(new Date('2026-05-01T00:00:00Z'));
    expect(clock.delays.at(-1)).toBe(0);
    clock.set('2026-05-04T00:00:00Z');
    expect(calls).toBe(1);
    timer.arm(undefined);
    expect(clock.armed).toBe(0);
  });
});
