import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeFrame, readProblemSource } from './code-frame.js';

const SOURCE = '---\ntitle: Python\ncolor: #3776ab\nstatus: live\n---\nOne paragraph.\n';
const ESCAPE = /\u001b\[/;

describe('codeFrame', () => {
  it('shows the line with a caret under the column and a line of context either side', () => {
    expect(codeFrame(SOURCE, 3, 8, { color: false })).toBe(
      ['  2 | title: Python', '> 3 | color: #3776ab', '    |        ^', '  4 | status: live'].join('\n'),
    );
  });

  it('colours only when asked, with the same text once the escapes are removed', () => {
    const plain = codeFrame(SOURCE, 3, 8, { color: false });
    const colored = codeFrame(SOURCE, 3, 8, { color: true });
    expect(plain).not.toMatch(ESCAPE);
    expect(colored).toMatch(ESCAPE);
    expect(colored.replace(/\u001b\[\d+m/g, '')).toBe(plain);
  });

  it('keeps the caret under its column past tabs and control characters, which never reach the terminal raw', () => {
    const frame = codeFrame('a\tb\u0007\u202ec\r\nnext', 1, 6, { color: false });
    expect(frame.split('\n').slice(0, 2)).toEqual(['> 1 | a\tb\u2407\ufffdc', '    |  \t   ^']);
    expect(frame).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
  });

  it('numbers lines far into a file and frames the first and last lines', () => {
    const long = Array.from({ length: 1200 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(codeFrame(long, 1000, 6, { color: false })).toBe(
      ['   999 | line 999', '> 1000 | line 1000', '       |      ^', '  1001 | line 1001'].join('\n'),
    );
    expect(codeFrame(long, 1, 1, { color: false }).split('\n')[0]).toBe('> 1 | line 1');
    expect(codeFrame(long, 1200, 1, { color: false }).split('\n').at(-1)).toBe('       | ^');
  });

  it('cuts a long line after the caret', () => {
    const line = codeFrame(`key: ${'x'.repeat(10_000)}`, 1, 3, { color: false }).split('\n')[0]!;
    expect(line.length).toBeLessThan(100);
    expect(line.endsWith('…')).toBe(true);
  });

  it('gives nothing for a line the source does not have', () => {
    expect(codeFrame(SOURCE, 0, 1, { color: false })).toBe('');
    expect(codeFrame(SOURCE, 99, 1, { color: false })).toBe('');
  });
});

describe('readProblemSource', () => {
  const dir = mkdtempSync(join(tmpdir(), 'code-frame-'));
  mkdirSync(join(dir, 'content/courses'), { recursive: true });
  writeFileSync(join(dir, 'content/catalog.md'), SOURCE);
  writeFileSync(join(dir, 'secret.md'), 'outside');
  symlinkSync(join(dir, 'secret.md'), join(dir, 'content/courses/link.md'));
  const folder = { dir: join(dir, 'content'), displayRoot: 'shown/content' };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the file a problem names, through the display root', () => {
    expect(readProblemSource({ path: 'shown/content/catalog.md' }, folder)).toBe(SOURCE);
    expect(readProblemSource({ path: join(dir, 'content/catalog.md') }, { dir: join(dir, 'content') })).toBe(SOURCE);
  });

  it('reads nothing outside the folder, through a link, or that is not a file', () => {
    expect(readProblemSource({ path: 'shown/secret.md' }, folder)).toBeUndefined();
    expect(readProblemSource({ path: 'shown/content/../secret.md' }, folder)).toBeUndefined();
    expect(readProblemSource({ path: 'shown/content/courses/link.md' }, folder)).toBeUndefined();
    expect(readProblemSource({ path: 'shown/content/courses' }, folder)).toBeUndefined();
    expect(readProblemSource({ path: 'shown/content/missing.md' }, folder)).toBeUndefined();
    expect(readProblemSource({ path: 'shown/content' }, folder)).toBeUndefined();
  });
});
