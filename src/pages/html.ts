/**
 * A tiny, escaping HTML template: every interpolated string is escaped unless it is already {@link SafeHtml}
 * (the output of another template or of the Markdown sanitiser). Keeps the page renderers free of injection.
 */

/** HTML that is safe to emit as is: built by {@link html} or produced by the sanitising Markdown pipeline. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** What a template may interpolate: text (escaped), numbers, safe HTML, lists of these, or nothing. */
export type Interpolation = string | number | SafeHtml | null | undefined | false | readonly Interpolation[];

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

const SPECIAL = /[&<>"']/;
const SPECIALS = /[&<>"']/g;

/** Escapes text for use in HTML content and in double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  // Most text (ids, titles) has nothing to escape: a test allocates nothing, a replace with a callback does.
  return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ESCAPES[c]!) : text;
}

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (typeof value === 'number') return String(value);
  return escapeHtml(value as string);
}

/** Tagged template producing {@link SafeHtml}; interpolated strings are escaped, arrays concatenated. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => (out += render(value) + strings[i + 1]!));
  return new SafeHtml(out);
}

/** Plural-aware count for display: `count(1, 'lesson')` → `1 lesson`, `count(3, 'class', 'classes')` → `3 classes`. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** The readers' date formats: a day (`1 March 2026`) and a month (`March 2026`). */
interface DateFormats {
  date: Intl.DateTimeFormat;
  month: Intl.DateTimeFormat;
}

/** Made by the first date formatted: see {@link dateFormats}. */
let formats: DateFormats | undefined;

/**
 * The readers' date formats. Made on first use, not when the module loads: a process's first `Intl.DateTimeFormat`
 * loads ICU's locale data, and every start loaded it although only a page renders a date.
 */
function dateFormats(): DateFormats {
  return (formats ??= {
    date: new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
    month: new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
  });
}

/**
 * A calendar date (`YYYY-MM-DD`) for readers, e.g. `1 March 2026`.
 * @throws {RangeError} when the value is not a real calendar date.
 */
export function formatDate(date: string): string {
  return dateFormats().date.format(parseDate(date));
}

/** The month of a calendar date for readers, e.g. `March 2026`. @throws {RangeError} on a malformed date. */
export function formatMonth(date: string): string {
  return dateFormats().month.format(parseDate(date));
}

/**
 * Midnight UTC of a calendar date `YYYY-MM-DD`.
 * @throws {RangeError} when the value is not a real calendar date.
 */
export function parseDate(date: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
  if (!d || d.toISOString().slice(0, 10) !== date) throw new RangeError(`not a calendar date (YYYY-MM-DD): ${JSON.stringify(date)}`);
  return d;
}
