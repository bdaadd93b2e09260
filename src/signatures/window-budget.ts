/**
 * A fixed-window allowance per key (a client address bucket, or one shared key): at most `limit` takes per
 * window, forgotten when the window ends. Bounded: past `maxKeys` keys the least recently used is forgotten,
 * which can only give that key a fresh allowance. Portable: no Node-only modules.
 */
import { LRUCache } from 'lru-cache';

/** Options of {@link WindowBudget}. Times in seconds. */
export interface WindowBudgetOptions {
  /** Takes allowed per key per window. */
  limit: number;
  /** Length of a window, seconds. */
  windowSeconds: number;
  /** Most keys tracked. Default 10 000. */
  maxKeys?: number;
  /** Current time in seconds since the epoch. Default `Date.now() / 1000`. */
  now?: () => number;
}

/** Counts takes per key in fixed windows. */
export class WindowBudget {
  readonly #limit: number;
  readonly #window: number;
  readonly #now: () => number;
  readonly #windows: LRUCache<string, { start: number; count: number }>;

  constructor(options: WindowBudgetOptions) {
    this.#limit = options.limit;
    this.#window = options.windowSeconds;
    this.#now = options.now ?? (() => Date.now() / 1000);
    this.#windows = new LRUCache({ max: options.maxKeys ?? 10_000 });
  }

  /** Whether `key`'s allowance for the current window is spent. */
  spent(key: string): boolean {
    const window = this.#windows.peek(key);
    return window !== undefined && this.#now() - window.start < this.#window && window.count >= this.#limit;
  }

  /** Counts one use against `key`'s allowance (in a new window when the last one has ended). */
  take(key: string): void {
    const now = this.#now();
    let window = this.#windows.get(key);
    if (window === undefined || now - window.start >= this.#window) {
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    window.count++;
  }
}
