import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { docsRepresentations } from '../server/docs-assets.js';
import { nodeCodec } from '../server/node-codec.js';
import { routeNamed } from '../contract/routes.js';
import type { IndexEntry } from './build.js';
import { buildRepresentation } from './representation.js';
import { StaticRepresentations } from './static-representations.js';

/** The bundle's path: its content-hashed name. */
const BUNDLE = docsRepresentations()
  .map(([path]) => path)
  .find((path) => path.startsWith('/docs/assets/swagger-ui-bundle.'))!;

/** The production producer, counting its calls. */
function counted(): { produce: () => IndexEntry[]; calls: () => number } {
  let calls = 0;
  return {
    produce: () => {
      calls++;
      return docsRepresentations();
    },
    calls: () => calls,
  };
}

describe('StaticRepresentations', () => {
  it('reads nothing until asked, then once however many ask at once', async () => {
    const { produce, calls } = counted();
    const statics = new StaticRepresentations(nodeCodec, produce);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls()).toBe(0);
    const answers = await Promise.all(Array.from({ length: 50 }, async () => statics.get(BUNDLE)));
    expect(calls()).toBe(1);
    expect(new Set(answers).size).toBe(1);
    // Built: answered at once, not through a promise, and still not produced again.
    expect(statics.get(BUNDLE)).not.toBeInstanceOf(Promise);
    expect(statics.get('/docs/assets/nope.js')).toBeUndefined();
    await statics.warm();
    expect(calls()).toBe(1);
  });

  it('serves the same bytes, ETags, headers and Cache-Control as the index built them, compressed once warm', async () => {
    const statics = new StaticRepresentations(nodeCodec, () => docsRepresentations());
    await statics.warm();
    for (const [path, source] of docsRepresentations()) {
      const route = path === '/docs' ? routeNamed('docs') : routeNamed('docsAsset');
      const expected = await buildRepresentation(nodeCodec, { ...source, cacheControl: route.cacheControl });
      const rep = (await statics.get(path))!;
      expect(Buffer.from(rep.body).equals(expected.body), path).toBe(true);
      expect(rep.etag, path).toBe(expected.etag);
      expect(rep.headers, path).toEqual(expected.headers);
      expect(rep.cacheControl, path).toBe(route.cacheControl);
      expect(rep.br === null, path).toBe(expected.br === null);
    }
    const bundle = (await statics.get(BUNDLE))!;
    expect(brotliDecompressSync(bundle.br!).equals(bundle.body)).toBe(true);
  });

  it('refuses a path that is not a static route, and does not build again after a failure', async () => {
    let calls = 0;
    const statics = new StaticRepresentations(nodeCodec, () => {
      calls++;
      return [['/v1/catalog', { contentType: 'application/json', body: '{}' }]];
    });
    await expect(statics.get('/v1/catalog')).rejects.toThrow(/not a path of a static route/);
    await expect(statics.warm()).rejects.toThrow(/not a path of a static route/);
    expect(calls).toBe(1);
  });
});
