/**
 * The options of `syllabus-content dev`, apart from the preview itself so that the content CLI can declare the
 * command without loading the server (the command's module is imported when it runs).
 */
import { InvalidArgumentError } from 'commander';
import { dayNumber, utcMidnight } from '../content/index.js';

/** Where the preview listens unless told otherwise: this machine only. */
export const PREVIEW_DEFAULTS = { port: 4321, host: '127.0.0.1' } as const;

/**
 * A `--port` value: an integer from 0 (any free port) to 65535.
 * @throws InvalidArgumentError naming what is allowed (commander prints it and the command exits 2).
 */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d{1,5}$/.test(value) || port > 65535) throw new InvalidArgumentError('a port is an integer from 0 to 65535');
  return port;
}

/** An instant as `--at` takes it: a UTC date, or a date and time with its offset (RFC 3339). */
const INSTANT = /^(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/i;

/**
 * An `--at` value: `YYYY-MM-DD` (00:00 UTC of that date, when entries dated then are published) or an RFC 3339 date
 * and time with its offset, e.g. `2026-12-01T09:00:00Z`.
 * @throws InvalidArgumentError naming the accepted forms (commander prints it and the command exits 2).
 */
export function parseInstant(value: string): Date {
  const day = INSTANT.exec(value)?.[1];
  // A date that does not exist (2026-02-30) is refused, not rolled over to the next month: the content's own rule.
  const real = day !== undefined && dayNumber(day) !== undefined;
  const at = !real ? undefined : value.length === day.length ? utcMidnight(day) : new Date(value.toUpperCase());
  if (at === undefined || Number.isNaN(at.getTime()))
    throw new InvalidArgumentError('an instant is a date, 2026-12-01 (00:00 UTC), or a date and time with its offset, 2026-12-01T09:00:00Z');
  return at;
}
