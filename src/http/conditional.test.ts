import { describe, expect, it } from 'vitest';
import { ifNoneMatchMatches } from './conditional.js';

const TAG = '"abc-123_x"';

describe('ifNoneMatchMatches (RFC 9110 §13.1.2, weak comparison)', () => {
  it.each([
    [TAG, true],
    [`W/${TAG}`, true],
    ['"other", "abc-123_x"', true],
    ['"other",W/"abc-123_x" ', true],
    ['  *  ', true],
    ['"other"', false],
    ['"abc-123_"', false],
    ['"abc-123_x', false],
    ['abc-123_x', false],
    ['*, "x"', false],
    ['', false],
    ['"a" garbage, "abc-123_x"', false],
  ])('%s → %s', (field, expected) => {
    expect(ifNoneMatchMatches(field, TAG)).toBe(expected);
  });

  it('is false when absent', () => {
    expect(ifNoneMatchMatches(null, TAG)).toBe(false);
  });
});
