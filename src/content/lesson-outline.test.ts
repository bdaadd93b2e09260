import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessonOutline } from './lesson-outline.js';
import { parseFile } from './parse-file.js';

const CONTENT = join(import.meta.dirname, '..', '..', 'content');
const lesson = (...body: string[]): string => ['---', 'title: T', 'lang: python', '---', ...body].join('\n');

describe('lessonOutline', () => {
  it('numbers the steps the loader counts, for every lesson of the bundled content', async () => {
    let lessons = 0;
    for (const entry of await readdir(join(CONTENT, 'courses'), { recursive: true })) {
      if (!entry.endsWith('.md') || entry.endsWith('index.md')) continue;
      const rel = `courses/${entry.split('\\').join('/')}`;
      const text = await readFile(join(CONTENT, rel), 'utf8');
      const parsed = parseFile(rel, text);
      expect(parsed.kind, rel).toBe('lesson');
      expect(lessonOutline(text).steps.length, rel).toBe(parsed.kind === 'lesson' ? parsed.steps : -1);
      lessons++;
    }
    expect(lessons).toBeGreaterThan(10);
  });

  it('gives the body and its step headings with their file lines', () => {
    const outline = lessonOutline(lesson('Intro.', '', '## One', '', '> ## Two, in a quote', '', 'Three', '---', '', '### Not a step'));
    expect(outline.bodyLine).toBe(5);
    expect(
      outline.steps.map((h) => [h.children.map((c) => ('value' in c ? c.value : '')).join(''), outline.bodyLine + h.position!.start.line - 1]),
    ).toEqual([
      ['One', 7],
      ['Two, in a quote', 9],
      ['Three', 11],
    ]);
    expect(outline.unclosedFences).toEqual([]);
  });

  it('finds a fence never closed: its line, its fence and what it swallows; the steps after it are not steps', () => {
    const text = lesson('## One', '', '```python', 'print(1)', '', '## Two', '', 'text');
    const outline = lessonOutline(text);
    expect(outline.steps).toHaveLength(parseFile('courses/c/k/l.md', text).kind === 'lesson' ? 1 : -1);
    expect(outline.unclosedFences.map(({ line, fence, runsToEndOf }) => ({ line, fence, runsToEndOf }))).toEqual([
      { line: 7, fence: '```', runsToEndOf: 'lesson' },
    ]);
  });

  it('tells closed fences, indented code and unclosed fences in containers apart', () => {
    const cases: Array<[string[], string[]]> = [
      [['```', 'a', '```'], []],
      [['````', '```', 'still code', '`````'], []],
      [['~~~', 'a', '```'], ['~~~ lesson']],
      [['````', 'a', '```'], ['```` lesson']],
      [['```'], ['``` lesson']],
      [['```', '```'], []],
      [['    ```', '    indented code, not a fence'], []],
      [['- item', '', '  ```', '  code', '', '- next item'], ['``` list item']],
      [['- item', '', '  ```', '  code', '  ```'], []],
      [['> ```', '> code'], ['``` block quote']],
      [['> ```', '> code', '> ```'], []],
    ];
    for (const [body, expected] of cases) {
      const found = lessonOutline(lesson('## Step', '', ...body)).unclosedFences.map((f) => `${f.fence} ${f.runsToEndOf}`);
      expect(found, body.join('\n')).toEqual(expected);
    }
  });
});
