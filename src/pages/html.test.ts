import { describe, expect, it, vi } from 'vitest';
import { count, escapeHtml, formatDate, formatMonth, html, parseDate, SafeHtml } from './html.js';

describe('html template', () => {
  it('escapes interpolated text in content and attributes', () => {
    const evil = `"><script>alert('x')</script>&`;
    const out = html`<a title="${evil}">${evil}</a>`.value;
    expect(out).toBe(
      '<a title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</a>',
    );
  });

  it('inserts safe HTML as is, joins lists and drops null, undefined and false', () => {
    const inner = html`<em>${'a<b'}</em>`;
    expect(html`<p>${inner}${[html`<i>1</i>`, '&']}${null}${undefined}${false}${0}</p>`.value).toBe('<p><em>a&lt;b</em><i>1</i>&amp;0</p>');
    expect(inner).toBeInstanceOf(SafeHtml);
    expect(escapeHtml('plain')).toBe('plain');
  });

  it('counts with singular and plural', () => {
    expect(count(1, 'lesson')).toBe('1 lesson');
    expect(count(0, 'lesson')).toBe('0 lessons');
    expect(count(2, 'class', 'classes')).toBe('2 classes');
  });

  it('formats calendar dates in UTC and rejects impossible ones', () => {
    expect(formatDate('2026-03-01')).toBe('1 March 2026');
    expect(formatMonth('2025-12-31')).toBe('December 2025');
    expect(parseDate('2024-02-29').toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(() => parseDate('2026-02-30')).toThrow(RangeError);
    expect(() => parseDate('26-1-1')).toThrow(/calendar date/);
  });

  it('makes no date format until a date is formatted, then keeps the ones it made', async () => {
    vi.resetModules();
    const Original = Intl.DateTimeFormat;
    // A function, not an arrow: the module calls it with `new`, and the object it returns is what `new` gives.
    const made = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (...args: ConstructorParameters<typeof Original>) {
      return new Original(...args);
    });
    try {
      const fresh = await import('./html.js');
      expect(made).not.toHaveBeenCalled();
      expect(fresh.formatDate('2026-11-27')).toBe('27 November 2026');
      expect(fresh.formatMonth('2026-11-27')).toBe('November 2026');
      const count = made.mock.calls.length;
      expect(count).toBeGreaterThan(0);
      expect(fresh.formatDate('2025-01-05')).toBe('5 January 2025');
      expect(made.mock.calls.length).toBe(count);
    } finally {
      made.mockRestore();
    }
  });
});
