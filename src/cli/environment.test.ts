import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI_ENVIRONMENT } from './environment.js';
import { run } from './program.js';

const CLI_DIR = fileURLToPath(new URL('.', import.meta.url));
const REPO = join(CLI_DIR, '..', '..');

/** Every environment variable the client's source reads: `env.NAME`, `env['NAME']`, `process.env.NAME`. */
function variablesRead(): Map<string, string> {
  const found = new Map<string, string>();
  const files = readdirSync(CLI_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  for (const file of files) {
    const text = readFileSync(join(CLI_DIR, file), 'utf8');
    for (const m of text.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)\b|\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\])/g)) found.set(m[1] ?? m[2]!, file);
  }
  return found;
}

/** The names in the "Environment:" block of `syllabus --help`. */
async function helpVariables(): Promise<string[]> {
  let out = '';
  const code = await run(['node', 'syllabus', '--help'], { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true }, env: {} });
  expect(code).toBe(0);
  const block = out.split('\nEnvironment:\n')[1]?.split('\n\n')[0] ?? '';
  return [...block.matchAll(/^ {2}([A-Z][A-Z0-9_]*) /gm)].map((m) => m[1]!);
}

describe('environment variables', () => {
  it('syllabus --help lists every variable the client reads', async () => {
    const read = variablesRead();
    // Not vacuous: the grep finds the reads, including the two the help once left out.
    expect(read.size).toBeGreaterThanOrEqual(12);
    expect([...read.keys()]).toEqual(expect.arrayContaining(['SYLLABUS_TIMEOUT_MS', 'SYLLABUS_DEBUG', 'SYLLABUS_NO_UPDATE', 'SYLLABUS_NO_WAIT']));
    const listed = await helpVariables();
    const missing = [...read].filter(([name]) => !listed.includes(name)).map(([name, file]) => `${name} (read in ${file})`);
    expect(missing).toEqual([]);
    expect(listed).toEqual(CLI_ENVIRONMENT.map((v) => v.name));
  });

  it('docs/cli.md documents the same variables as the table in the code', () => {
    const docs = readFileSync(join(REPO, 'docs', 'cli.md'), 'utf8');
    const table = docs.split('| Environment | Meaning |')[1]!.split('\n\n')[0]!;
    const documented = [...table.matchAll(/^\| `([A-Z][A-Z0-9_]*)/gm)].map((m) => m[1]!);
    expect(documented).toEqual(CLI_ENVIRONMENT.map((v) => v.name));
  });
});
