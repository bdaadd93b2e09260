/**
 * Nonces single use across instances: two verifiers (two instances), each with its own connection to one real
 * redis-server through the rate-limit store, recording nonces with `SET … NX EX` (src/server/redis-nonce-store.ts).
 * The directory is served from memory (the transport is tested elsewhere).
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisNonceStore } from '../src/server/redis-nonce-store.js';
import { RedisStore } from '../src/server/redis-store.js';
import type { FetchedDirectory } from '../src/signatures/directory-client.js';
import { createSignatureVerifier } from '../src/signatures/verifier.js';
import { eventually } from './helpers/eventually.js';
import { startRedis, type RedisServer } from './helpers/redis-server.js';
import { generateAgentKey, signRequest, type AgentKey, type SignOptions } from './fixtures/signatures/agent.js';

const AGENT = 'https://agent.example';
const DIRECTORY = `${AGENT}/.well-known/http-message-signatures-directory`;
const URL_ = 'https://catalog.example/v1/catalog';
const CLIENT = { clientAddress: '198.51.100.20' };
const SKEW = 30;

let redis: RedisServer;
let key: AgentKey;
const stores: RedisStore[] = [];

beforeAll(async () => {
  [redis, key] = await Promise.all([startRedis(), generateAgentKey()]);
});

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await redis?.stop();
});

/** One instance: its own rate-limit store (its Redis connection), the nonce store on it, and a verifier. */
async function instance(now?: () => number, commandTimeoutMs = 5000) {
  // A generous reply timeout by default: a loaded test machine must not turn a slow reply into a (correct) local check.
  const store = await RedisStore.open({ url: redis.url, commandTimeoutMs, maxReconnectDelayMs: 200 });
  stores.push(store);
  const counts = { fallbacks: 0 };
  const nonces = new RedisNonceStore({ redis: store, onFallback: () => counts.fallbacks++ });
  const fetchDirectory = async (url: string): Promise<FetchedDirectory> =>
    url === DIRECTORY ? { ok: true, status: 200, headers: {}, body: JSON.stringify({ keys: [key.publicJwk] }) } : { ok: false, reason: 'HTTP 404' };
  const verifier = createSignatureVerifier({ directory: { fetchDirectory }, nonceStore: nonces, clockSkewSeconds: SKEW, ...(now && { now }) });
  return { store, nonces, verifier, counts };
}

async function signed(options: Partial<SignOptions> = {}): Promise<Request> {
  return new Request(URL_, { headers: await signRequest(URL_, { key, agent: AGENT, ...options }) });
}

const inspector = () => createClient({ url: redis.url });

/** A separate client to read what the instances wrote. */
async function inspect<T>(read: (client: ReturnType<typeof inspector>) => Promise<T>): Promise<T> {
  const client = inspector();
  await client.connect();
  try {
    return await read(client);
  } finally {
    await client.close();
  }
}

