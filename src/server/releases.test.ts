/**
 * `/releases/` on the real server: static release files with validators, through the same steps as every route
 * (request id, budgets, access log), answering a client that half-closes after its request.
 */
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/helpers/server.js';

let dir: string;
let srv: TestServer;
let base: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'releases-'));
  await writeFile(join(dir, 'latest.json'), '{"version":"1.0.0"}\n');
  await writeFile(join(dir, 'syllabus-1.0.0.tar.gz'), Buffer.from([0x1f, 0x8b, 1, 2, 3]));
  await writeFile(join(dir, '.secret'), 'hidden');
  await symlink('/etc/passwd', join(dir, 'passwd'));
  srv = await startTestServer({ env: { RELEASES_DIR: dir } });
  base = srv.url;
});

afterAll(async () => {
  await srv.close();
  await rm(dir, { recursive: true, force: true });
});

describe('/releases/ through the app', () => {
  it('gets a request id, the RateLimit fields and an access-log line like any route', async () => {
    const res = await fetch(`${base}/releases/latest.json`, { headers: { 'x-request-id': 'rel-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('rel-1');
    expect(res.headers.get('ratelimit-policy')).toMatch(/;w=60$/);
    expect(await srv.accessLine('rel-1')).toMatchObject({ msg: 'request', path: '/releases/latest.json', status: 200, bytes: 20 });
  });

  it('answers a client that half-closes after sending its request', async () => {
    const { port } = new URL(base);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true }, () => {
        socket.end('GET /releases/latest.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      });
      let text = '';
      socket.setEncoding('utf8').on('data', (c: string) => (text += c));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain('{"version":"1.0.0"}');
  });

  it('redirects /releases to /releases/', async () => {
    const res = await fetch(`${base}/releases`, { redirect: 'manual' });
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe('/releases/');
  });
});

describe('/releases/ static files', () => {
  it('serves the manifest with a revalidating cache policy and answers If-None-Match with 304', async () => {
    const first = await fetch(`${base}/releases/latest.json`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(first.headers.get('cache-control')).toBe('public, no-cache');
    expect(await first.json()).toEqual({ version: '1.0.0' });
    const etag = first.headers.get('etag')!;
    const second = await fetch(`${base}/releases/latest.json`, { headers: { 'if-none-match': etag } });
    expect(second.status).toBe(304);
  });

  it('serves versioned archives byte for byte as immutable', async () => {
    const res = await fetch(`${base}/releases/syllabus-1.0.0.tar.gz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([0x1f, 0x8b, 1, 2, 3]);
  });

  it.each([
    '/releases/missing.json',
    '/releases/.secret',
    '/releases/passwd',
    '/releases/..%2Fetc%2Fpasswd',
    '/releases/%2e%2e/%2e%2e/etc/passwd',
    '/releases/%E0%A4%A',
    '/releases/',
  ])('answers 404 in the API error shape for %s', async (path) => {
    // node:http sends the path as written (fetch would normalise dot segments away).
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const { hostname, port } = new URL(base);
      get({ hostname, port, path }, (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk: string) => (text += chunk))
          .on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      }).on('error', reject);
    });
    expect(status).toBe(404);
    expect(JSON.parse(body)).toEqual({ detail: 'Not Found' });
  });

  it('refuses other methods with 405 and Allow', async () => {
    const res = await fetch(`${base}/releases/latest.json`, { method: 'POST', body: 'x' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  it('leaves every other path to the rest of the app', async () => {
    const res = await fetch(`${base}/v1/catalog`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { courses: unknown[] }).courses.length).toBeGreaterThan(0);
  });
});
