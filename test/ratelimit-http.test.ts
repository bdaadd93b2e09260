/**
 * Fair use over real HTTP: the real server on a loopback port, requests from each kind of client, the budgets,
 * the RateLimit headers on every status, 429s, a client honouring Retry-After (also at the window boundary),
 * and X-Forwarded-For with and without TRUST_PROXY.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RATE_LIMITS_DOC_URL, type TooManyRequestsBody } from '../src/contract/rate-limits.js';
import { MemoryStore } from '../src/http/ratelimit/memory-store.js';
import { loadConfig } from '../src/server/config.js';
import { startServer, type RunningServer } from '../src/server/start.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0';
const DECLARED = 'acme-sync/2.1 (+https://acme.example/bot)';
const CURL = 'curl/8.5.0';

const running: RunningServer[] = [];

async function start(env: Record<string, string> = {}, store?: MemoryStore): Promise<RunningServer> {
  // The published sample codes (WELCOME-2026 is one), named: there is no default referral file.
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', REFERRALS_FILE: 'referrals.sample.txt', ...env }, ROOT);
  const server = await startServer(config, { watch: false, ...(store && { rateLimitStore: store }) });
  running.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** The four RateLimit fields of a response. */
function budget(res: Response) {
  return {
    limit: res.headers.get('ratelimit-limit'),
    remaining: res.headers.get('ratelimit-remaining'),
    reset: res.headers.get('ratelimit-reset'),
    policy: res.headers.get('ratelimit-policy'),
  };
}

async function get(base: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, { headers });
  await res.arrayBuffer();
  return res;
}

const SMALL = {
  RATE_LIMIT_ANONYMOUS: '3',
  RATE_LIMIT_BROWSER: '4',
  RATE_LIMIT_DECLARED: '5',
  RATE_LIMIT_VERIFIED: '9',
  RATE_LIMIT_REFERRALS: '2',
};

