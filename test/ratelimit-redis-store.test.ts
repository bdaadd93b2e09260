import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide } from '../src/http/ratelimit/budgets.js';
import { RedisStore, type StoreLogger } from '../src/server/redis-store.js';
import type { StoreHealth } from '../src/http/ratelimit/store.js';
import { startRedis, type RedisServer } from './helpers/redis-server.js';
import { eventually } from './helpers/eventually.js';

let redis: RedisServer;
const stores: RedisStore[] = [];

function recordingLogger() {
  const lines: Array<{ level: 'warn' | 'info'; message: string }> = [];
  const logger: StoreLogger = {
    warn: (_f, message) => lines.push({ level: 'warn', message }),
    info: (_f, message) => lines.push({ level: 'info', message }),
  };
  return { lines, logger };
}

async function open(extra: Partial<Parameters<typeof RedisStore.open>[0]> = {}) {
  // A generous reply timeout: a loaded test machine must not turn a slow reply into a (correct) local count.
  const store = await RedisStore.open({
    url: redis.url,
    keyPrefix: `t${Math.random().toString(36).slice(2)}:`,
    commandTimeoutMs: 5000,
    ...extra,
  });
  stores.push(store);
  return store;
}

const until = (condition: () => boolean, what: string): Promise<void> => eventually(condition, { what, everyMs: 25 });

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await redis?.stop();
});

