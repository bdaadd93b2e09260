import { describe, expect, it } from 'vitest';
import { unclosedFence } from './fences.js';
import { countSteps, scanSteps } from './steps.js';

const doc = (...lines: string[]): string => `${lines.join('\n')}\n`;

describe('unclosedFence', () => {
  it('finds a block that runs to the end, counting the "##" lines it hides', () => {
    const markdown = doc('## One', '', '```python', 'print(1)', '', '## Two', '', '## Three');
    expect(countSteps(markdown)).toBe(1);
    expect(unclosedFence(markdown)).toEqual({ line: 3, column: 1, fence: '```', hiddenSteps: 2 });
  });

  it('finds a block whose closing line is missing before the next block opens (the fences pair up wrongly)', () => {
    const markdown = doc('## One', '', '```python', 'a = 1', '', '## Two', '', '```python', 'b = 2', '```', '', '## Three');
    expect(countSteps(markdown)).toBe(2);
    expect(unclosedFence(markdown)).toEqual({ line: 3, column: 1, fence: '```', hiddenSteps: 1, reopened: { line: 8, text: '```python' } });
  });

  it('finds a tilde block and one in a list item', () => {
    expect(unclosedFence(doc('## One', '~~~~', 'x'))).toMatchObject({ line: 2, fence: '~~~~', hiddenSteps: 0 });
    expect(unclosedFence(doc('## One', '', '- item', '', '  ```sh', '  ls'))).toMatchObject({ line: 5, column: 3, fence: '```' });
  });

  it('leaves closed blocks alone: a "##" comment in code, fences shown inside a longer fence, inline code', () => {
    expect(unclosedFence(doc('## One', '```bash', '## a comment, not a step', '```'))).toBeUndefined();
    expect(unclosedFence(doc('## One', '````markdown', '```python', 'x', '```', '````'))).toBeUndefined();
    expect(unclosedFence(doc('## One', '``` not a fence ` here', 'text'))).toBeUndefined();
    expect(unclosedFence(doc('## One', '```', 'x', '```', '', '~~~', 'y', '~~~~~'))).toBeUndefined();
  });

  it("is settled by the step count's line scan when every fence is plain, reading only the suspect blocks", () => {
    const closed = doc('## One', '```python', '## a comment', '```', '', '   ```', '   indented, closed', '   ```', '## Two');
    expect(scanSteps(closed)).toEqual({ steps: 2, fences: { uncertain: false, suspects: [] } });
    const open = doc('## One', '', '```python', 'a = 1', '', '## Two', '', '```python', 'b = 2', '```', '', '## Three');
    const scan = scanSteps(open);
    expect(scan).toMatchObject({ steps: 2, fences: { uncertain: false, suspects: [[8, 52]] } });
    expect(unclosedFence(open, scan)).toEqual({ line: 3, column: 1, fence: '```', hiddenSteps: 1, reopened: { line: 8, text: '```python' } });
    // An indented fence left open depends on the containers: remark's tree decides.
    expect(scanSteps(doc('## One', '  ```sh', '  ls'))).toMatchObject({ fences: { uncertain: true } });
  });
});
