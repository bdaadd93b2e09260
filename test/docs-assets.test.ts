/**
 * `/docs`'s files on the real server: named by their bytes as the site's assets are, linked by the page under those
 * names, `immutable`, compressed as every representation is; the former unhashed names are a 404; and each file is a
 * read, so an address over its budget cannot pull the 1.7 MB Swagger UI bundle (issue 44: 200 pipelined requests
 * from a refused address returned 280 MB).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './helpers/eventually.js';
import { rawRequest } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The `/docs/assets/` paths the page links (scripts, stylesheet, icons), in page order. */
function linkedFiles(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!);
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { RATE_LIMIT_ANONYMOUS: '3' }, start: { watch: false } });
});
afterAll(async () => {
  await server?.close();
});

/** A declared agent: a budget of 120, where an anonymous client (no `User-Agent`) gets 3 here. */
const AGENT = { 'user-agent': 'docs-assets-test/1.0' };

/** A request from another loopback address: another client with a budget of its own. */
const from = (localAddress: string, path: string, headers: Record<string, string> = {}) => rawRequest(server.url, path, { headers, localAddress });

describe('the files of /docs', () => {
  it('are linked by content-hashed names that answer 200, immutable, with 304s and compressed forms', async () => {
    const page = await from('127.0.0.2', '/docs');
    expect(page.status).toBe(200);
    const files = linkedFiles(page.text);
    expect(files.map((f) => f.replace(/\.[\w-]{16}\./, '.<hash>.'))).toEqual([
      '/docs/assets/swagger-ui.<hash>.css',
      '/docs/assets/favicon-32x32.<hash>.png',
      '/docs/assets/favicon-16x16.<hash>.png',
      '/docs/assets/swagger-ui-bundle.<hash>.js',
      '/docs/assets/init.<hash>.js',
    ]);
    const bundle = files.find((f) => f.includes('/swagger-ui-bundle.'))!;
    // Compression follows the build in the background; identity is served meanwhile.
    let poll = 0;
    const polled = () => from(`127.0.2.${++poll % 250}`, bundle, { ...AGENT, 'accept-encoding': 'br' });
    await eventually(async () => (await polled()).headers['content-encoding'] === 'br', {
      what: 'the bundle served br-encoded',
    });
    // One address per file, as a declared agent: each file is a read, asked for in three encodings and a 304.
    for (const [i, file] of files.entries()) {
      const address = `127.0.1.${i + 1}`;
      const identity = await from(address, file, { ...AGENT, 'accept-encoding': 'identity' });
      expect(identity.status, file).toBe(200);
      expect(identity.headers['cache-control'], file).toBe(IMMUTABLE);
      expect(identity.headers['x-content-type-options'], file).toBe('nosniff');
      const revalidated = await from(address, file, { ...AGENT, 'accept-encoding': 'identity', 'if-none-match': identity.headers.etag! });
      expect(revalidated.status, file).toBe(304);
      // The icons are PNG, and the start-up script too small to gain: both served as they are.
      if (file.endsWith('.png') || file.includes('/init.')) continue;
      for (const coding of ['gzip', 'br']) {
        const res = await from(address, file, { ...AGENT, 'accept-encoding': coding });
        expect(res.headers['content-encoding'], `${file} ${coding}`).toBe(coding);
        expect(res.headers['cache-control'], file).toBe(IMMUTABLE);
        expect(res.headers.vary, file).toMatch(/accept-encoding/i);
        expect(res.body.byteLength).toBeLessThan(identity.body.byteLength);
      }
    }
    expect((await from('127.0.0.4', bundle, { 'accept-encoding': 'identity' })).body.byteLength).toBeGreaterThan(1_000_000);
  });

  it('are not under their former unhashed names, nor under another hash', async () => {
    for (const path of [
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/init.js',
      '/docs/assets/swagger-ui.css',
      '/docs/assets/init.AAAAAAAAAAAAAAAA.js',
    ]) {
      const res = await from('127.0.0.5', path, AGENT);
      expect(res.status, path).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not Found' });
    }
  });

  it('each spend the read budget, so an address over it cannot pull the bundle', async () => {
    const address = '127.0.0.6';
    // The page itself is free: it reports the budget without spending it.
    const page = await from(address, '/docs');
    expect(page.headers['ratelimit-remaining']).toBe('3');
    const bundle = linkedFiles(page.text).find((f) => f.includes('/swagger-ui-bundle.'))!;
    const first = await from(address, bundle, { 'accept-encoding': 'identity' });
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-remaining']).toBe('2');
    expect((await from(address, '/v1/catalog')).status).toBe(200);
    expect((await from(address, '/v1/catalog')).status).toBe(200);
    expect((await from(address, '/v1/catalog')).status).toBe(429);
    // Refused on the API: the bundle is refused too, however many ask at once.
    const burst = await Promise.all(Array.from({ length: 50 }, () => from(address, bundle, { 'accept-encoding': 'identity' })));
    expect(new Set(burst.map((res) => res.status))).toEqual(new Set([429]));
    // Fifty refusals, explanations and all, weigh less than one copy of the bundle.
    expect(burst.reduce((bytes, res) => bytes + res.body.byteLength, 0)).toBeLessThan(first.body.byteLength);
    expect(burst[0]!.headers['retry-after']).toMatch(/^\d+$/);
  });
});
