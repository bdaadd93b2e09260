import { describe, expect, it } from 'vitest';
import { colourEnabled, printable, renderTable, styleFor } from './output.js';

describe('colour', () => {
  it('is on only for a TTY, and never with NO_COLOR or TERM=dumb', () => {
    expect(colourEnabled({ write: () => true, isTTY: true }, {})).toBe(true);
    expect(colourEnabled({ write: () => true, isTTY: false }, {})).toBe(false);
    expect(colourEnabled({ write: () => true, isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled({ write: () => true, isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(colourEnabled({ write: () => true, isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });
});

describe('tables', () => {
  it('aligns columns by their plain text even when cells are coloured', () => {
    const style = styleFor({ write: () => true, isTTY: true }, {});
    const rows = [
      { a: 'x', n: 5 },
      { a: 'longer', n: 120 },
    ];
    const text = renderTable(
      rows,
      [
        { heading: 'NAME', value: (r) => r.a, colour: (t) => style.green(t) },
        { heading: 'N', value: (r) => String(r.n), align: 'right' },
      ],
      style,
    );
    const plain = text.replace(/\u001b\[[0-9;]*m/g, '');
    expect(plain).toBe('NAME      N\nx         5\nlonger  120\n');
  });

  it('strips control characters from server text', () => {
    expect(printable('ok\u001b[31mred\u0007\n')).toBe('ok [31mred  ');
  });
});
