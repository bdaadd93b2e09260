import { gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { IMMUTABLE_CACHE_CONTROL, routeNamed } from '../contract/routes.js';
import { completeCompression } from '../index/build.js';
import { indexBuilder } from '../server/app.js';
import { nodeCodec } from '../server/node-codec.js';
import { loadConfig } from '../server/config.js';
import { pagesModel } from '../../test/helpers/pages-model.js';

/** A configuration as the environment would give it. */
const testConfig = (env: Record<string, string>) => loadConfig({ CONTENT_DIR: '.', ...env });

describe('the pages in buildIndex (as production builds its index)', () => {
  it('stores every page next to the API bodies with an ETag, compressed forms and the security headers', async () => {
    const index = await completeCompression(nodeCodec, await indexBuilder(testConfig({ PUBLIC_BASE_URL: 'http://127.0.0.1:8080' }))(pagesModel()));
    for (const path of [
      '/',
      '/courses/python-foundations',
      '/changelog',
      '/roadmap',
      '/changelog.atom',
      '/favicon.ico',
      '/robots.txt',
      '/sitemap.xml',
      '/v1/catalog',
    ]) {
      expect(index.representations.has(path), path).toBe(true);
    }
    const home = index.representations.get('/')!;
    expect(home.contentType).toBe('text/html; charset=utf-8');
    expect(home.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    // A page is made by its first read (a request) and compresses itself after it.
    await vi.waitFor(() => expect(home.gzip).not.toBeNull());
    expect(new TextDecoder().decode(gunzipSync(home.gzip!))).toBe(new TextDecoder().decode(home.body));
    expect(home.headers['Content-Security-Policy']).toContain("default-src 'none'");
    expect(home.cacheControl).toBe('public, max-age=60');
  });

  it('gives each site file the Cache-Control of its route in the table', async () => {
    const index = await indexBuilder(testConfig({ PUBLIC_BASE_URL: 'http://127.0.0.1:8080' }))(pagesModel());
    const assets = [...index.representations].filter(([path]) => path.startsWith('/assets/'));
    expect(assets.map(([path]) => path.replace(/\.[\w-]{16}\./, '.<hash>.')).sort()).toEqual([
      '/assets/courses.<hash>.css',
      '/assets/favicon.<hash>.svg',
      '/assets/site.<hash>.css',
    ]);
    for (const [path, rep] of assets) expect(rep.cacheControl, path).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(index.representations.get('/favicon.ico')!.cacheControl).toBe(routeNamed('favicon').cacheControl);
    expect(index.representations.get('/robots.txt')!.cacheControl).toBe(routeNamed('robots').cacheControl);
    expect(index.representations.get('/sitemap.xml')!.cacheControl).toBe(routeNamed('sitemap').cacheControl);
  });
});
