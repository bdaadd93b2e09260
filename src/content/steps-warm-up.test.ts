import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { countSteps, countStepsOnTree } from './steps.js';
import { WARM_UP_DOCUMENTS } from './steps-warm-up.js';

/** The line scanner and every function it calls per line: what the warm-up must give feedback for. */
const SCANNER = [
  'scanSteps',
  'isRisky',
  'nextParagraph',
  'beginsParagraphText',
  'isParagraphTextStart',
  'isBlank',
  'closesFence',
  'afterClosingFence',
  'htmlStart',
  'endsHtml',
  'fenceOpening',
  'withoutCr',
  'startsAfresh',
];

describe('warmUpStepCounter', () => {
  it('runs every block of the line scanner and of what it calls per line', async () => {
    const helper = fileURLToPath(new URL('../../test/helpers/blocks-never-run.ts', import.meta.url));
    const [warmUp, steps] = ['./steps-warm-up.ts', './steps.ts'].map((path) => fileURLToPath(new URL(path, import.meta.url)));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', helper, warmUp!, 'warmUpStepCounter', steps!, ...SCANNER]);
    const neverRun = JSON.parse(stdout) as Record<string, string[]>;
    expect(Object.keys(neverRun).sort()).toEqual([...SCANNER].sort());
    for (const name of SCANNER) expect(neverRun[name], name).toEqual([]);
  }, 30_000);

  it('warms up on documents the counter answers as remark does', () => {
    for (const markdown of WARM_UP_DOCUMENTS) expect(countSteps(markdown), JSON.stringify(markdown)).toBe(countStepsOnTree(markdown));
  });
});