describe('RedisStore against a real redis-server', () => {
  it('counts a fixed window atomically and reads without spending', async () => {
    const store = await open();
    expect(store.health()).toEqual({ store: 'redis', status: 'ok' });
    expect(await store.hit('k', 60_000, { spend: false })).toEqual({ count: 0, resetMs: 60_000 });
    const first = await store.hit('k', 60_000, { spend: true });
    expect(first.count).toBe(1);
    expect(first.resetMs).toBeGreaterThan(59_000);
    expect(first.resetMs).toBeLessThanOrEqual(60_000);
    const results = await Promise.all(Array.from({ length: 50 }, () => store.hit('k', 60_000, { spend: true })));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 2));
    expect((await store.hit('k', 60_000, { spend: false })).count).toBe(51);
  });

  it('starts a new window once the old one has ended', async () => {
    const store = await open();
    await store.hit('short', 300, { spend: true });
    await store.hit('short', 300, { spend: true });
    const second = await store.hit('short', 300, { spend: true });
    expect(second.count).toBe(3);
    await new Promise((r) => setTimeout(r, second.resetMs + 5));
    expect((await store.hit('short', 300, { spend: true })).count).toBe(1);
  });

  it('gives two stores (two instances) one budget', async () => {
    const prefix = 'shared:';
    const a = await open({ keyPrefix: prefix });
    const b = await open({ keyPrefix: prefix });
    const limits = { verified: 8, declared: 4, browser: 4, anonymous: 3, referrals: 5 };
    const who = { bucket: '192.0.2.44', kind: 'anonymous' as const, pathClass: 'read' as const };
    const answers = [];
    for (const store of [a, b, a, b]) answers.push(await decide(store, limits, who));
    expect(answers.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(answers.map((d) => d.state.remaining)).toEqual([2, 1, 0, 0]);
  });

  it('counts several buckets in one script run, and a referral lookup spends both budgets', async () => {
    const prefix = 'many:';
    const a = await open({ keyPrefix: prefix });
    const b = await open({ keyPrefix: prefix });
    const first = await a.hitMany([
      { key: 'r', windowMs: 60_000 },
      { key: 'f', windowMs: 3_600_000 },
    ]);
    expect(first.map((r) => r.count)).toEqual([1, 1]);
    expect(first[0]!.resetMs).toBeLessThanOrEqual(60_000);
    expect(first[1]!.resetMs).toBeGreaterThan(3_500_000);
    const limits = { verified: 8, declared: 4, browser: 10, anonymous: 3, referrals: 2 };
    const who = { bucket: '198.51.100.77', kind: 'browser' as const, pathClass: 'referral' as const };
    const answers = [await decide(a, limits, who), await decide(b, limits, who), await decide(a, limits, who)];
    expect(answers.map((d) => d.allowed)).toEqual([true, true, false]);
    expect(answers[2]!.state).toMatchObject({ limit: 2, remaining: 0, windowSeconds: 3600 });
  });

  it('answers reads that do not spend from its own latest view, without a round trip', async () => {
    const prefix = 'view:';
    const a = await open({ keyPrefix: prefix });
    const b = await open({ keyPrefix: prefix });
    for (let i = 0; i < 3; i++) await a.hit('v', 60_000, { spend: true });
    const seen = await a.hit('v', 60_000, { spend: false });
    expect(seen.count).toBe(3);
    expect(seen.resetMs).toBeGreaterThan(59_000);
    // B has not counted this bucket itself, so its view is empty (Redis, which holds 3, was not asked).
    expect(await b.hit('v', 60_000, { spend: false })).toEqual({ count: 0, resetMs: 60_000 });
    expect((await b.hit('v', 60_000, { spend: true })).count).toBe(4);
    expect((await b.hit('v', 60_000, { spend: false })).count).toBe(4);
  });

  it('fails open when Redis dies, logs once, reports it, and recovers when it returns', async () => {
    const { lines, logger } = recordingLogger();
    const changes: StoreHealth[] = [];
    let fallbacks = 0;
    const store = await open({ logger, onHealthChange: (h) => changes.push(h), maxReconnectDelayMs: 200, onFallback: () => fallbacks++ });
    expect((await store.hit('life', 60_000, { spend: true })).count).toBe(1);
    expect((await store.hit('life', 60_000, { spend: true })).count).toBe(2);
    expect(fallbacks).toBe(0);

    await redis.kill();
    // Every request is still answered, from the local fallback.
    const during = await Promise.all(Array.from({ length: 20 }, () => store.hit('life', 60_000, { spend: true })));
    expect(during).toHaveLength(20);
    for (const r of during) expect(r.resetMs).toBeGreaterThan(0);
    for (let i = 0; i < 20; i++) await store.hit('life', 60_000, { spend: true });
    expect(fallbacks).toBe(40); // each count made locally is reported (the fallbacks metric)
    await until(() => store.health().status === 'unavailable', 'the outage to be noticed');
    expect(store.health().since).toMatch(/^\d{4}-\d\d-\d\dT/);
    await new Promise((r) => setTimeout(r, 600)); // several failed reconnection attempts
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);

    await redis.restart();
    await until(() => store.health().status === 'ok', 'recovery');
    expect(lines.filter((l) => l.level === 'info')).toHaveLength(1);
    expect(changes.map((c) => c.status)).toEqual(['unavailable', 'ok']);
    // Counting is back in (the restarted, empty) Redis, script reloaded.
    expect((await store.hit('life', 60_000, { spend: true })).count).toBe(1);
    expect((await store.hit('life', 60_000, { spend: true })).count).toBe(2);
    expect(fallbacks).toBe(40);
    expect(store.health()).toEqual({ store: 'redis', status: 'ok' });
  });

  it('a hung Redis (connections open, no answers) is probed once at a time while requests count locally', async () => {
    const { lines, logger } = recordingLogger();
    const store = await open({ logger, commandTimeoutMs: 100, probeIntervalMs: 200 });
    expect((await store.hit('hang', 60_000, { spend: true })).count).toBe(1);
    redis.pause();
    try {
      // The first request meets the timeout; the outage is then known and the burst is answered locally.
      const first = await store.hit('hang', 60_000, { spend: true });
      expect(first.count).toBe(1); // the local count starts afresh
      expect(store.health().status).toBe('unavailable');
      const burst = await Promise.all(Array.from({ length: 100 }, () => store.hit('hang', 60_000, { spend: true })));
      expect(burst.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 2));
    } finally {
      redis.resume();
    }
    // Requests keep coming; one of them, a probe, finds Redis answering again.
    const end = Date.now() + 10_000;
    while (store.health().status !== 'ok' && Date.now() < end) {
      await store.hit('hang', 60_000, { spend: true });
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(store.health().status).toBe('ok');
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    expect(lines.filter((l) => l.level === 'info')).toHaveLength(1);
    // Counting is back in Redis, where the window began before the hang.
    expect((await store.hit('hang', 60_000, { spend: true })).count).toBeGreaterThanOrEqual(3);
  });

  it('starts (counting locally) when Redis is not there yet', async () => {
    const { lines, logger } = recordingLogger();
    const store = await RedisStore.open({ url: 'redis://127.0.0.1:1', logger, connectTimeoutMs: 200 }, 300);
    stores.push(store);
    expect(store.health().status).toBe('unavailable');
    expect((await store.hit('x', 1000, { spend: true })).count).toBe(1);
    expect((await store.hit('x', 1000, { spend: true })).count).toBe(2);
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
  });
});
