import { describe, expect, it } from 'vitest';
import { contrast, luminance, mix, parseHex, readableOn, textOn } from './colors.js';
import { courseColorRules } from './styles.js';
import { DARK, LIGHT } from './theme.js';

/** A spread of course colours: saturated, pale, dark, mid-grey and the extremes. */
const SAMPLES = ['#3572a5', '#f1e05a', '#dea584', '#2b7489', '#89e051', '#e34c26', '#777777', '#000000', '#ffffff', '#7a4fd0'];

describe('colour maths (WCAG 2.2)', () => {
  it('matches known luminance and contrast values', () => {
    expect(luminance('#ffffff')).toBeCloseTo(1, 6);
    expect(luminance('#000000')).toBe(0);
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 6);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(mix('#000000', '#ffffff', 0.5)).toBe('#808080');
  });

  it('rejects colours that are not #rrggbb', () => {
    expect(() => parseHex('#fff')).toThrow(TypeError);
    expect(() => parseHex('red')).toThrow(/#rrggbb/);
  });

  it.each(SAMPLES)('makes %s readable as text on light and dark backgrounds, and picks text to draw on it', (color) => {
    const light = readableOn(color, [LIGHT.surface, LIGHT.bg]);
    const dark = readableOn(color, [DARK.surface, DARK.bg]);
    for (const bg of [LIGHT.surface, LIGHT.bg]) expect(contrast(light, bg)).toBeGreaterThanOrEqual(4.5);
    for (const bg of [DARK.surface, DARK.bg]) expect(contrast(dark, bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(textOn(color), color)).toBeGreaterThanOrEqual(4.5);
    const darkField = mix(color, DARK.bg, 0.45);
    expect(contrast(textOn(darkField), darkField)).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps a colour that is already readable unchanged', () => {
    expect(readableOn('#1f4fbf', [LIGHT.surface, LIGHT.bg])).toBe('#1f4fbf');
  });

  it('writes one rule per course, with a dark-scheme override, and nothing for an empty catalog', () => {
    const css = courseColorRules([
      { id: 'python-foundations', color: '#3572a5' },
      { id: 'the-shell', color: '#f1e05a' },
    ]);
    expect(css).toMatch(/^\.c-python-foundations\{--course:#3572a5;--course-ink:#[0-9a-f]{6};--course-field:#3572a5;--course-on:#[0-9a-f]{6}\}$/m);
    expect(css).toMatch(/^\.c-the-shell\{--course:#f1e05a;/m);
    expect(css).toContain('@media (prefers-color-scheme: dark)');
    expect(courseColorRules([])).toBe('');
  });
});
