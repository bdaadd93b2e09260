import { describe, expect, it } from 'vitest';
import { ThrottledWarning, WARNING_INTERVAL_MS } from './throttled-warning.js';

describe('ThrottledWarning', () => {
  const setUp = () => {
    const lines: Array<{ obj: object; msg?: string }> = [];
    const logger = { info: () => {}, error: () => {}, warn: (obj: object, msg?: string) => void lines.push({ obj, msg }) };
    let ms = 1_000_000;
    const clock = { advance: (by: number) => void (ms += by) };
    return { lines, clock, warning: new ThrottledWarning(logger, 'delivery rejected', () => ms) };
  };

  it('writes the first occurrence at once, then at most one line per interval with the count left unwritten', () => {
    const { lines, clock, warning } = setUp();
    warning.warn({ n: 1 });
    expect(lines).toEqual([{ obj: { n: 1, suppressed: 0 }, msg: 'delivery rejected' }]);
    for (let n = 2; n <= 100; n++) {
      clock.advance(WARNING_INTERVAL_MS / 100);
      warning.warn({ n });
    }
    // 99 hundredths of the interval have passed: nothing more written.
    expect(lines).toHaveLength(1);
    clock.advance(WARNING_INTERVAL_MS / 100);
    warning.warn({ n: 101 });
    expect(lines[1]).toEqual({ obj: { n: 101, suppressed: 99 }, msg: 'delivery rejected' });
    warning.warn({ n: 102 });
    expect(lines).toHaveLength(2);
  });

  it('writes each occurrence when they are an interval apart or more, with nothing suppressed', () => {
    const { lines, clock, warning } = setUp();
    for (let n = 1; n <= 3; n++) {
      warning.warn({ n });
      clock.advance(WARNING_INTERVAL_MS * n);
    }
    expect(lines.map((l) => l.obj)).toEqual([
      { n: 1, suppressed: 0 },
      { n: 2, suppressed: 0 },
      { n: 3, suppressed: 0 },
    ]);
  });

  it('never lets the fields override the count', () => {
    const { lines, warning } = setUp();
    warning.warn({ suppressed: 'forged' });
    expect(lines[0]?.obj).toEqual({ suppressed: 0 });
  });
});
