/**
 * Terminal output: aligned tables, colour only on a TTY and never with `NO_COLOR` (https://no-color.org),
 * JSON documents on stdout, diagnostics on stderr.
 */
import pc from 'picocolors';
import type { CliEnv } from './environment.js';

/** The colour functions the client uses; identity functions when colour is off. */
export type Style = Pick<ReturnType<typeof pc.createColors>, 'bold' | 'dim' | 'green' | 'red' | 'yellow' | 'cyan'>;

/** A writable text stream (process.stdout / process.stderr or a test double). */
export interface TextSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** True when colour may be used on `stream`: it is a TTY and `NO_COLOR` is unset or empty. */
export function colourEnabled(stream: TextSink, env: CliEnv): boolean {
  const noColor = env.NO_COLOR;
  if (noColor !== undefined && noColor !== '') return false;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** Colour functions for `stream`. */
export function styleFor(stream: TextSink, env: CliEnv): Style {
  return pc.createColors(colourEnabled(stream, env));
}

/** A table column: its heading, alignment, and an optional colour applied after padding. */
export interface Column<Row> {
  heading: string;
  value: (row: Row) => string;
  align?: 'left' | 'right';
  colour?: (text: string, row: Row) => string;
}

/** Strips C0/C1 control characters so server-provided text cannot move the cursor or recolour the terminal. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

/**
 * Renders rows as an aligned table with a bold heading line; widths count characters of the plain text,
 * so colour codes never break the alignment.
 */
export function renderTable<Row>(rows: readonly Row[], columns: readonly Column<Row>[], style: Style): string {
  const cells = rows.map((row) => columns.map((column) => printable(column.value(row))));
  const widths = columns.map((column, i) => Math.max(column.heading.length, ...cells.map((r) => [...r[i]!].length)));
  const pad = (text: string, i: number): string => {
    const fill = ' '.repeat(widths[i]! - [...text].length);
    return columns[i]!.align === 'right' ? fill + text : text + fill;
  };
  const lines = [
    columns
      .map((column, i) => style.bold(pad(column.heading, i)))
      .join('  ')
      .trimEnd(),
  ];
  rows.forEach((row, r) => {
    const line = columns
      .map((column, i) => {
        const padded = pad(cells[r]![i]!, i);
        return column.colour ? column.colour(padded, row) : padded;
      })
      .join('  ');
    lines.push(line.trimEnd());
  });
  return `${lines.join('\n')}\n`;
}

/** Writes one JSON document (pretty-printed, newline-terminated). */
export function writeJson(sink: TextSink, value: unknown): void {
  sink.write(`${JSON.stringify(value, null, 2)}\n`);
}