describe('RedisNonceStore against a real redis-server', () => {
  it('a request verified by instance A, replayed to instance B, is refused there as replayed', async () => {
    const [a, b] = await Promise.all([instance(), instance()]);
    const request = await signed({ nonce: crypto.randomUUID() });
    expect(await a.verifier.verify(request.clone(), CLIENT)).toMatchObject({ verified: true, keyid: key.keyid });
    expect(await b.verifier.verify(request.clone(), CLIENT)).toMatchObject({ verified: false, code: 'replayed', reason: 'replayed nonce' });
    // And back to A: refused by its pre-check (memory), as before.
    expect(await a.verifier.verify(request.clone(), CLIENT)).toMatchObject({ verified: false, code: 'replayed' });
    // Another nonce still verifies on B.
    expect(await b.verifier.verify(await signed({ nonce: crypto.randomUUID() }), CLIENT)).toMatchObject({ verified: true });
    expect(a.counts.fallbacks + b.counts.fallbacks).toBe(0);
  });

  it('of one request sent to both instances at once, exactly one verifies it', async () => {
    const [a, b] = await Promise.all([instance(), instance()]);
    for (let i = 0; i < 10; i++) {
      const request = await signed({ nonce: crypto.randomUUID() });
      // A client address per round: 30 replays from one would spend its allowance of failed requests (10 a minute).
      const client = { clientAddress: `198.51.100.${100 + i}` };
      const results = await Promise.all([a, b, a, b].map((x) => x.verifier.verify(request.clone(), client)));
      expect(results.filter((r) => r.verified)).toHaveLength(1);
      expect(results.filter((r) => !r.verified && r.code === 'replayed')).toHaveLength(3);
    }
  });

  it('keeps the pair in Redis, as syllabus:nonce:<keyid>:<nonce>, for the signature’s remaining lifetime plus the clock skew', async () => {
    const t = Math.floor(Date.now() / 1000);
    const a = await instance(() => t);
    const nonce = crypto.randomUUID();
    // Created 100 s ago, expires in 200 s: the pair must be kept 200 + 30 s, not the whole lifetime (300 s).
    expect(await a.verifier.verify(await signed({ nonce, created: t - 100, expires: t + 200 }), CLIENT)).toMatchObject({ verified: true });
    const redisKey = `syllabus:nonce:${key.keyid}:${nonce}`;
    const [value, ttl, pttl] = await inspect((c) => Promise.all([c.get(redisKey), c.ttl(redisKey), c.pTTL(redisKey)]));
    expect(value).toBe('1');
    // TTL rounds to the nearest second; PTTL has counted down since the SET (by far less than the 5 s allowed here).
    expect(ttl).toBeLessThanOrEqual(200 + SKEW);
    expect(pttl).toBeLessThanOrEqual((200 + SKEW) * 1000);
    expect(pttl).toBeGreaterThan((200 + SKEW - 5) * 1000);
  });

  it('keys cannot collide or grow without bound: a keyid is escaped, a nonce over 256 characters is never written', async () => {
    const { store } = await instance();
    const prefix = `collide-${crypto.randomUUID()}:`;
    const separate = new RedisNonceStore({ redis: store, keyPrefix: prefix });
    // The same concatenation "k:a:b" without escaping: two different pairs, two keys.
    expect(await separate.record('k', 'a:b', 60)).toBe(true);
    expect(await separate.record('k:a', 'b', 60)).toBe(true);
    expect(await separate.record('k', 'x'.repeat(257), 60)).toBe(false);
    // A nonce that looks like a command is only a key name: RESP sends it as one length-prefixed argument.
    expect(await separate.record('k', 'x\r\nFLUSHALL\r\n', 60)).toBe(true);
    const keys = await inspect((c) => c.keys(`${prefix}*`));
    expect(keys.sort()).toEqual([`${prefix}k:a:b`, `${prefix}k%3Aa:b`, `${prefix}k:x\r\nFLUSHALL\r\n`].sort());
  });

  it('with Redis hung (connection open, no answers), the SET is given up after the store’s command timeout and the nonce checked locally', async () => {
    const a = await instance(undefined, 100);
    redis.pause();
    try {
      const request = await signed({ nonce: crypto.randomUUID() });
      expect(await a.verifier.verify(request.clone(), CLIENT)).toMatchObject({ verified: true });
      expect(a.counts.fallbacks).toBe(1);
      expect(a.store.health().status).toBe('unavailable');
      expect(await a.verifier.verify(request.clone(), CLIENT)).toMatchObject({ verified: false, code: 'replayed' });
    } finally {
      redis.resume();
    }
  });

  it('with Redis down, a nonce is checked in this process and counted as a fallback; Redis is used again once it is back', async () => {
    const [a, b] = await Promise.all([instance(), instance()]);
    await redis.kill();
    try {
      const request = await signed({ nonce: crypto.randomUUID() });
      // The documented policy: still verified (from this instance's memory), and counted.
      expect(await a.verifier.verify(request.clone(), CLIENT)).toMatchObject({ verified: true });
      expect(a.counts.fallbacks).toBe(1);
      // A replay to the same instance is still refused (its memory, no Redis needed).
      expect(await a.verifier.verify(request.clone(), CLIENT)).toMatchObject({ verified: false, code: 'replayed' });
      // Concurrent copies on one instance: exactly one verifies, Redis or not.
      const burst = await signed({ nonce: crypto.randomUUID() });
      const results = await Promise.all(Array.from({ length: 5 }, () => a.verifier.verify(burst.clone(), CLIENT)));
      expect(results.filter((r) => r.verified)).toHaveLength(1);
      expect(a.counts.fallbacks).toBe(2);
    } finally {
      await redis.restart();
    }
    await eventually(() => a.store.health().status === 'ok' && b.store.health().status === 'ok', { what: 'reconnection', everyMs: 25 });
    const fallbacks = a.counts.fallbacks;
    const request = await signed({ nonce: crypto.randomUUID() });
    expect(await a.verifier.verify(request.clone(), CLIENT)).toMatchObject({ verified: true });
    expect(await b.verifier.verify(request.clone(), CLIENT)).toMatchObject({ verified: false, code: 'replayed' });
    expect(a.counts.fallbacks).toBe(fallbacks);
  });
});
