import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';

describe('backoffDelay', () => {
  it('doubles from the base up to the cap', () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelay(n, 1_000, 30_000))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000]);
  });

  it('stays finite however many failures', () => {
    expect(backoffDelay(10_000, 50, 5_000)).toBe(5_000);
    expect(backoffDelay(-1, 50, 5_000)).toBe(50);
  });
});
