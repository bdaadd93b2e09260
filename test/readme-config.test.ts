/**
 * The README's configuration table is the one rendered from src/server/config-schema.ts: every variable the
 * service reads, with its default and meaning, and nothing else.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configurationTable, VARIABLES } from '../src/server/config-schema.js';
import { loadConfig } from '../src/server/config.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The table in the README that starts with the configuration header, as its lines. */
function readmeTable(): string {
  const lines = readme.split('\n');
  const start = lines.indexOf('| Variable | Default | Meaning |');
  expect(start, 'the README has a configuration table').toBeGreaterThan(-1);
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return lines.slice(start, end === -1 ? undefined : end).join('\n');
}

describe('the README configuration table', () => {
  it('is the table rendered from the configuration schema (regenerate: npx tsx scripts/config-table.ts)', () => {
    expect(readmeTable()).toBe(configurationTable());
  });

  it('defaults are the values loadConfig uses when nothing is set', () => {
    const config = loadConfig({}, '/srv');
    expect(config.port).toBe(VARIABLES.PORT.default);
    expect(config.host).toBe(VARIABLES.HOST.default);
    expect(config.contentSource).toEqual({ kind: 'folder', dir: `/srv/${VARIABLES.CONTENT_DIR.default}` });
    expect(config.rateLimits.anonymous).toBe(VARIABLES.RATE_LIMIT_ANONYMOUS.default);
    expect(config.rateLimitStoreTimeoutMs).toBe(VARIABLES.RATE_LIMIT_STORE_TIMEOUT_MS.default);
    expect(config.logLevel).toBe(VARIABLES.LOG_LEVEL.default);
    expect(config.shutdownTimeoutSeconds).toBe(VARIABLES.SHUTDOWN_TIMEOUT.default);
  });

  it('ranges in error messages are the schema ranges', () => {
    expect(() => loadConfig({ CONTENT_GIT_URL: '/r', CONTENT_GIT_POLL: '0' })).toThrow(
      `CONTENT_GIT_POLL: "0" is not a whole number from ${VARIABLES.CONTENT_GIT_POLL.min} to ${VARIABLES.CONTENT_GIT_POLL.max}`,
    );
  });
});
