/**
 * Polls a condition until it holds: for tests waiting on something another process or a watcher does.
 * The limit is a bound on a hang, not a timing assertion.
 */

/** Options of {@link eventually}. Times in milliseconds. */
export interface EventuallyOptions {
  /** What is awaited, for the error message. */
  what?: string;
  /** Give up after this long (default 15,000). */
  limitMs?: number;
  /** Poll this often (default 50). */
  everyMs?: number;
}

/**
 * Resolves once `check` returns true.
 * @throws Error `timed out waiting for <what>` when it has not within `limitMs`.
 */
export async function eventually(check: () => boolean | Promise<boolean>, options: EventuallyOptions = {}): Promise<void> {
  const { what = 'the condition', limitMs = 15_000, everyMs = 50 } = options;
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
