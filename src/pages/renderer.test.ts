import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../index/build.js';
import { pagesModel } from '../../test/helpers/pages-model.js';
import { pagesRenderer } from './index.js';

describe('pagesRenderer in buildIndex', () => {
  it('stores every page next to the API bodies with an ETag, compressed forms and the security headers', async () => {
    const index = await buildIndex(pagesModel(), { publicBaseUrl: 'http://127.0.0.1:8080', renderers: [pagesRenderer] });
    for (const path of ['/', '/courses/python-foundations', '/changelog', '/roadmap', '/changelog.atom', '/assets/site.css', '/v1/catalog']) {
      expect(index.representations.has(path), path).toBe(true);
    }
    const home = index.representations.get('/')!;
    expect(home.contentType).toBe('text/html; charset=utf-8');
    expect(home.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(new TextDecoder().decode(gunzipSync(home.gzip!))).toBe(new TextDecoder().decode(home.body));
    expect(home.headers['Content-Security-Policy']).toContain("default-src 'none'");
    expect(home.cacheControl).toBe('public, max-age=60');
  });
});
