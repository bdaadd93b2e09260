/**
 * Nonces single use across instances, end to end: two real servers (test/helpers/server.ts, the wiring of
 * `npm start`) behind one public name, sharing one real redis-server through `RATE_LIMIT_STORE`, and a key
 * directory on a loopback server. A signed request verified by one instance and replayed to the other is not
 * verified there; with Redis gone, nonces are checked per instance and that is counted.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startRedis, type RedisServer } from './helpers/redis-server.js';
import {
  generateAgentKey,
  jwksHandler,
  signRequest,
  startDirectoryServer,
  type AgentKey,
  type DirectoryServer,
} from './fixtures/signatures/agent.js';

const VERIFIED_POLICY = '480;w=60';
const DECLARED_POLICY = '120;w=60';
const PUBLIC_URL = 'https://catalog.example/v1/catalog';
/** What the load balancer in front of both instances reports (TRUST_PROXY=loopback). */
const FORWARDED = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'catalog.example' };
const DB = 4;

let redis: RedisServer;
let key: AgentKey;
let directory: DirectoryServer;
let a: TestServer;
let b: TestServer;
let nextClient = 1;

beforeAll(async () => {
  [redis, key] = await Promise.all([startRedis(), generateAgentKey()]);
  directory = await startDirectoryServer(jwksHandler([key.publicJwk], { 'cache-control': 'max-age=300' }));
  const env = {
    RATE_LIMIT_VERIFIED: '480',
    RATE_LIMIT_DECLARED: '120',
    KEY_DIRECTORY_ALLOW_INSECURE: '1',
    TRUST_PROXY: 'loopback',
    SIGNATURE_AUTHORITIES: 'catalog.example',
    RATE_LIMIT_STORE: `${redis.url}/${DB}`,
    // A generous Redis reply timeout, so that a loaded test machine does not fall back to local checks.
    RATE_LIMIT_STORE_TIMEOUT_MS: '5000',
    ADMIN_PORT: '0',
    LOG_LEVEL: 'debug',
  };
  [a, b] = await Promise.all([startTestServer({ env }), startTestServer({ env })]);
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await directory?.close();
  await redis?.stop();
});

/** Headers of a GET of the public catalog URL, signed with a fresh nonce. */
async function signedWithNonce(): Promise<{ nonce: string; headers: Record<string, string> }> {
  const nonce = crypto.randomUUID();
  return { nonce, headers: await signRequest(PUBLIC_URL, { key, agent: directory.origin, nonce }) };
}

/** Sends the signed request to one instance (from a fresh client address) and returns its RateLimit-Policy. */
async function policyOf(server: TestServer, headers: Record<string, string>): Promise<string | null> {
  const res = await fetch(`${server.url}/v1/catalog`, {
    headers: {
      'user-agent': 'e2e-agent/1.0 (+https://agent.example/bot)',
      'x-forwarded-for': `198.51.100.${nextClient++}`,
      ...FORWARDED,
      ...headers,
    },
  });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  return res.headers.get('ratelimit-policy');
}

/** One sample of an instance's /metrics (admin listener), 0 when absent. */
async function metric(server: TestServer, sample: string): Promise<number> {
  const body = await (await fetch(`${server.server.adminUrl}/metrics`)).text();
  const line = body.split('\n').find((l) => l.startsWith(`${sample} `));
  return line === undefined ? 0 : Number(line.slice(sample.length + 1));
}

describe('two instances sharing RATE_LIMIT_STORE=redis://…', () => {
  it('a signed request verified by instance A and replayed to instance B is not verified there (replayed)', async () => {
    const { nonce, headers } = await signedWithNonce();
    expect(await policyOf(a, headers)).toBe(VERIFIED_POLICY);
    expect(await policyOf(b, headers)).toBe(DECLARED_POLICY);
    expect(await metric(b, 'syllabus_signature_refusals_total{reason="replayed"}')).toBe(1);
    expect(b.logs.filter((l) => l.msg === 'signature not verified').map((l) => l.reason)).toEqual(['replayed']);
    // A fresh nonce verifies on B.
    expect(await policyOf(b, (await signedWithNonce()).headers)).toBe(VERIFIED_POLICY);

    // The pair is in the shared Redis, on the rate-limit store's own connection: one connection per instance.
    const admin = createClient({ url: redis.url });
    await admin.connect();
    try {
      const clients = (await admin.sendCommand<string>(['CLIENT', 'LIST'])).split('\n').filter((line) => line.includes(` db=${DB} `));
      expect(clients).toHaveLength(2);
      await admin.select(DB);
      expect(await admin.exists(`syllabus:nonce:${key.keyid}:${nonce}`)).toBe(1);
    } finally {
      await admin.close();
    }
    expect(await metric(a, 'syllabus_nonce_store_fallbacks_total')).toBe(0);
  });

  it('with Redis gone, a nonce is checked in the instance that receives it, and each such check is counted', async () => {
    await redis.kill();
    const { headers } = await signedWithNonce();
    expect(await policyOf(a, headers)).toBe(VERIFIED_POLICY);
    expect(await metric(a, 'syllabus_nonce_store_fallbacks_total')).toBe(1);
    // Still single use on that instance.
    expect(await policyOf(a, headers)).toBe(DECLARED_POLICY);
    expect(await metric(a, 'syllabus_signature_refusals_total{reason="replayed"}')).toBe(1);
  });
});
