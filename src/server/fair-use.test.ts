import { compose } from '@hattip/compose';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { createFairUse } from './fair-use.js';

const logger = { warn: () => {}, info: () => {}, error: () => {} };

describe('createFairUse', () => {
  it('builds memory-store steps from the configuration and reports the store on /health', async () => {
    const config = loadConfig({ RATE_LIMIT_ANONYMOUS: '2', TRUST_PROXY: '10.0.0.0/8', TRUST_PROXY_HEADER: 'Forwarded' }, '/tmp');
    expect(config.trustProxyHeader).toBe('forwarded');
    const reported: Array<Record<string, string>> = [];
    const fairUse = await createFairUse(config, { logger, reportHealth: (f) => reported.push(f), decorate: true });
    expect(reported).toEqual([{ rate_limit_store: 'memory', rate_limit_store_status: 'ok' }]);
    const handler = compose(fairUse.clientAddress, fairUse.clientKind, fairUse.rateLimit, (ctx) =>
      new Response(ctx.locals.clientAddress),
    );
    const call = (forwarded: string) =>
      handler({
        request: new Request('http://127.0.0.1/v1/catalog', { headers: { forwarded, 'x-forwarded-for': '6.6.6.6' } }),
        ip: '10.0.0.1',
        platform: {},
        env: () => undefined,
        passThrough: () => {},
        waitUntil: () => {},
      } as never);
    const first = await call('for=203.0.113.5');
    expect(await first.text()).toBe('203.0.113.5');
    expect(first.headers.get('ratelimit-policy')).toBe('2;w=60');
    await call('for=203.0.113.5');
    expect((await call('for=203.0.113.5')).status).toBe(429);
    expect((await call('for=203.0.113.6')).status).toBe(200);
    await fairUse.close();
  });

  it('rejects an unknown TRUST_PROXY_HEADER', () => {
    expect(() => loadConfig({ TRUST_PROXY_HEADER: 'x-real-ip' }, '/tmp')).toThrow(ConfigError);
  });
});
