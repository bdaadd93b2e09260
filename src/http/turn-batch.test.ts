import { describe, expect, it } from 'vitest';
import { inTurnBatches } from './turn-batch.js';

/** A scheduler that keeps the batches it is given, to run them when the test says. */
function heldScheduler(): { schedule: (flush: () => void) => void; pending: Array<() => void>; runNext(): void } {
  const pending: Array<() => void> = [];
  return { schedule: (flush) => void pending.push(flush), pending, runNext: () => pending.shift()!() };
}

describe('inTurnBatches', () => {
  it('handles the items queued before a batch runs together, in order, with one schedule per batch', () => {
    const scheduler = heldScheduler();
    const handled: number[] = [];
    const queue = inTurnBatches(
      (n: number) => void handled.push(n),
      scheduler.schedule,
      () => {},
    );
    queue(1);
    queue(2);
    queue(3);
    expect(handled).toEqual([]);
    expect(scheduler.pending).toHaveLength(1);
    scheduler.runNext();
    expect(handled).toEqual([1, 2, 3]);
    expect(scheduler.pending).toHaveLength(0);
  });

  it('puts an item queued while a batch runs into the next batch', () => {
    const scheduler = heldScheduler();
    const handled: number[] = [];
    const queue = inTurnBatches(
      (n: number) => {
        handled.push(n);
        if (n === 1) queue(10);
      },
      scheduler.schedule,
      () => {},
    );
    queue(1);
    queue(2);
    scheduler.runNext();
    expect(handled).toEqual([1, 2]);
    expect(scheduler.pending).toHaveLength(1);
    scheduler.runNext();
    expect(handled).toEqual([1, 2, 10]);
  });

  it('reports an item whose handling throws, with the item, and handles the rest of the batch', () => {
    const scheduler = heldScheduler();
    const handled: number[] = [];
    const failures: Array<[string, number]> = [];
    const queue = inTurnBatches(
      (n: number) => {
        if (n === 2) throw new Error('broke');
        handled.push(n);
      },
      scheduler.schedule,
      (error, n) => void failures.push([(error as Error).message, n]),
    );
    for (const n of [1, 2, 3]) queue(n);
    expect(() => scheduler.runNext()).not.toThrow();
    expect(handled).toEqual([1, 3]);
    expect(failures).toEqual([['broke', 2]]);
  });
});
