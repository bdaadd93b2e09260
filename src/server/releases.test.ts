import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReleasesHandler } from './releases.js';

let dir: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'releases-'));
  await writeFile(join(dir, 'latest.json'), '{"version":"1.0.0"}\n');
  await writeFile(join(dir, 'syllabus-1.0.0.tar.gz'), Buffer.from([0x1f, 0x8b, 1, 2, 3]));
  await writeFile(join(dir, '.secret'), 'hidden');
  await symlink('/etc/passwd', join(dir, 'passwd'));
  const releases = createReleasesHandler(dir);
  server = createServer((req, res) => {
    if (releases(req, res)) return;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('app');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
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

  it('leaves every other path to the app', async () => {
    const res = await fetch(`${base}/v1/catalog`);
    expect(await res.text()).toBe('app');
  });
});
