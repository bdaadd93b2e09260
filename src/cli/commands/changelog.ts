/** `syllabus changelog [--limit N] [--since YYYY-MM-DD] [--json]`: the latest changelog entries, newest first. */
import { getApiJson, hasArray } from '../api.js';
import type { CliContext } from '../context.js';
import { EXIT, UsageError } from '../errors.js';
import { renderTable, writeJson, type Column } from '../output.js';
import type { Changelog, ChangelogEntry } from '../../schemas/types.generated.js';

/** How many entries are shown when neither `--limit` nor `--since` is given. */
export const DEFAULT_LIMIT = 10;

/** A `--since` the help shows as an example (a test checks that the bundled changelog has entries since it). */
export const EXAMPLE_SINCE = '2026-06-01';

/** Options as commander hands them over (strings, unchecked). */
export interface ChangelogOptions {
  limit?: string;
  since?: string;
  json?: boolean;
}

function isChangelog(value: unknown): value is Changelog {
  return hasArray(value, 'entries');
}

/**
 * A calendar date `YYYY-MM-DD` (RFC 3339 full-date, the API's `Date`) that exists.
 * @throws UsageError otherwise.
 */
export function parseSince(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
  if (!date || date.toISOString().slice(0, 10) !== value) {
    throw new UsageError(`--since must be a date as YYYY-MM-DD (e.g. ${EXAMPLE_SINCE}), got ${JSON.stringify(value)}.`);
  }
  return value;
}

/**
 * A positive whole number of entries.
 * @throws UsageError otherwise.
 */
export function parseLimit(value: string): number {
  if (!/^[1-9]\d{0,5}$/.test(value)) throw new UsageError(`--limit must be a whole number from 1 to 999999, got ${JSON.stringify(value)}.`);
  return Number(value);
}

/**
 * The entries to show: those dated on or after `since` (dates compare as text: both are `YYYY-MM-DD`), at most
 * `limit` of them, newest first as the API orders them. Without a limit, 10 — or every entry since `since`.
 */
export function selectEntries(changelog: Changelog, since: string | undefined, limit: number | undefined): Changelog {
  const recent = since === undefined ? changelog.entries : changelog.entries.filter((e) => e.date >= since);
  const max = limit ?? (since === undefined ? DEFAULT_LIMIT : recent.length);
  return { entries: recent.slice(0, max) };
}

function printEntries(ctx: CliContext, changelog: Changelog, since: string | undefined): void {
  const { style } = ctx;
  if (changelog.entries.length === 0) {
    ctx.stdout.write(since === undefined ? 'The changelog is empty.\n' : `No changelog entry since ${since}.\n`);
    return;
  }
  const columns: Column<ChangelogEntry>[] = [
    { heading: 'DATE', value: (e) => e.date },
    { heading: 'KIND', value: (e) => e.kind, colour: (t) => style.dim(t) },
    { heading: 'ID', value: (e) => e.id, colour: (t) => style.cyan(t) },
    { heading: 'TITLE', value: (e) => (e.deprecates.length > 0 ? `${e.title} (deprecates ${e.deprecates.length})` : e.title) },
  ];
  ctx.stdout.write(renderTable(changelog.entries, columns, style));
}

/**
 * Runs the command.
 * @returns 0; throws UsageError (exit 2) for a malformed `--limit` or `--since`, CliError (exit 1) when the
 *   service fails. `--json` prints the API's body with only the selected entries (schemas/cli/changelog.schema.json).
 */
export async function changelogCommand(ctx: CliContext, options: ChangelogOptions): Promise<number> {
  const since = options.since === undefined ? undefined : parseSince(options.since);
  const limit = options.limit === undefined ? undefined : parseLimit(options.limit);
  const changelog = selectEntries(await getApiJson(ctx, '/v1/changelog', 'changelog', isChangelog), since, limit);
  if (options.json) writeJson(ctx.stdout, changelog);
  else printEntries(ctx, changelog, since);
  return EXIT.ok;
}
