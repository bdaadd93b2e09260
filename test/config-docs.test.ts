/**
 * The configuration table of docs/operations.md is the one rendered from src/server/config-schema.ts: every variable the
 * service reads, with its default and meaning, and nothing else. When they differ, the failure shows both tables
 * line by line; `npx tsx scripts/config-table.ts` prints the table to paste.
 */
import { readFileSync } from 'node:fs';
import { assert, describe, expect, it } from 'vitest';
import { configurationTable } from '../src/server/config-schema.js';

const HEADER = '| Variable | Default | Meaning |';

/** The documented configuration table (the lines from its header to the first line that is not a table row). */
function documentedTable(): { lines: string[]; firstLine: number } {
  const lines = readFileSync(new URL('../docs/operations.md', import.meta.url), 'utf8').split('\n');
  const start = lines.indexOf(HEADER);
  expect(start, `docs/operations.md has a configuration table (a line "${HEADER}")`).toBeGreaterThan(-1);
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return { lines: lines.slice(start, end === -1 ? undefined : end), firstLine: start + 1 };
}

/** The rows that differ, by variable (the first cell), as `- docs` / `+ schema` pairs. */
function differences(readme: string[], rendered: string[]): string[] {
  const key = (line: string, i: number): string => (i < 2 ? `line ${i + 1}` : (line.split('|')[1]?.trim() ?? line));
  const inReadme = new Map(readme.map((line, i) => [key(line, i), line]));
  const inSchema = new Map(rendered.map((line, i) => [key(line, i), line]));
  const out: string[] = [];
  for (const k of new Set([...inSchema.keys(), ...inReadme.keys()])) {
    const [was, is] = [inReadme.get(k), inSchema.get(k)];
    if (was === is) continue;
    out.push(
      `${k}:`,
      was === undefined ? '  - (not in docs/operations.md)' : `  - ${was}`,
      is === undefined ? '  + (not in the schema)' : `  + ${is}`,
    );
  }
  const order = (lines: string[]): string => lines.map(key).join(' ');
  if (out.length === 0 && order(readme) !== order(rendered)) out.push('the rows are the same but in another order');
  return out;
}

describe('the documented configuration table', () => {
  it('is the table rendered from the configuration schema (regenerate: npx tsx scripts/config-table.ts)', () => {
    const { lines, firstLine } = documentedTable();
    const rendered = configurationTable().split('\n');
    const diff = differences(lines, rendered);
    if (diff.length > 0) {
      assert.fail(
        `docs/operations.md's configuration table (line ${firstLine}) differs from src/server/config-schema.ts; paste the output of npx tsx scripts/config-table.ts over it:\n${diff.join('\n')}`,
      );
    }
    expect(lines).toEqual(rendered);
  });
});
