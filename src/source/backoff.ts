/**
 * The retry delay every reconnecting part uses (the content watcher, the Git follower, the Redis client).
 */

/**
 * Exponential back-off: `base · 2^failures`, capped at `max`, in the unit of `base` and `max` (seconds or
 * milliseconds, as the caller counts).
 * @param failures failures so far before this wait (0 for the first retry); exponents above 30 count as 30.
 * @param base the first delay.
 * @param max the longest delay.
 */
export function backoffDelay(failures: number, base: number, max: number): number {
  return Math.min(base * 2 ** Math.min(Math.max(failures, 0), 30), max);
}
