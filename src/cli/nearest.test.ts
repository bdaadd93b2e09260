import { describe, expect, it } from 'vitest';
import { didYouMean, nearest } from './nearest.js';

const courses = ['python-foundations', 'python-data', 'sql-joins', 'javascript-basics'];

describe('did you mean', () => {
  it('finds a missing, extra, wrong or swapped letter', () => {
    expect(nearest('python-foundation', courses)).toEqual(['python-foundations']);
    expect(nearest('python-foundationss', courses)).toEqual(['python-foundations']);
    expect(nearest('sql-jions', courses)).toEqual(['sql-joins']);
    expect(nearest('PYTHON-DATA', courses)).toEqual([]);
    expect(nearest('Python-Dat', courses)).toEqual(['python-data']);
  });

  it('offers nothing far off, and never the word itself', () => {
    expect(nearest('rust', courses)).toEqual([]);
    expect(nearest('sql-joins', courses)).toEqual([]);
    expect(didYouMean('rust', courses)).toBe('');
  });

  it('lists at most three, nearest first', () => {
    expect(didYouMean('python-foundation', courses)).toBe('did you mean python-foundations?');
    expect(didYouMean('ab', ['ac', 'ad', 'ae', 'abc', 'zz'])).toBe('did you mean abc, ac or ad?');
  });
});
