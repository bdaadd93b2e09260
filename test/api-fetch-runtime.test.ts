/**
 * The app's HatTip handler over the Fetch API: it answers a standard `Request` without any Node host,
 * as it would on another Fetch runtime (test/architecture.test.ts checks that nothing under `src/http/` imports Node).
 */
import { describe, expect, it } from 'vitest';
import type { AdapterRequestContext } from '@hattip/core';
import { createApp } from '../src/http/app.js';
import { hattipHandler } from '../src/http/hattip.js';
import { HealthReport } from '../src/http/health.js';
import type { ReferralLookup } from '../src/http/referrals.js';
import { buildIndex } from '../src/index/build.js';
import { buildReferralAnswers } from '../src/referrals/answers.js';
import { sampleModel } from './helpers/sample-model.js';
import { nodeCodec } from '../src/server/node-codec.js';
import { errorAnswers } from '../src/http/html-errors.js';
import { ERROR_PAGES } from '../src/server/app.js';
import { routeNamed } from '../src/contract/routes.js';

const silent = { info() {}, warn() {}, error() {} };

/** The HatTip handler serving the sample model's index, with these referral lookups. */
async function sampleApp(referrals: ReferralLookup | undefined) {
  const index = await buildIndex(sampleModel(), { codec: nodeCodec, publicBaseUrl: 'https://catalog.example' });
  const app = hattipHandler(
    createApp({
      errors: errorAnswers(ERROR_PAGES),
      getIndex: () => index,
      health: new HealthReport({ revision: index.revision }),
      referrals,
      referralAnswers: await buildReferralAnswers(nodeCodec),
      logger: silent,
    }),
  );
  return { index, app };
}

function context(url: string, init?: RequestInit): AdapterRequestContext {
  return { request: new Request(url, init), ip: '192.0.2.1', platform: {}, env: () => undefined, passThrough() {}, waitUntil() {} };
}

describe('the app on the Fetch API alone', () => {
  it('answers standard Requests', async () => {
    const { index, app } = await sampleApp({ isValid: (code) => code === 'GOOD-CODE' });
    const course = await app(context('https://catalog.example/v1/courses/python-basics'));
    expect(course.status).toBe(200);
    expect(course.headers.get('etag')).toBe(index.representations.get('/v1/courses/python-basics')!.etag);
    expect((await course.json()) as unknown).toEqual(index.model.catalog.courses[0]);

    const roadmap = await app(
      context('https://catalog.example/v1/roadmap', { headers: { 'if-none-match': index.representations.get('/v1/roadmap')!.etag } }),
    );
    expect(roadmap.status).toBe(304);
    expect(roadmap.headers.get('deprecation')).toMatch(/^@\d+$/);

    expect(await (await app(context('https://catalog.example/v1/referrals/GOOD-CODE'))).json()).toEqual({ valid: true });
    const bad = await app(context('https://catalog.example/v1/lessons/Bad_Id'));
    expect(bad.status).toBe(422);
    const missing = await app(context('https://catalog.example/v1/lessons/nope'));
    expect(await missing.json()).toEqual({ detail: 'Lesson not found' });
    const health = await app(context('https://catalog.example/health', { method: 'HEAD' }));
    expect(health.status).toBe(200);
    expect(health.headers.get('cache-control')).toBe('no-store');
  });

  it('without a referral source answers a check 503 {"detail": …}, no-store and without Retry-After: never a verdict', async () => {
    const { app } = await sampleApp(undefined);
    for (const code of ['GOOD-CODE', 'WELCOME-2026']) {
      const res = await app(context(`https://catalog.example/v1/referrals/${code}`));
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('retry-after')).toBeNull();
      expect((await res.json()) as unknown).toEqual({ detail: routeNamed('referral').unavailable });
    }
    // A malformed code is still a 422 (validation comes first), and HEAD the same 503 without a body.
    expect((await app(context('https://catalog.example/v1/referrals/no'))).status).toBe(422);
    const head = await app(context('https://catalog.example/v1/referrals/GOOD-CODE', { method: 'HEAD' }));
    expect([head.status, await head.text()]).toEqual([503, '']);
  });
});
