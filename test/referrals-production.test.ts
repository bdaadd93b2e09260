/**
 * Referral checks of the built server as production runs it: `dist/server.js` built into a temporary app folder that
 * holds what a checkout holds (`dist/`, `content/`, `package.json` and the published sample codes,
 * `referrals.sample.txt`), started with `NODE_ENV=production` and `PUBLIC_BASE_URL`. Without `REFERRALS_FILE` no
 * code is checked: every check is the documented 503 (never `{"valid":true}` for a published sample, never
 * `{"valid":false}` for an unchecked code) and spends the referral budget; with the sample named, codes are checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeNamed } from '../src/contract/routes.js';
import { buildApp, type BuiltApp } from './helpers/built-app.js';
import { OpenApiResponses } from './helpers/openapi.js';
import { killServers, logLines, servingUrl, spawnServer, type SpawnedServer } from './helpers/server-process.js';

const ROUTE = '/v1/referrals/{code}';
/** The production settings of the issue: nothing names a referral file. */
const PRODUCTION = { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://catalog.example.com' };
/** Referral checks per hour: small, so that the test sees the budget run out. */
const REFERRAL_BUDGET = 4;

let app: BuiltApp;

/** Starts `node dist/server.js` in the app folder with `env`; resolves with its URL once it serves. */
async function start(env: Record<string, string>): Promise<{ url: string; server: SpawnedServer }> {
  const server = spawnServer(
    { ...PRODUCTION, RATE_LIMIT_REFERRALS: String(REFERRAL_BUDGET), ...env },
    { command: [process.execPath, 'dist/server.js'], cwd: app.dir },
  );
  return { url: await servingUrl(server), server };
}

beforeAll(async () => {
  app = await buildApp();
}, 120_000);

afterAll(async () => {
  killServers();
  await app?.remove();
});

describe('the built server in production without REFERRALS_FILE', () => {
  let url: string;
  let server: SpawnedServer;
  beforeAll(async () => {
    ({ url, server } = await start({}));
  }, 60_000);

  it('says at start-up and on /health that it has no referral source', async () => {
    const lines = logLines(server);
    expect(lines.find((l) => l.msg === 'serving')).toMatchObject({ referral_source: 'none' });
    expect(lines.find((l) => l.msg === 'serving')).not.toHaveProperty('referral_codes');
    expect(lines.find((l) => String(l.msg).startsWith('REFERRALS_FILE is not set'))).toMatchObject({ referral_source: 'none' });
    const health = (await (await fetch(`${url}/health`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ referral_source: 'none', referrals_reload_error: '' });
    expect(Object.values(health).every((v) => typeof v === 'string')).toBe(true);
  });

  it('answers a published sample code, and any other code, 503 as documented: never a verdict, spending the budget', async () => {
    const doc = new OpenApiResponses(await (await fetch(`${url}/openapi.json`)).json());
    const detail = routeNamed('referral').unavailable;
    let remaining = REFERRAL_BUDGET;
    for (const code of ['WELCOME-2026', 'NOT-IN-ANY-FILE-42']) {
      const res = await fetch(`${url}/v1/referrals/${code}`);
      remaining--;
      expect(res.status, code).toBe(503);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('retry-after')).toBeNull();
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('ratelimit-policy')).toBe(`${REFERRAL_BUDGET};w=3600`);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(remaining));
      const body = (await res.json()) as unknown;
      expect(body).toEqual({ detail });
      expect(body).not.toHaveProperty('valid');
      // As the served document says: the status is listed, its required headers are there, the body validates.
      for (const [name, required] of doc.headers(ROUTE, 'get', 503)) if (required) expect(res.headers.get(name), name).not.toBeNull();
      expect(doc.check(ROUTE, 'get', 503, body)).toEqual([]);
    }
    // HEAD is not a way round it: the same 503 without a body, that spends the budget too.
    const head = await fetch(`${url}/v1/referrals/WELCOME-2026`, { method: 'HEAD' });
    expect(head.status).toBe(503);
    expect(await head.text()).toBe('');
    expect(head.headers.get('ratelimit-remaining')).toBe(String(remaining - 1));
    await (await fetch(`${url}/v1/referrals/WELCOME-2024`)).arrayBuffer();
    const refused = await fetch(`${url}/v1/referrals/WELCOME-2026`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect(await refused.json()).toMatchObject({ detail: 'Too Many Requests', retry_after_seconds: expect.any(Number) });
  });
});

describe('the built server in production with the sample codes named', () => {
  let url: string;
  let server: SpawnedServer;
  beforeAll(async () => {
    ({ url, server } = await start({ REFERRALS_FILE: 'referrals.sample.txt' }));
  }, 60_000);

  it('checks codes: a sample code is valid, a code not in the file is not, and HEAD answers as GET', async () => {
    expect(logLines(server).find((l) => l.msg === 'serving')).toMatchObject({ referral_source: 'file', referral_codes: 3 });
    expect(await (await fetch(`${url}/health`)).json()).toMatchObject({ referral_source: 'file', referrals_reload_error: '' });
    const valid = await fetch(`${url}/v1/referrals/WELCOME-2026`);
    expect(valid.status).toBe(200);
    expect(valid.headers.get('cache-control')).toBe('no-store');
    expect(await valid.text()).toBe('{"valid":true}');
    for (const code of ['welcome-2026', 'NOT-IN-ANY-FILE-42']) {
      const res = await fetch(`${url}/v1/referrals/${code}`);
      expect(res.status, code).toBe(200);
      expect(await res.text(), code).toBe('{"valid":false}');
    }
    const head = await fetch(`${url}/v1/referrals/WELCOME-2026`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, String('{"valid":true}'.length), '']);
  });
});
