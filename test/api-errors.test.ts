/**
 * The error boundary on the real Node host: an unexpected exception becomes a 500 with the contract body and
 * a request id, logged with that id and never shown to the client; an answer of a step of another module carries
 * the common headers too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/http/app.js';
import { HealthReport } from '../src/http/health.js';
import { respond } from '../src/http/respond.js';
import type { Step } from '../src/http/step.js';
import { buildIndex } from '../src/index/build.js';
import { buildReferralAnswers } from '../src/referrals/answers.js';
import { startHost, type Host } from '../src/server/host.js';
import { nodeListener } from '../src/server/node-adapter.js';
import { rawRequest } from './helpers/http.js';
import { sampleModel } from './helpers/sample-model.js';
import { nodeCodec } from '../src/server/node-codec.js';
import { errorAnswers } from '../src/http/html-errors.js';
import { ERROR_PAGES } from '../src/server/app.js';

const logged: Array<{ level: string; obj: Record<string, unknown>; msg?: string }> = [];
const logger = {
  info: (obj: object, msg?: string) => logged.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
  warn: (obj: object, msg?: string) => logged.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
  error: (obj: object, msg?: string) => logged.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
};

let host: Host;
/** While true, reading the index throws (an "unexpected" bug). */
let failing = true;

beforeAll(async () => {
  const index = await buildIndex(sampleModel(), { codec: nodeCodec, publicBaseUrl: 'http://localhost:8080' });
  // A step of "another module" that answers one path.
  const foreign: Step = (ctx) => {
    if (ctx.url.pathname === '/foreign') return respond(ctx, 200, new TextEncoder().encode('plain'), { 'Content-Type': 'text/plain' });
  };
  const app = createApp({
    errors: errorAnswers(ERROR_PAGES),
    getIndex: () => {
      if (failing) throw new Error('boom: secret internal detail');
      return index;
    },
    health: new HealthReport({ revision: index.revision }),
    referrals: { isValid: () => true },
    referralAnswers: await buildReferralAnswers(nodeCodec),
    logger,
    extraHandlers: [foreign],
  });
  host = await startHost(nodeListener(app, logger), { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await host?.close(1000);
});

describe('error boundary', () => {
  it('answers 500 {"detail":"Internal Server Error"} and logs the error with the request id', async () => {
    const res = await rawRequest(host.url, '/v1/catalog', { headers: { 'x-request-id': 'req-500-test' } });
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json()).toEqual({ detail: 'Internal Server Error' });
    expect(res.text).not.toContain('boom');
    expect(res.headers['x-request-id']).toBe('req-500-test');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const error = logged.find((l) => l.level === 'error' && l.obj.request_id === 'req-500-test');
    expect(error).toBeDefined();
    expect((error!.obj.err as Error).message).toBe('boom: secret internal detail');
    expect(logged.find((l) => l.msg === 'request' && l.obj.request_id === 'req-500-test')?.obj.status).toBe(500);
  });

  it('/health touches only memory and still answers', async () => {
    const res = await rawRequest(host.url, '/health');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', revision: 'sha256:0001' });
  });

  it('gives the answer of a step of another module the common headers', async () => {
    failing = false;
    const res = await rawRequest(host.url, '/foreign', { headers: { 'x-request-id': 'foreign-1' } });
    expect(res.status).toBe(200);
    expect(res.text).toBe('plain');
    expect(res.headers['x-request-id']).toBe('foreign-1');
    expect(res.headers['access-control-expose-headers']).toContain('ETag');
  });

  it('a request the host cannot turn into a URL gets a JSON 400', async () => {
    const res = await rawRequest(host.url, '/v1/catalog', { headers: { host: 'bad host name with spaces' } });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ detail: 'Bad Request' });
  });
});
