/**
 * Course colours used accessibly: WCAG 2.2 relative luminance and contrast ratio (§1.4.3, 1.4.11), and the
 * derived colours a page needs so text drawn in or on a course colour stays readable in light and dark schemes.
 */

/** An sRGB colour with 0–255 channels. */
interface Rgb {
  r: number;
  g: number;
  b: number;
}

/**
 * Parses `#rrggbb` (case-insensitive).
 * @throws {TypeError} when the value is not a six-digit hex colour.
 */
export function parseHex(hex: string): Rgb {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new TypeError(`not a #rrggbb colour: ${JSON.stringify(hex)}`);
  return { r: parseInt(m[1]!, 16), g: parseInt(m[2]!, 16), b: parseInt(m[3]!, 16) };
}

function toHex({ r, g, b }: Rgb): string {
  return '#' + [r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('');
}

/** WCAG relative luminance, 0 (black) to 1 (white). */
export function luminance(hex: string): number {
  return relativeLuminance(parseHex(hex));
}

function relativeLuminance({ r, g, b }: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of two colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  return contrastOf(luminance(a), luminance(b));
}

/** The contrast ratio of two relative luminances. */
function contrastOf(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** Mixes `amount` (0–1) of `other` into `base`, channel by channel in sRGB. */
export function mix(base: string, other: string, amount: number): string {
  return toHex(mixRgb(parseHex(base), parseHex(other), amount));
}

/** {@link mix} on parsed colours, each channel rounded as `#rrggbb` writes it. */
function mixRgb(a: Rgb, b: Rgb, amount: number): Rgb {
  const channel = (x: number, y: number) => Math.round(x + (y - x) * amount);
  return { r: channel(a.r, b.r), g: channel(a.g, b.g), b: channel(a.b, b.b) };
}

/**
 * The colour closest to `color` (mixed toward black or white, whichever the backgrounds need) whose contrast
 * with every one of `backgrounds` is at least `minRatio`. Used for course-coloured text and links.
 */
export function readableOn(color: string, backgrounds: readonly string[], minRatio = 4.5): string {
  // On parsed colours: a catalog's stylesheet tries up to a hundred mixes per course and scheme.
  const backgroundLuminances = backgrounds.map(luminance);
  const toward = backgroundLuminances.every((l) => l > 0.18) ? '#000000' : '#ffffff';
  const [base, target] = [parseHex(color), parseHex(toward)];
  for (let step = 0; step <= 100; step++) {
    const candidate = mixRgb(base, target, step / 100);
    const l = relativeLuminance(candidate);
    if (backgroundLuminances.every((bg) => contrastOf(l, bg) >= minRatio)) return toHex(candidate);
  }
  return toward;
}

/** Black-ish or white text for a solid `background`, whichever contrasts more (always ≥ 4.5:1). */
export function textOn(background: string): string {
  const dark = '#111111';
  const light = '#ffffff';
  const best = contrast(dark, background) >= contrast(light, background) ? dark : light;
  // Near-black softens the glare, but on mid-tone colours only pure black reaches 4.5:1.
  return contrast(best, background) >= 4.5 ? best : '#000000';
}
