/**
 * The burst debouncer on fake timers: quiet time, longest wait, runs that never overlap, and close.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BurstDebouncer } from './burst.js';

/** A debouncer whose runs are recorded; each run ends when the test calls `finish()` (or at once when `instant`). */
function recorder(quietMs: number, maxWaitMs: number, instant = true) {
  const runs: string[][] = [];
  const errors: unknown[] = [];
  let finish: () => void = () => undefined;
  const burst = new BurstDebouncer<string>({
    quietMs,
    maxWaitMs,
    onError: (error) => errors.push(error),
    run(changed) {
      runs.push(changed);
      if (changed.includes('throw')) return Promise.reject(new Error('boom'));
      return instant ? Promise.resolve() : new Promise<void>((resolve) => (finish = resolve));
    },
  });
  return { burst, runs, errors, finish: () => finish() };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('BurstDebouncer', () => {
  it('runs once, the quiet time after the last change, with every key once', async () => {
    const { burst, runs } = recorder(50, 2_000);
    burst.add('a');
    await vi.advanceTimersByTimeAsync(40);
    burst.add('b');
    burst.add('a');
    await vi.advanceTimersByTimeAsync(49);
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([['a', 'b']]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toHaveLength(1);
  });

  it('runs after the longest wait when changes never stop', async () => {
    const { burst, runs } = recorder(50, 200);
    for (let t = 0; t < 190; t += 10) {
      burst.add(`f${t}`);
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(10); // 200 ms after the first change
    expect(runs).toHaveLength(1);
    expect(runs[0]).toHaveLength(19);
  });

  it('never overlaps runs: changes during a run give exactly one more run after it', async () => {
    const { burst, runs, finish } = recorder(50, 2_000, false);
    burst.add('a');
    await vi.advanceTimersByTimeAsync(50);
    expect(runs).toEqual([['a']]);
    burst.add('b');
    burst.add('c');
    await vi.advanceTimersByTimeAsync(5_000); // the run is still going: nothing starts
    expect(runs).toHaveLength(1);
    finish();
    await vi.advanceTimersByTimeAsync(49);
    expect(runs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([['a'], ['b', 'c']]);
  });

  it('reports a failed run and keeps going', async () => {
    const { burst, runs, errors } = recorder(10, 100);
    burst.add('throw');
    await vi.advanceTimersByTimeAsync(10);
    expect(errors).toEqual([new Error('boom')]);
    burst.add('next');
    await vi.advanceTimersByTimeAsync(10);
    expect(runs).toEqual([['throw'], ['next']]);
  });

  it('drops pending changes on close and waits for the run in progress', async () => {
    const { burst, runs, finish } = recorder(10, 100, false);
    burst.add('a');
    await vi.advanceTimersByTimeAsync(10);
    burst.add('b');
    let closed = false;
    const closing = burst.close().then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(closed).toBe(false);
    finish();
    await closing;
    burst.add('c');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toEqual([['a']]);
  });

  it('treats a longest wait below the quiet time as the quiet time', async () => {
    const { burst, runs } = recorder(100, 10);
    burst.add('a');
    await vi.advanceTimersByTimeAsync(99);
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([['a']]);
  });
});