describe('budgets by kind over HTTP', () => {
  it('an anonymous client gets 3, then a JSON 429 whose Retry-After equals RateLimit-Reset', async () => {
    const { url } = await start(SMALL);
    // fetch() sends `User-Agent: node` (a library default): anonymous, like curl.
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const res = await get(url, '/v1/catalog');
      expect(res.status).toBe(200);
      seen.push(budget(res));
    }
    expect(seen.map((b) => b.remaining)).toEqual(['2', '1', '0']);
    for (const b of seen) {
      expect(b.limit).toBe('3');
      expect(b.policy).toBe('3;w=60');
      expect(Number(b.reset)).toBeGreaterThanOrEqual(1);
      expect(Number(b.reset)).toBeLessThanOrEqual(60);
    }
    const refused = await fetch(`${url}/v1/catalog`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await refused.json()) as TooManyRequestsBody;
    expect(budget(refused)).toMatchObject({ limit: '3', remaining: '0', policy: '3;w=60' });
    expect(refused.headers.get('retry-after')).toBe(refused.headers.get('ratelimit-reset'));
    expect(refused.headers.get('access-control-expose-headers')).toMatch(/Retry-After/);
    // The body explains the refusal, consistently with the headers and with the configured budgets.
    expect(body).toEqual({
      detail: 'Too Many Requests',
      message: expect.stringContaining(`Retry in ${refused.headers.get('retry-after')} second`),
      budget: { name: 'read', client_kind: 'anonymous', policy: refused.headers.get('ratelimit-policy'), limit: 3, window_seconds: 60 },
      retry_after_seconds: Number(refused.headers.get('retry-after')),
      larger_budgets: [
        expect.objectContaining({ client_kind: 'declared', policy: '5;w=60', limit: 5, how: expect.stringContaining('User-Agent') }),
        expect.objectContaining({
          client_kind: 'verified',
          policy: '9;w=60',
          limit: 9,
          documentation_url: expect.stringMatching(/verified-agents\.md$/),
        }),
      ],
      documentation_url: RATE_LIMITS_DOC_URL,
    });
    // Followed, the advice works: the same address, named, is served.
    expect((await get(url, '/v1/catalog', { 'user-agent': DECLARED })).status).toBe(200);
  });

  it('a 429 names the budget that ran out: the address ceiling, the referral checks', async () => {
    const { url } = await start(SMALL);
    for (let i = 0; i < 5; i++) await get(url, '/v1/catalog', { 'user-agent': DECLARED });
    const ceiling = (await (
      await fetch(`${url}/v1/catalog`, { headers: { 'user-agent': BROWSER, accept: 'application/json' } })
    ).json()) as TooManyRequestsBody;
    expect(ceiling.budget).toEqual({ name: 'address', client_kind: 'browser', policy: '5;w=60', limit: 5, window_seconds: 60 });
    expect(ceiling.larger_budgets.map((b) => [b.client_kind, b.policy])).toEqual([['verified', '9;w=60']]);

    const other = await start(SMALL);
    for (let i = 0; i < 2; i++) await get(other.url, '/v1/referrals/WELCOME-2026', { 'user-agent': DECLARED });
    const referral = await fetch(`${other.url}/v1/referrals/WELCOME-2026`, { headers: { 'user-agent': DECLARED } });
    const body = (await referral.json()) as TooManyRequestsBody;
    expect([referral.status, referral.headers.get('ratelimit-policy')]).toEqual([429, '2;w=3600']);
    expect(body.budget).toEqual({ name: 'referral', client_kind: 'declared', policy: '2;w=3600', limit: 2, window_seconds: 3600 });
    expect(body.larger_budgets).toEqual([]);
    expect(body.message).toContain('No client kind has a larger budget.');
  });

  it('a refused page explains the same in HTML', async () => {
    const { url } = await start(SMALL);
    for (let i = 0; i < 4; i++) await get(url, '/', { 'user-agent': BROWSER, accept: 'text/html' });
    const page = await fetch(`${url}/`, { headers: { 'user-agent': BROWSER, accept: 'text/html' } });
    expect(page.status).toBe(429);
    const html = await page.text();
    expect(html).toContain(`data-retry-after="${page.headers.get('retry-after')}"`);
    expect(html).toContain(`data-client-kind="browser" data-policy="${page.headers.get('ratelimit-policy')}"`);
    expect(html).toContain('data-client-kind="declared" data-policy="5;w=60"');
    expect(html).toContain('data-client-kind="verified" data-policy="9;w=60"');
    expect(html).toContain(`href="${RATE_LIMITS_DOC_URL}"`);
  });

  it('links documentation that exists: the section of docs/api.md and docs/verified-agents.md', async () => {
    const [, file, anchor] = /\/docs\/([\w-]+\.md)#([\w-]+)$/.exec(RATE_LIMITS_DOC_URL)!;
    const headings = (await readFile(`${ROOT}docs/${file}`, 'utf8')).split('\n').filter((l) => /^#{1,6} /.test(l));
    // GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.
    const anchors = headings.map((h) =>
      h
        .replace(/^#+ /, '')
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replaceAll(' ', '-'),
    );
    expect(anchors).toContain(anchor);
    await expect(readFile(`${ROOT}docs/verified-agents.md`, 'utf8')).resolves.toContain('#');
  });

  it('browser, declared agent and library default behind one address: each kind its budget, all under one ceiling', async () => {
    const { url } = await start(SMALL);
    for (let i = 0; i < 3; i++) await get(url, '/v1/catalog', { 'user-agent': CURL });
    expect((await get(url, '/v1/catalog', { 'user-agent': CURL })).status).toBe(429);
    expect((await get(url, '/v1/catalog', { 'user-agent': '' })).status).toBe(429); // empty = anonymous too

    // The address has made 5 requests; its ceiling across unverified kinds is the largest of them: 5 (declared).
    const browser = await get(url, '/v1/catalog', { 'user-agent': BROWSER });
    expect(browser.status).toBe(429);
    expect(budget(browser)).toMatchObject({ limit: '5', remaining: '0', policy: '5;w=60' });
    expect((await get(url, '/v1/roadmap', { 'user-agent': DECLARED })).status).toBe(429);
  });

  it('a fresh address gets its kind budget in full, then switching User-Agent gains nothing', async () => {
    const { url } = await start(SMALL);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await get(url, '/v1/roadmap', { 'user-agent': DECLARED })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await get(url, '/v1/roadmap', { 'user-agent': BROWSER })).status).toBe(429);
    expect((await get(url, '/v1/roadmap', { 'user-agent': CURL })).status).toBe(429);
  });

  it('every status carries the fields and counts: 200, 304, 404, 422; /health and /openapi.json do not count', async () => {
    const { url } = await start(SMALL);
    const ua = { 'user-agent': DECLARED };
    const ok = await get(url, '/v1/catalog', ua);
    const etag = ok.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const notModified = await get(url, '/v1/catalog', { ...ua, 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    const missing = await get(url, '/v1/courses/no-such-course', ua);
    expect(missing.status).toBe(404);
    const invalid = await get(url, '/v1/courses/NOT_VALID', ua);
    expect(invalid.status).toBe(422);
    const health = await get(url, '/health', ua);
    expect(health.status).toBe(200);
    const openapi = await get(url, '/openapi.json', ua);
    expect(openapi.status).toBe(200);
    const unknown = await get(url, '/v1/nothing-here', ua);
    expect(unknown.status).toBe(404);
    expect([ok, notModified, missing, invalid, health, openapi, unknown].map((r) => budget(r).remaining)).toEqual([
      '4',
      '3',
      '2',
      '1',
      '1',
      '1',
      '0',
    ]);
    for (const r of [ok, notModified, missing, invalid, health, openapi, unknown]) expect(budget(r).policy).toBe('5;w=60');
    // Out of budget: reads are refused, /health is not and still reports the budget.
    expect((await get(url, '/v1/catalog', ua)).status).toBe(429);
    const healthAfter = await get(url, '/health', ua);
    expect(healthAfter.status).toBe(200);
    expect(budget(healthAfter)).toMatchObject({ limit: '5', remaining: '0' });
    const head = await fetch(`${url}/health`, { method: 'HEAD', headers: ua });
    expect(head.status).toBe(200);
    expect(budget(head).remaining).toBe('0');
  });

  it('a referral lookup spends the hourly referral budget too and reports the closer one', async () => {
    const { url } = await start(SMALL);
    const ua = { 'user-agent': BROWSER };
    const first = await get(url, '/v1/referrals/WELCOME-2026', ua);
    expect(first.status).toBe(200);
    // read: 3 of 4 left; referrals: 1 of 2 left → the referral budget.
    expect(budget(first)).toMatchObject({ limit: '2', remaining: '1', policy: '2;w=3600' });
    expect(Number(budget(first).reset)).toBeGreaterThan(3500);
    const invalidCode = await get(url, '/v1/referrals/x', ua); // 422 counts too
    expect(invalidCode.status).toBe(422);
    expect(budget(invalidCode)).toMatchObject({ remaining: '0', policy: '2;w=3600' });
    const refused = await get(url, '/v1/referrals/WELCOME-2026', ua);
    expect(refused.status).toBe(429);
    expect(budget(refused)).toMatchObject({ limit: '2', remaining: '0', policy: '2;w=3600' });
    expect(refused.headers.get('retry-after')).toBe(budget(refused).reset);
    // Reads are still allowed: the read budget had 4 - 3 = 1 left.
    const read = await get(url, '/v1/catalog', ua);
    expect(read.status).toBe(200);
    expect(budget(read)).toMatchObject({ policy: '4;w=60', remaining: '0' });
  });

  it('at the default values the policies are 30, 120 and 120 per minute and 60 referrals per hour', async () => {
    const { url } = await start();
    expect(budget(await get(url, '/v1/health', { 'user-agent': CURL })).policy).toBe('30;w=60');
    expect(budget(await get(url, '/v1/health', { 'user-agent': BROWSER })).policy).toBe('120;w=60');
    expect(budget(await get(url, '/v1/health', { 'user-agent': DECLARED })).policy).toBe('120;w=60');
    expect(budget(await get(url, '/health')).policy).toBe('30;w=60');
    const referral = await get(url, '/v1/referrals/WELCOME-2026', { 'user-agent': BROWSER });
    expect(budget(referral)).toMatchObject({ policy: '60;w=3600', remaining: '59' });
  });
});

describe('a client that honours Retry-After', () => {
  /** A store on a clock the test moves (milliseconds): windows and Retry-After waits pass without sleeping. */
  function storeOnClock() {
    const clock = { t: 1_700_000_000_000 };
    return { clock, store: new MemoryStore({ now: () => clock.t }) };
  }

  it.each([
    ['with about 1.5 s of the window left', 1500],
    ['at the boundary: 1 s of the window left', 1000],
    ['with half a second left', 500],
  ])('waits Retry-After seconds and then succeeds (%s)', async (_name, leftMs) => {
    const { clock, store } = storeOnClock();
    const { url } = await start(SMALL, store);
    const windowStart = clock.t;
    for (let i = 0; i < 3; i++) expect((await get(url, '/v1/catalog')).status).toBe(200);
    // Move to `leftMs` before the window's end, then get refused.
    clock.t = windowStart + 60_000 - leftMs;
    const res = await get(url, '/v1/catalog');
    expect(res.status).toBe(429);
    const wait = Number(res.headers.get('retry-after'));
    expect(Number.isInteger(wait) && wait >= 1).toBe(true);
    expect(wait).toBeLessThanOrEqual(2);
    // Up to the window's last millisecond the client is still refused; after waiting what it was told, it is not.
    const refusedAt = clock.t;
    clock.t = windowStart + 60_000 - 1;
    expect((await get(url, '/v1/catalog')).status).toBe(429);
    clock.t = refusedAt + wait * 1000;
    const retry = await get(url, '/v1/catalog');
    expect(retry.status).toBe(200);
    expect(budget(retry)).toMatchObject({ remaining: '2', reset: '60' });
  });
});

describe('the client address', () => {
  it('without TRUST_PROXY a forged X-Forwarded-For changes nothing', async () => {
    const { url } = await start(SMALL);
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const res = await get(url, '/v1/catalog', { 'x-forwarded-for': `198.51.100.${i}`, forwarded: `for=198.51.100.${i}` });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('with TRUST_PROXY the address comes from the right of X-Forwarded-For, skipping trusted proxies only', async () => {
    // The test client on 127.0.0.1 plays the trusted proxy.
    const { url } = await start({ ...SMALL, TRUST_PROXY: 'loopback,10.0.0.0/8' });
    const as = (xff: string) => get(url, '/v1/catalog', { 'x-forwarded-for': xff });
    for (let i = 0; i < 3; i++) expect((await as('203.0.113.10')).status).toBe(200);
    expect((await as('203.0.113.10')).status).toBe(429);
    // A forged left part does not help: the rightmost untrusted address is still 203.0.113.10.
    expect((await as('203.0.113.99, 203.0.113.10')).status).toBe(429);
    // Trusted hops to the right are skipped.
    expect((await as('203.0.113.10, 10.1.2.3')).status).toBe(429);
    // Another client behind the proxy has its own budget.
    expect((await as('203.0.113.11')).status).toBe(200);
    // IPv6 clients share one budget per /64.
    for (let i = 1; i <= 3; i++) expect((await as(`2001:db8:7:8::${i}`)).status).toBe(200);
    expect((await as('2001:db8:7:8:ffff::1')).status).toBe(429);
    expect((await as('2001:db8:7:9::1')).status).toBe(200);
    // 6to4 subnets of one IPv4 host share that host's budget (RFC 3056): 2 via IPv4 + 1 + 1, then refused.
    for (let i = 0; i < 2; i++) expect((await as('9.9.9.9')).status).toBe(200);
    expect((await as('2002:909:909:1::1')).status).toBe(200);
    expect((await as('2002:909:909:2::1')).status).toBe(429);
    // Teredo clients of one server (one /64) count each as its own public IPv4 address (RFC 4380).
    for (let i = 0; i < 3; i++) expect((await as('2001:0:4136:e378:8000:63bf:3fff:fdd2')).status).toBe(200);
    expect((await as('2001:0:4136:e378:8000:63bf:3fff:fdd2')).status).toBe(429);
    expect((await as('2001:0:4136:e378:8000:63bf:3fff:fdd1')).status).toBe(200);
  });

  it('with TRUST_PROXY_HEADER=forwarded the RFC 7239 header is read and X-Forwarded-For ignored', async () => {
    const { url } = await start({ ...SMALL, TRUST_PROXY: 'loopback', TRUST_PROXY_HEADER: 'forwarded' });
    const as = (forwarded: string, xff: string) => get(url, '/v1/catalog', { forwarded, 'x-forwarded-for': xff });
    for (let i = 0; i < 3; i++) expect((await as('for="[2001:db8:1:1::5]:4711";proto=https', `192.0.2.${i}`)).status).toBe(200);
    expect((await as('for=203.0.113.1, for="[2001:db8:1:1::9]"', '192.0.2.200')).status).toBe(429);
    expect((await as('for=192.0.2.7', '2001:db8:1:1::5')).status).toBe(200);
  });
});

describe('pages', () => {
  it('count against the read budget, and a browser over it gets an HTML 429 with Retry-After', async () => {
    const { url } = await start(SMALL);
    const ua = { 'user-agent': BROWSER, accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const home = await get(url, '/', ua);
    expect(home.status).toBe(200);
    expect(budget(home)).toMatchObject({ limit: '4', remaining: '3', policy: '4;w=60' });
    for (let i = 0; i < 3; i++) await get(url, '/changelog', ua);
    const refused = await fetch(`${url}/roadmap`, { headers: ua });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await refused.text()).toContain('429');
    expect(refused.headers.get('retry-after')).toBe(budget(refused).reset);
    expect(budget(refused)).toMatchObject({ limit: '4', remaining: '0', policy: '4;w=60' });
    // The API keeps its JSON 429 for the same client.
    const api = await fetch(`${url}/v1/catalog`, { headers: ua });
    expect(api.status).toBe(429);
    expect(await api.json()).toMatchObject({ detail: 'Too Many Requests', retry_after_seconds: expect.any(Number) });
  });
});
