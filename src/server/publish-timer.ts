/**
 * The one timer of scheduled publishing: armed for the next instant the published content changes
 * (`publishedAt` in `src/content/schedule.ts`), it calls back once that instant has come by the injected clock.
 */

/** Timer functions (the global ones by default; a test passes a fake clock's). */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The global timers; unreferenced, so a pending publication never keeps a process alive. */
export const REAL_TIMERS: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** The longest delay `setTimeout` takes (2^31 − 1 ms, about 24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Calls `onDue` once the clock reaches the armed instant; see the module comment. */
export class PublishTimer {
  readonly #now: () => Date;
  readonly #timers: Timers;
  readonly #onDue: () => void;
  #handle: unknown;
  #at: Date | undefined;

  constructor(now: () => Date, onDue: () => void, timers: Timers = REAL_TIMERS) {
    this.#now = now;
    this.#onDue = onDue;
    this.#timers = timers;
  }

  /** The instant armed for, or `undefined`. */
  get at(): Date | undefined {
    return this.#at;
  }

  /**
   * Arms for `at` (replacing what was armed), or disarms with `undefined`. A date further away than
   * {@link MAX_TIMER_MS} arms for that long and again from there; a timer that fires early by the clock re-arms.
   */
  arm(at: Date | undefined): void {
    this.clear();
    this.#at = at;
    if (at !== undefined) this.#schedule(at);
  }

  /** Disarms (shutdown). */
  clear(): void {
    if (this.#handle !== undefined) this.#timers.clearTimeout(this.#handle);
    this.#handle = undefined;
    this.#at = undefined;
  }

  #schedule(at: Date): void {
    const delay = Math.min(Math.max(at.getTime() - this.#now().getTime(), 0), MAX_TIMER_MS);
    this.#handle = this.#timers.setTimeout(() => {
      this.#handle = undefined;
      if (this.#now().getTime() < at.getTime()) return this.#schedule(at);
      this.#at = undefined;
      this.#onDue();
    }, delay);
  }
}
