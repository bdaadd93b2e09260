/**
 * Graceful drain (what SIGTERM/SIGINT run): a request still being handled when `close()` is called is
 * answered in full; new connections are refused meanwhile; `close()` resolves once it is done (idle
 * keep-alive connections do not hold it), and every answer is in the access log by then. A rate-limit store that
 * holds requests at a gate makes "in flight" deterministic.
 */
import { Agent, request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryStore, type HitResult, type RateLimitStore } from '../src/http/ratelimit/index.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { eventually } from './helpers/eventually.js';

/** A store that parks every counted request until `open()`. */
class GatedStore implements RateLimitStore {
  readonly #inner = new MemoryStore();
  #gate: Promise<void> | undefined;
  #open: () => void = () => {};
  parked = 0;
  close_ = false;

  shut(): void {
    this.#gate = new Promise((r) => (this.#open = r));
  }
  open(): void {
    this.#open();
    this.#gate = undefined;
  }
  async hit(key: string, windowMs: number, options: { spend: boolean }): Promise<HitResult> {
    if (this.#gate) {
      this.parked++;
      await this.#gate;
    }
    return this.#inner.hit(key, windowMs, options);
  }
  health() {
    return this.#inner.health();
  }
  async close(): Promise<void> {
    this.close_ = true;
  }
}

let srv: TestServer | undefined;
afterAll(async () => {
  await srv?.close();
});

function get(url: string, agent: Agent | false): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/catalog`, { agent }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
    });
    req.on('error', reject);
    req.end();
  });
}

const until = (check: () => boolean): Promise<void> => eventually(check, { everyMs: 10 });

describe('graceful drain', () => {
  it('answers in-flight requests, refuses new connections, then resolves', async () => {
    const store = new GatedStore();
    srv = await startTestServer({ start: { rateLimitStore: store, watch: false } });
    const url = srv.url;
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const before = await get(url, agent);
    expect(before.status).toBe(200);

    store.shut();
    const inFlight = [get(url, agent), get(url, agent), get(url, agent)];
    // Each request counts in two buckets (its kind's budget and its address's ceiling): six parked counts.
    await until(() => store.parked === 6);

    let closed = false;
    const closing = srv.server.close().then(() => (closed = true));
    // New connections are refused while the three requests are still being handled.
    await expect(get(url, false)).rejects.toThrow(/ECONNREFUSED/);
    expect(closed).toBe(false);

    store.open();
    const answers = await Promise.all(inFlight);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body).toBe(before.body);
    }
    await closing;
    expect(store.close_).toBe(true);
    // Every answer has its access-log line once the close resolves: the one before and the three answered while
    // draining.
    const accessLines = srv.logs.filter((l) => l.msg === 'request' && l.path === '/v1/catalog' && l.status === 200);
    expect(accessLines).toHaveLength(4);
    agent.destroy();
  });
});
