/**
 * Folds a burst of changes into one run: the quiet-time debounce with a longest wait that the content watcher and
 * the referrals watcher share. Timers come from the global `setTimeout`, so tests drive it with fake timers.
 */

/** Options of {@link BurstDebouncer}. */
export interface BurstOptions<K> {
  /** Quiet time after the last change before running, in milliseconds. */
  quietMs: number;
  /** Longest wait after the first change of a burst before running anyway, in milliseconds (at least `quietMs`). */
  maxWaitMs: number;
  /**
   * The work, given the keys that changed since the previous run (insertion order, each once). Runs never overlap:
   * changes arriving during a run lead to one more run after it. A rejection is passed to `onError`.
   */
  run(changed: K[]): Promise<void>;
  /** Called with whatever `run` throws. */
  onError(error: unknown): void;
}

/**
 * Collects changed keys and runs once per burst: `quietMs` after the last change, or `maxWaitMs` after the first
 * change of a burst if changes never stop.
 */
export class BurstDebouncer<K> {
  readonly #opts: BurstOptions<K>;
  readonly #maxWaitMs: number;
  readonly #pending = new Set<K>();
  #quietTimer: ReturnType<typeof setTimeout> | undefined;
  #maxTimer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | undefined;
  #closed = false;

  constructor(options: BurstOptions<K>) {
    this.#opts = options;
    this.#maxWaitMs = Math.max(options.maxWaitMs, options.quietMs);
  }

  /** Records a change of `key` and (re)starts the quiet time. Ignored once closed. */
  add(key: K): void {
    if (this.#closed) return;
    this.#pending.add(key);
    if (!this.#running) this.#schedule();
  }

  /** Stops: pending changes are dropped, no run starts any more; resolves once a run in progress has ended. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#clearTimers();
    this.#pending.clear();
    await this.#running;
  }

  #schedule(): void {
    clearTimeout(this.#quietTimer);
    this.#quietTimer = setTimeout(() => this.#flush(), this.#opts.quietMs);
    this.#maxTimer ??= setTimeout(() => this.#flush(), this.#maxWaitMs);
  }

  #clearTimers(): void {
    clearTimeout(this.#quietTimer);
    clearTimeout(this.#maxTimer);
    this.#quietTimer = this.#maxTimer = undefined;
  }

  #flush(): void {
    this.#clearTimers();
    if (this.#closed || this.#running || this.#pending.size === 0) return;
    const changed = [...this.#pending];
    this.#pending.clear();
    this.#running = this.#opts
      .run(changed)
      .catch((error: unknown) => this.#opts.onError(error))
      .finally(() => {
        this.#running = undefined;
        // Changes that arrived during the run: a burst of their own, debounced from now.
        if (this.#pending.size > 0 && !this.#closed) this.#schedule();
      });
  }
}
