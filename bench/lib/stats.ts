/** Small statistics helpers for the benchmark report. */

/** The median of the values (mean of the middle two for an even count). @throws RangeError when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Rounds to `digits` decimals. */
export function round(value: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Bytes → mebibytes, one decimal. */
export function mib(bytes: number): number {
  return round(bytes / 1048576, 1);
}

/** A number with thousands separators, as the report writes every count and duration (`12,345.6`). */
export function thousands(value: number): string {
  return value.toLocaleString('en-US');
}
