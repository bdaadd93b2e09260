/**
 * Slow-client limits on the real Node host (with short limits so the test is quick): a client that never
 * finishes its request head is answered 408 and disconnected; an oversized head is refused with 431.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/http/app.js';
import { HealthReport } from '../src/http/health.js';
import { buildIndex } from '../src/index/build.js';
import { buildReferralAnswers } from '../src/referrals/answers.js';
import { startHost, type Host } from '../src/server/host.js';
import { nodeListener } from '../src/server/node-adapter.js';
import { rawRequest } from './helpers/http.js';
import { sampleModel } from './helpers/sample-model.js';
import { nodeCodec } from '../src/server/node-codec.js';
import { errorAnswers } from '../src/http/html-errors.js';
import { ERROR_PAGES } from '../src/server/app.js';

const silent = { info() {}, warn() {}, error() {} };
let host: Host;

beforeAll(async () => {
  const index = await buildIndex(sampleModel(), { codec: nodeCodec, publicBaseUrl: 'http://localhost' });
  const app = createApp({
    errors: errorAnswers(ERROR_PAGES),
    getIndex: () => index,
    health: new HealthReport(),
    referrals: { isValid: () => false },
    referralAnswers: await buildReferralAnswers(nodeCodec),
    logger: silent,
  });
  host = await startHost(nodeListener(app, silent), {
    host: '127.0.0.1',
    port: 0,
    limits: { headersTimeoutMs: 300, requestTimeoutMs: 600, checkIntervalMs: 100, maxHeaderSizeBytes: 4096 },
  });
});
afterAll(async () => {
  await host?.close(1000);
});

/** Sends `head` and never finishes; resolves with what the server sent before closing. */
function stall(head: string): Promise<string> {
  const { hostname, port } = new URL(host.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let received = '';
    socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

describe('slow and oversized clients', () => {
  it('a request head that never ends gets 408 and the connection is closed', async () => {
    const answer = await stall('GET /v1/catalog HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('{"detail":"Request Timeout"}');
  });

  it('a head over the size limit gets 431', async () => {
    const res = await rawRequest(host.url, '/v1/catalog', { headers: { 'x-big': 'b'.repeat(5000) } });
    expect(res.status).toBe(431);
    expect(res.json()).toEqual({ detail: 'Request Header Fields Too Large' });
  });

  it('a well-behaved request is unaffected', async () => {
    expect((await rawRequest(host.url, '/v1/health')).status).toBe(200);
  });
});
