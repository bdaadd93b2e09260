import { describe, expect, it } from 'vitest';
import { didYouMean } from './did-you-mean.js';

const courses = ['python-foundations', 'python-data', 'sql-joins', 'javascript-basics'];

describe('did you mean', () => {
  it('names one suggestion, or up to three joined, or nothing', () => {
    expect(didYouMean('python-foundation', courses)).toBe('did you mean python-foundations?');
    expect(didYouMean('ab', ['ac', 'ad', 'ae', 'abc', 'zz'])).toBe('did you mean abc, ac or ad?');
    expect(didYouMean('rust', courses)).toBe('');
  });
});
