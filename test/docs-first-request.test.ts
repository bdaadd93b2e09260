/**
 * `/docs`, its assets and `/openapi.json` are built on first need, not before the service listens nor after it
 * (issue 18): the index does not hold them, nothing builds them until a request asks, and the first requests, however
 * many at once, get what the index used to serve; their compressed forms follow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsRepresentations } from '../src/server/docs-assets.js';
import { nodeCodec } from '../src/server/node-codec.js';
import { awaitsRendering, strongEtag } from '../src/index/representation.js';
import { eventually } from './helpers/eventually.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const UA = { 'User-Agent': 'docs-first-request-test' };
/** The bundle's path: its content-hashed name. */
const BUNDLE = docsRepresentations()
  .map(([path]) => path)
  .find((path) => path.startsWith('/docs/assets/swagger-ui-bundle.'))!;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ start: { watch: false } });
});
afterAll(async () => {
  await server?.close();
});

describe('the static documents after start', () => {
  it('leave the pages to their first requests too: rendered by the first, compressed after it', async () => {
    await server.server.compressed;
    const reps = server.server.holder.current.representations;
    expect(awaitsRendering(reps.get('/roadmap')!)).toBe(true);
    const first = await fetch(`${server.url}/roadmap`, { headers: { ...UA, 'Accept-Encoding': 'br' } });
    expect(first.status).toBe(200);
    expect(awaitsRendering(reps.get('/roadmap')!)).toBe(false);
    await eventually(
      async () => (await fetch(`${server.url}/roadmap`, { headers: { ...UA, 'Accept-Encoding': 'br' } })).headers.get('content-encoding') === 'br',
      { what: '/roadmap served br-encoded' },
    );
  });

  it('are not built into the index before serving', () => {
    const reps = server.server.holder.current.representations;
    for (const path of ['/docs', BUNDLE, '/openapi.json']) expect(reps.has(path), path).toBe(false);
  });

  it('answer a burst of first requests with the bytes and ETag of the Swagger UI files, then 304, HEAD and 405', async () => {
    const expected = new Map(docsRepresentations());
    const body = expected.get(BUNDLE)!.body;
    const etag = strongEtag(nodeCodec, body);
    const first = await Promise.all(
      Array.from({ length: 10 }, () => fetch(`${server.url}${BUNDLE}`, { headers: { ...UA, 'Accept-Encoding': 'identity' } })),
    );
    for (const res of first) {
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
    }
    const notModified = await fetch(`${server.url}${BUNDLE}`, { headers: { ...UA, 'Accept-Encoding': 'identity', 'If-None-Match': etag } });
    expect(notModified.status).toBe(304);
    const head = await fetch(`${server.url}/docs`, { method: 'HEAD', headers: UA });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-security-policy')).toContain("default-src 'none'");
    const post = await fetch(`${server.url}/openapi.json`, { method: 'POST', headers: UA });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('are served compressed once their compression, which follows their build, is done', async () => {
    await eventually(
      async () => (await fetch(`${server.url}${BUNDLE}`, { headers: { ...UA, 'Accept-Encoding': 'br' } })).headers.get('content-encoding') === 'br',
      { what: 'the Swagger UI bundle served br-encoded' },
    );
    const res = await fetch(`${server.url}${BUNDLE}`, { headers: { ...UA, 'Accept-Encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/\.br"$/);
  });
});
