import { describe, expect, it } from 'vitest';
import { closest, nearest } from './nearest.js';

const courses = ['python-foundations', 'python-data', 'sql-joins', 'javascript-basics'];

describe('the nearest names', () => {
  it('finds a missing, extra, wrong or swapped letter', () => {
    expect(nearest('python-foundation', courses)).toEqual(['python-foundations']);
    expect(nearest('python-foundationss', courses)).toEqual(['python-foundations']);
    expect(nearest('sql-jions', courses)).toEqual(['sql-joins']);
    expect(nearest('PYTHON-DATA', courses)).toEqual(['python-data']);
    expect(nearest('Python-Dat', courses)).toEqual(['python-data']);
  });

  it('offers nothing far off, and never the word itself', () => {
    expect(nearest('rust', courses)).toEqual([]);
    expect(nearest('sql-joins', courses)).toEqual([]);
    expect(closest('rust', courses)).toBeUndefined();
  });

  it('lists at most three, nearest first, then by name', () => {
    expect(nearest('ab', ['ac', 'ad', 'ae', 'abc', 'zz'])).toEqual(['abc', 'ac', 'ad']);
    expect(closest('titel', ['summary', 'title'])).toBe('title');
  });
});
