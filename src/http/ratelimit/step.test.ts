import { describe, expect, it } from 'vitest';
import type { AdapterRequestContext } from '@hattip/core';
import { sampleModel } from '../../../test/helpers/sample-model.js';
import { buildIndex } from '../../index/build.js';
import { buildReferralAnswers } from '../../referrals/answers.js';
import { ERROR_PAGES } from '../../server/app.js';
import { nodeCodec } from '../../server/node-codec.js';
import { createApp } from '../app.js';
import { clientAddressStep } from '../client-address.js';
import { clientKindStep } from '../client-kind.js';
import { hattipHandler } from '../hattip.js';
import { HealthReport } from '../health.js';
import { errorAnswers } from '../html-errors.js';
import { respond } from '../respond.js';
import type { Step } from '../step.js';
import { MemoryStore } from './memory-store.js';
import { rateLimitStep } from './step.js';

const index = await buildIndex(sampleModel(), { codec: nodeCodec, publicBaseUrl: 'https://catalog.example' });
const referralAnswers = await buildReferralAnswers(nodeCodec);

/** The app with the client-address → client-kind → rate-limit chain, called as its HatTip handler. */
function app(refuse?: Parameters<typeof rateLimitStep>[0]['refuse']) {
  // Paths the router does not know: one that throws, one that answers a redirect.
  const extra: Step = (ctx) => {
    if (ctx.url.pathname === '/v1/boom') throw new Error('boom');
    if (ctx.url.pathname === '/v1/redirect') return respond(ctx, 308, null, { Location: '/v1/catalog' });
  };
  const handler = hattipHandler(
    createApp({
      getIndex: () => index,
      health: new HealthReport({ revision: index.revision }),
      referrals: undefined,
      referralAnswers,
      logger: { info() {}, warn() {}, error() {} },
      errors: errorAnswers(ERROR_PAGES),
      clientAddress: clientAddressStep(),
      clientKind: clientKindStep(),
      rateLimit: rateLimitStep({ store: new MemoryStore(), limits: { verified: 8, declared: 4, browser: 4, anonymous: 2, referrals: 5 }, refuse }),
      extraHandlers: [extra],
    }),
  );
  return async (path: string, init: { ua?: string; ip?: string } = {}): Promise<Response> => {
    const ctx: AdapterRequestContext = {
      request: new Request(`http://127.0.0.1${path}`, { headers: init.ua ? { 'user-agent': init.ua } : {} }),
      ip: init.ip ?? '198.51.100.1',
      platform: {},
      env: () => undefined,
      passThrough: () => {},
      waitUntil: () => {},
    };
    return handler(ctx);
  };
}

const fields = (res: Response) => ({
  limit: res.headers.get('ratelimit-limit'),
  remaining: res.headers.get('ratelimit-remaining'),
  reset: res.headers.get('ratelimit-reset'),
  policy: res.headers.get('ratelimit-policy'),
});

describe('rateLimitStep', () => {
  it('puts the fields on 200, 404, 500 and 308 answers, and refuses with a JSON 429', async () => {
    const call = app();
    const ok = await call('/v1/catalog');
    expect(ok.status).toBe(200);
    expect(fields(ok)).toEqual({ limit: '2', remaining: '1', reset: '60', policy: '2;w=60' });
    const missing = await call('/v1/nope');
    expect(missing.status).toBe(404);
    expect(fields(missing).remaining).toBe('0');
    const refused = await call('/v1/catalog');
    expect(refused.status).toBe(429);
    // Which budget ran out, the larger ones from the limits given, when to retry: consistent with the headers.
    expect(await refused.json()).toMatchObject({
      detail: 'Too Many Requests',
      budget: { name: 'read', client_kind: 'anonymous', policy: fields(refused).policy, limit: 2, window_seconds: 60 },
      retry_after_seconds: Number(refused.headers.get('retry-after')),
      larger_budgets: [
        { client_kind: 'declared', policy: '4;w=60' },
        { client_kind: 'verified', policy: '8;w=60' },
      ],
    });
    expect(refused.headers.get('content-type')).toBe('application/json');
    expect(refused.headers.get('retry-after')).toBe(fields(refused).reset);
    expect(fields(refused).policy).toBe('2;w=60');

    const other = app();
    const boom = await other('/v1/boom');
    expect(boom.status).toBe(500);
    expect(fields(boom).limit).toBe('2');
    const redirect = await other('/v1/redirect');
    expect(redirect.status).toBe(308);
    expect(fields(redirect).remaining).toBe('0');
  });

  it('never refuses /health and reports the budget without spending it', async () => {
    const call = app();
    for (let i = 0; i < 3; i++) await call('/v1/catalog');
    const health = await call('/health');
    expect(health.status).toBe(200);
    expect(fields(health)).toMatchObject({ limit: '2', remaining: '0', policy: '2;w=60' });
  });

  it('budgets by User-Agent kind', async () => {
    const call = app();
    const browser = 'Mozilla/5.0 (X11; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0';
    expect(fields(await call('/v1/catalog', { ua: browser })).policy).toBe('4;w=60');
    expect(fields(await call('/v1/catalog', { ua: 'acme-sync/2.1 (+https://acme.example/bot)' })).policy).toBe('4;w=60');
    expect(fields(await call('/v1/catalog', { ua: 'curl/8.5.0' })).policy).toBe('2;w=60');
  });

  it('uses the refusal body given and still adds Retry-After and the fields', async () => {
    const call = app((ctx) => respond(ctx, 429, new TextEncoder().encode('<p>slow down</p>'), { 'Content-Type': 'text/html' }));
    await call('/');
    await call('/');
    const refused = await call('/');
    expect(refused.status).toBe(429);
    expect(await refused.text()).toBe('<p>slow down</p>');
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(fields(refused).limit).toBe('2');
  });

  it('counts IPv6 clients per /64', async () => {
    const call = app();
    await call('/v1/catalog', { ip: '2001:db8:1:2::1' });
    await call('/v1/catalog', { ip: '2001:db8:1:2::ffff' });
    expect((await call('/v1/catalog', { ip: '2001:db8:1:2:abcd::9' })).status).toBe(429);
    expect((await call('/v1/catalog', { ip: '2001:db8:1:3::1' })).status).toBe(200);
  });
});
