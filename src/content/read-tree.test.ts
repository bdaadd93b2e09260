import { describe, expect, it } from 'vitest';
import { isHiddenPath } from './read-tree.js';

describe('isHiddenPath', () => {
  it('is true when any part of the path starts with a dot, wherever the part is', () => {
    for (const rel of ['.git', '.git/HEAD', 'courses/.draft.md', 'courses/x/.DS_Store', 'a/.b/c.md', '..', 'a/..b', 'a//.b']) {
      expect(isHiddenPath(rel), rel).toBe(true);
    }
    for (const rel of ['', 'catalog.md', 'courses/python/lesson.md', 'a.b/c.md', 'a/b.', 'a/b./c', 'x/y/z.md']) {
      expect(isHiddenPath(rel), rel).toBe(false);
    }
  });

  it('agrees with splitting the path into parts, on paths made of dots, slashes and letters', () => {
    const alphabet = ['a', '.', '/'];
    for (let length = 0; length <= 6; length++) {
      for (let n = 0; n < 3 ** length; n++) {
        let rel = '';
        for (let k = 0, m = n; k < length; k++, m = Math.floor(m / 3)) rel += alphabet[m % 3];
        expect(isHiddenPath(rel), rel).toBe(rel.split('/').some((part) => part.startsWith('.')));
      }
    }
  });
});
