/**
 * The built server started the way the README says (`npm start` in an app folder holding the bundle, a copy of the
 * bundled content and the sample referral codes), in a clean environment: what an operator sees on its first start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from './helpers/built-app.js';
import { killServers, logLines, servingUrl, spawnServer, type SpawnedServer } from './helpers/server-process.js';

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
