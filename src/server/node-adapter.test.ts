/**
 * The Node adapter on a real server: it writes the app's answer as given (header fields in order, `Content-Length`
 * of a byte body, a streamed body), refuses a request it cannot make a URL of with 400, and answers 500 itself
 * only when the app fails past its own error boundary.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest } from '../../test/helpers/http.js';
import type { App } from '../http/app.js';
import type { Answer } from '../http/step.js';
import { startHost, type Host } from './host.js';
import { nodeListener } from './node-adapter.js';

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close(0)));
});

/** Serves `app`; returns its URL and the errors it logged. */
async function serve(app: App): Promise<{ url: string; errors: unknown[] }> {
  const errors: unknown[] = [];
  const logger = { info: () => undefined, warn: () => undefined, error: (obj: object) => void errors.push(obj) };
  const h = await startHost(nodeListener(app, logger), { host: '127.0.0.1', port: 0 });
  hosts.push(h);
  return { url: h.url, errors };
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('the Node adapter', () => {
  it('hands the app the method, URL, header fields and peer, and writes its answer in order with its length', async () => {
    const seen: string[] = [];
    const { url } = await serve(({ method, url: u, request, ip }) => {
      seen.push(method, u.href, request.url, request.headers.get('X-Probe') ?? '', String(request.headers.has('x-none')), ip);
      return { status: 201, headers: { 'Content-Type': 'text/plain', 'X-B': 'b', 'X-A': 'a' }, body: bytes('made') };
    });
    const res = await rawRequest(url, '/v1/../v1/a%2e/x?q=%41', { headers: { host: 'Catalog.Example:8080', 'x-probe': 'yes' } });
    expect(seen).toEqual([
      'GET',
      'http://catalog.example:8080/v1/a%2e/x?q=%41',
      'http://catalog.example:8080/v1/a%2e/x?q=%41',
      'yes',
      'false',
      '127.0.0.1',
    ]);
    expect(res.status).toBe(201);
    expect(Object.keys(res.headers).filter((n) => n.startsWith('x-') || n.startsWith('content-'))).toEqual([
      'content-type',
      'x-b',
      'x-a',
      'content-length',
    ]);
    expect(res.headers['content-length']).toBe('4');
    expect(res.text).toBe('made');
  });

  it('writes a text body UTF-8 encoded, its length in bytes', async () => {
    const text = '{"input":"café € 😀 \uD800"}';
    const { url } = await serve(() => ({ status: 422, headers: { 'Content-Type': 'application/json' }, body: text }));
    const res = await rawRequest(url, '/x');
    expect(res.headers['content-length']).toBe(String(bytes(text).byteLength));
    expect(res.body.equals(bytes(text))).toBe(true);
  });

  it('keeps the length an answer without a body states (HEAD), and streams a stream body', async () => {
    const { url } = await serve(({ method }) =>
      method === 'HEAD'
        ? { status: 200, headers: { 'Content-Length': '42' }, body: null }
        : {
            status: 200,
            headers: { 'Content-Length': '6' },
            body: new ReadableStream({
              start(controller) {
                controller.enqueue(bytes('str'));
                controller.enqueue(bytes('eam'));
                controller.close();
              },
            }),
          },
    );
    const head = await rawRequest(url, '/x', { method: 'HEAD' });
    expect(head.headers['content-length']).toBe('42');
    expect(head.body.byteLength).toBe(0);
    const streamed = await rawRequest(url, '/x');
    expect(streamed.headers['content-length']).toBe('6');
    expect(streamed.text).toBe('stream');
  });

  it.each([
    ['a Host that is no authority', '/v1/catalog', { host: 'bad host/x' }],
    ['a Host with userinfo', '/v1/catalog', { host: 'user@catalog.example' }],
    ['an absolute-form target', 'http://catalog.example/v1/catalog', {}],
  ])('answers 400 to %s, without asking the app', async (_, target, headers) => {
    let asked = 0;
    const { url } = await serve(() => {
      asked++;
      return { status: 200, headers: {}, body: null };
    });
    const res = await rawRequest(url, target, { headers });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ detail: 'Bad Request' });
    expect(asked).toBe(0);
  });

  it.each([
    ['rejects', (): Promise<Answer> => Promise.reject(new Error('the app rejected'))],
    [
      'throws',
      (): Answer => {
        throw new Error('the app threw');
      },
    ],
  ])("answers the adapter's own 500 when the app %s, and logs it", async (_, app) => {
    const { url, errors } = await serve(app);
    const res = await rawRequest(url, '/x');
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json()).toEqual({ detail: 'Internal Server Error' });
    expect(errors).toEqual([expect.objectContaining({ err: expect.any(Error) })]);
  });
});
