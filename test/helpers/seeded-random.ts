/**
 * A seeded pseudo-random sequence for tests that generate their inputs: the same inputs on every run, so a failure
 * names one that fails again. A linear congruential generator (the constants of glibc's `rand`); fit for picking
 * test inputs, nothing else.
 */
export interface SeededRandom {
  /** The next number of the sequence, from 0 to 1. */
  random: () => number;
  /** An item of `items`, chosen by the next number. */
  pick: <T>(items: readonly T[]) => T;
}

/** The sequence that starts from `seed` (a non-negative integer). */
export function seededRandom(seed: number): SeededRandom {
  let state = seed;
  const random = (): number => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  return { random, pick: (items) => items[Math.floor(random() * items.length)]! };
}
