/**
 * Test helper: a clock that moves only when told, with timers that fire when it passes their time. Given to the
 * code under test (`now`, `timers` options), never installed globally: the rest of the process keeps real time.
 *
 * ```ts
 * const clock = new FakeClock('2026-11-30T23:59:00Z');
 * const server = await startServer(config, { now: clock.now, timers: clock.timers });
 * clock.set('2026-12-01T00:00:00Z'); // fires the timers due by then
 * ```
 */
import type { Timers } from '../../src/server/publish-timer.js';

/** See the module comment. */
export class FakeClock {
  #ms: number;
  #nextId = 1;
  readonly #pending = new Map<number, { at: number; fn: () => void }>();
  /** Every delay passed to `setTimeout`, in order (to check how timers are armed). */
  readonly delays: number[] = [];

  constructor(start: string) {
    this.#ms = Date.parse(start);
  }

  /** The clock's time. */
  readonly now = (): Date => new Date(this.#ms);

  /** Timers on this clock. */
  readonly timers: Timers = {
    setTimeout: (fn, ms) => {
      const id = this.#nextId++;
      this.delays.push(ms);
      this.#pending.set(id, { at: this.#ms + ms, fn });
      return id;
    },
    clearTimeout: (handle) => void this.#pending.delete(handle as number),
  };

  /** How many timers are armed. */
  get armed(): number {
    return this.#pending.size;
  }

  /** Moves the clock to `iso` (never backwards) and fires, in time order, every timer due by then. */
  set(iso: string): void {
    const target = Date.parse(iso);
    if (target < this.#ms) throw new Error(`the fake clock does not go back (${iso})`);
    for (;;) {
      const due = [...this.#pending].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#pending.delete(due[0]);
      this.#ms = Math.max(this.#ms, due[1].at);
      due[1].fn();
    }
    this.#ms = target;
  }
}
