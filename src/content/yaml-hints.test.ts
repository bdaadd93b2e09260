import { describe, expect, it } from 'vitest';
import { splitFile } from './frontmatter.js';
import { didYouMean } from './schema-messages.js';
import { withSchemaHint } from './yaml-hints.js';

/** The syntax problems of a frontmatter block made of `lines`, as `line:column: message`. */
function syntaxProblems(...lines: string[]): string[] {
  return splitFile(`---\n${lines.join('\n')}\n---\n`).problems.map((p) => `${p.line}:${p.column}: ${p.message}`);
}

describe('syntax hints', () => {
  it('quotes a value holding ": " with the quotes it does not contain', () => {
    expect(syntaxProblems('title: Python: the basics')).toEqual([
      '2:8: invalid YAML: Nested mappings are not allowed in compact mappings; hint: quote the value: title: "Python: the basics"',
    ]);
    expect(syntaxProblems('title: Say "hi": now')[0]).toMatch(/; hint: quote the value: title: 'Say "hi": now'$/);
    expect(syntaxProblems(`title: It's "x": y`)[0]).toMatch(/; hint: quote the value: title: "It's \\"x\\": y"$/);
  });

  it('closes an unclosed quote, knowing escaped quotes from closing ones', () => {
    expect(syntaxProblems('title: "a \\" b', 'status: live')).toEqual([
      '2:8: invalid YAML: Missing closing "quote; hint: close the quote: title: "a \\" b"',
    ]);
    expect(syntaxProblems("title: 'it''s", 'status: live')).toEqual([
      `2:8: invalid YAML: Missing closing 'quote; hint: close the quote: title: 'it''s'`,
    ]);
  });

  it('points at the tab with one problem, not the raw complaints that follow from it', () => {
    const tab = 'invalid YAML: Tabs are not allowed as indentation; hint: indent with spaces instead of the tab';
    expect(syntaxProblems('classes:', '  - a', '\t- b')).toEqual([`4:1: ${tab}`]);
    expect(syntaxProblems('title: x', 'lessons: [a,', '\tb]')).toEqual([`4:1: ${tab}`]);
  });

  it('gives no hint to a syntax error that is no trap', () => {
    const problems = syntaxProblems('title: a', 'title: b', 'list: [a, b');
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) expect(p).not.toContain('hint:');
  });
});

describe('schema hints', () => {
  const yaml = '\ncolor: #3776ab\ntags:\n  - a: b\nnote: # a comment\nstages:\n  - key: shipped\n';
  it('explains nothing by a # and a mapping by ": ", on a wrong type only', () => {
    expect(withSchemaHint(yaml, { line: 2, column: 1 }, { keyword: 'type', message: 'm' }, null)).toBe(
      'm; hint: quote it: color: "#3776ab" (# starts a YAML comment)',
    );
    expect(withSchemaHint(yaml, { line: 4, column: 5 }, { keyword: 'type', message: 'm' }, { a: 'b' })).toBe('m; hint: quote the value: - "a: b"');
    expect(withSchemaHint(yaml, { line: 7, column: 5 }, { keyword: 'required', message: 'm' }, { key: 'shipped' })).toBe('m');
    expect(withSchemaHint(yaml, { line: 2, column: 1 }, { keyword: 'pattern', message: 'm' }, null)).toBe('m');
    expect(withSchemaHint(yaml, { line: 3, column: 1 }, { keyword: 'type', message: 'm' }, null)).toBe('m');
  });
});

describe('didYouMean', () => {
  it('takes the first group with a close name', () => {
    expect(didYouMean('helo', ['hello', 'help'])).toBe(' (did you mean "hello"?)');
    expect(didYouMean('helo', ['zzz'], ['help'])).toBe(' (did you mean "help"?)');
    expect(didYouMean('helo', ['hero'], ['hello'])).toBe(' (did you mean "hero"?)');
    expect(didYouMean('recursion', ['loops', 'functions'])).toBe('');
    expect(didYouMean('x', [])).toBe('');
  });
});
