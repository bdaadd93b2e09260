/**
 * The built server started the way the README says (`npm start` in an app folder holding the bundle, a copy of the
 * bundled content and the sample referral codes), in a clean environment: what an operator sees on its first start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from './helpers/built-app.js';
import { eventually } from './helpers/eventually.js';
import { freePort, killServers, logLines, servingUrl, spawnServer, type SpawnedServer } from './helpers/server-process.js';

let app: BuiltApp;

beforeAll(async () => {
  app = await buildApp();
});

afterAll(async () => {
  killServers();
  await app?.remove();
});

/** `npm start` in the app folder with `env` on top of PATH, HOME and PORT=0 (an ephemeral port; nothing else set). */
function npmStart(env: Record<string, string> = {}): SpawnedServer {
  return spawnServer(env, { command: ['npm', 'start'], cwd: app.dir });
}

describe('npm start with nothing configured', () => {
  it('listens on loopback and writes no warning', async () => {
    const server = npmStart();
    const url = new URL(await servingUrl(server));
    expect(url.hostname).toBe('127.0.0.1');
    expect((await fetch(new URL('/v1/catalog', url))).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const lines = logLines(server);
    expect(lines.map((l) => l.msg)).toContain('stopped');
    // pino levels: 40 is warn, 50 error, 60 fatal.
    expect(lines.filter((l) => (l.level as number) >= 40)).toEqual([]);
  });
});

describe('LOG_FORMAT=pretty', () => {
  it('writes one line per request, with its fields', async () => {
    const port = await freePort();
    const server = npmStart({ PORT: String(port), LOG_FORMAT: 'pretty' });
    const base = `http://127.0.0.1:${port}`;
    await eventually(async () => (await fetch(`${base}/health`).catch(() => undefined))?.status === 200, { what: 'the server answering' });
    const ids = ['pretty-1', 'pretty-2', 'pretty-3'];
    for (const id of ids) expect((await fetch(`${base}/v1/catalog`, { headers: { 'X-Request-Id': id } })).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // npm's own lines ("> syllabus-catalog@… start", "> exec node dist/server.js") and blank lines aside.
    const lines = server
      .stdout()
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('> '));
    // Every line is a log line of its own (no field on a continuation line).
    for (const line of lines) expect(line).toMatch(/^\[[^\]]+\] [A-Z]+: /);
    for (const id of ids) {
      const mentions = lines.filter((line) => line.includes(id));
      expect(mentions, id).toHaveLength(1);
      expect(mentions[0]).toMatch(/ INFO: request \{/);
      for (const field of ['"method":"GET"', '"path":"/v1/catalog"', '"status":200', `"request_id":"${id}"`]) expect(mentions[0]).toContain(field);
    }
    expect(lines.at(-1)).toMatch(/ INFO: stopped$/);
  });
});
