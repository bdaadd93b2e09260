import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { sampleModel } from '../../test/helpers/sample-model.js';
import { buildIndex, completeCompression, type DerivedEntry } from './build.js';
import { awaitsRendering, compressRepresentation, deferredRepresentation, MIN_COMPRESSIBLE_BYTES } from './representation.js';
import type { IndexCodec } from './codec.js';
import { IndexHolder } from './holder.js';
import { nodeCodec } from '../server/node-codec.js';

const BASE = 'https://catalog.example.com';
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

describe('buildIndex', () => {
  it('serialises every API body once, with both encodings and a strong ETag of the identity bytes', async () => {
    const model = sampleModel({ withDeprecation: false });
    // A catalog big enough to be compressed.
    model.catalog.courses[1] = { ...model.catalog.courses[1]!, blurb: 'Coming later. '.repeat(40) };
    const index = await buildIndex(model, { codec: nodeCodec, publicBaseUrl: BASE, now: () => new Date('2026-02-01T00:00:00Z') });
    expect([...index.representations.keys()].sort()).toEqual(
      [
        '/v1',
        '/v1/catalog',
        '/v1/changelog',
        '/v1/courses/python-basics',
        '/v1/courses/rust-soon',
        '/v1/health',
        '/v1/lessons/py-one',
        '/v1/lessons/py-two',
        '/v1/roadmap',
      ].sort(),
    );
    const catalog = index.representations.get('/v1/catalog')!;
    expect(JSON.parse(text(catalog.body))).toEqual(model.catalog);
    expect(catalog.body.byteLength).toBeGreaterThanOrEqual(MIN_COMPRESSIBLE_BYTES);
    expect(text(gunzipSync(catalog.gzip!))).toBe(text(catalog.body));
    expect(text(brotliDecompressSync(catalog.br!))).toBe(text(catalog.body));
    expect(catalog.br!.byteLength).toBeLessThan(catalog.body.byteLength);
    // Bodies too small to gain are kept identity-only.
    const health = index.representations.get('/v1/health')!;
    expect(health.gzip).toBeNull();
    expect(health.br).toBeNull();
    expect(catalog.etag).toBe(`"${createHash('sha256').update(catalog.body).digest('base64url')}"`);
    expect(catalog.contentType).toBe('application/json');
    expect(catalog.cacheControl).toBe('public, max-age=60');
    expect(JSON.parse(text(index.representations.get('/v1/lessons/py-two')!.body))).toEqual(model.catalog.courses[0]!.classes[0]!.lessons[1]);
    expect(JSON.parse(text(index.representations.get('/v1/health')!.body))).toEqual({ status: 'ok', version: 'v1' });
    expect(index.builtAt).toBe('2026-02-01T00:00:00.000Z');
    expect(index.revision).toBe('sha256:0001');
    expect(index.deprecations.size).toBe(0);
    expect(catalog.headers).toEqual({});
  });

  it('makes the courses before the catalog, which is put together from their bytes rather than serialised whole', async () => {
    const model = sampleModel({ withDeprecation: false });
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const index = await buildIndex(model, { codec: nodeCodec, publicBaseUrl: BASE });
      expect(stringify.mock.calls.some(([value]) => value === model.catalog.courses[0])).toBe(true);
      expect(stringify.mock.calls.some(([value]) => value === model.catalog)).toBe(false);
      expect(text(index.representations.get('/v1/catalog')!.body)).toBe(JSON.stringify(model.catalog));
    } finally {
      stringify.mockRestore();
    }
  });

  it('puts RFC 9745 / RFC 8594 deprecation headers on the deprecated route only', async () => {
    const index = await buildIndex(sampleModel(), { codec: nodeCodec, publicBaseUrl: BASE });
    const expected = {
      Deprecation: `@${Date.UTC(2026, 0, 15) / 1000}`,
      Sunset: 'Tue, 30 Jun 2026 00:00:00 GMT',
      Link: `<${BASE}/changelog#roadmap-moves>; rel="deprecation"`,
    };
    expect(index.representations.get('/v1/roadmap')!.headers).toEqual(expected);
    expect(index.deprecations.get('/v1/roadmap')).toEqual(expected);
    expect(index.representations.get('/v1/catalog')!.headers).toEqual({});
  });

  it('applies a template deprecation to every resource of the route, and the earliest sunset wins', async () => {
    const model = sampleModel({ withDeprecation: false });
    model.changelog.entries[0]!.deprecates = [{ path: '/v1/lessons/{lesson_id}', sunset: '2026-09-01' }];
    model.changelog.entries.push({
      ...model.changelog.entries[0]!,
      id: 'earlier',
      date: '2026-01-20',
      deprecates: [{ path: '/v1/lessons/{lesson_id}', sunset: '2026-08-01' }],
    });
    const index = await buildIndex(model, { codec: nodeCodec, publicBaseUrl: BASE });
    for (const id of ['py-one', 'py-two']) {
      expect(index.representations.get(`/v1/lessons/${id}`)!.headers).toMatchObject({
        Sunset: 'Sat, 01 Aug 2026 00:00:00 GMT',
        Link: `<${BASE}/changelog#earlier>; rel="deprecation"`,
      });
    }
  });

  it('rejects a deprecation of a path that matches no route', async () => {
    const model = sampleModel();
    model.changelog.entries[0]!.deprecates = [{ path: '/v2/nothing', sunset: '2026-09-01' }];
    await expect(buildIndex(model, { codec: nodeCodec, publicBaseUrl: BASE })).rejects.toThrow(/is not a route of the API/);
  });

  it("treats renderer entries like API bodies, refuses duplicate paths and the static routes (not the index's)", async () => {
    const index = await buildIndex(sampleModel(), {
      codec: nodeCodec,
      publicBaseUrl: BASE,
      renderers: [
        (model, ctx) => [
          [
            '/',
            {
              contentType: 'text/html; charset=utf-8',
              body: `<h1>${model.catalog.courses.length} courses at ${ctx.publicBaseUrl}</h1>${'<p>padding</p>'.repeat(100)}`,
              cacheControl: 'public, max-age=60',
              headers: { 'X-Content-Type-Options': 'nosniff' },
            },
          ],
        ],
      ],
    });
    const page = index.representations.get('/')!;
    expect(text(page.body)).toBe(`<h1>2 courses at ${BASE}</h1>${'<p>padding</p>'.repeat(100)}`);
    expect(text(gunzipSync(page.gzip!))).toBe(text(page.body));
    expect(page.headers).toEqual({ 'X-Content-Type-Options': 'nosniff' });
    expect(index.representations.has('/openapi.json')).toBe(false);
    await expect(
      buildIndex(sampleModel(), {
        codec: nodeCodec,
        publicBaseUrl: BASE,
        renderers: [() => [['/openapi.json', { contentType: 'application/json', body: '{}' }]]],
      }),
    ).rejects.toThrow(/index entry "\/openapi.json" is not a path of a route the index serves/);
    await expect(
      buildIndex(sampleModel(), {
        codec: nodeCodec,
        publicBaseUrl: BASE,
        renderers: [() => [['/v1/catalog', { contentType: 'text/plain', body: 'x' }]]],
      }),
    ).rejects.toThrow(/two index entries for \/v1\/catalog/);
  });

  it('reuses unchanged representations of the previous index and rebuilds changed ones', async () => {
    const first = await buildIndex(sampleModel(), { codec: nodeCodec, publicBaseUrl: BASE });
    const second = await buildIndex(sampleModel({ revision: 'sha256:0002', courseTitle: 'Python, renamed' }), {
      codec: nodeCodec,
      publicBaseUrl: BASE,
      previous: first,
    });
    expect(second.representations.get('/v1/roadmap')).toBe(first.representations.get('/v1/roadmap'));
    expect(second.representations.get('/v1/lessons/py-one')).toBe(first.representations.get('/v1/lessons/py-one'));
    expect(second.representations.get('/v1/catalog')).not.toBe(first.representations.get('/v1/catalog'));
    expect(second.representations.get('/v1/catalog')!.etag).not.toBe(first.representations.get('/v1/catalog')!.etag);
  });
});

describe('IndexHolder', () => {
  it('swaps in one assignment and reports reload status as strings', async () => {
    const first = await buildIndex(sampleModel(), { codec: nodeCodec, publicBaseUrl: BASE });
    const holder = new IndexHolder(first);
    const seen: string[] = [];
    holder.subscribe((s) => seen.push(s.last_reload_error));
    expect(holder.status()).toEqual({ revision: 'sha256:0001', built_at: first.builtAt, last_reload_error: '', last_reload_at: '' });
    holder.recordReloadError('content/x.md:1:1: bad', new Date('2026-03-01T00:00:00Z'));
    expect(holder.current).toBe(first);
    expect(holder.status()).toMatchObject({ last_reload_error: 'content/x.md:1:1: bad', last_reload_at: '2026-03-01T00:00:00.000Z' });
    const second = await buildIndex(sampleModel({ revision: 'sha256:0002' }), { codec: nodeCodec, publicBaseUrl: BASE, previous: first });
    holder.swap(second);
    expect(holder.current).toBe(second);
    expect(holder.status()).toMatchObject({ revision: 'sha256:0002', last_reload_error: '' });
    expect(seen).toEqual(['content/x.md:1:1: bad', '']);
  });
});

describe('deferred compression', () => {
  const bigModel = () => {
    const model = sampleModel({ withDeprecation: false });
    model.catalog.courses[1] = { ...model.catalog.courses[1]!, blurb: 'Coming later. '.repeat(40) };
    return model;
  };

  it('serves new bodies uncompressed at once, and completeCompression adds gzip and br with the same bodies and ETags', async () => {
    const deferred = await buildIndex(bigModel(), { codec: nodeCodec, publicBaseUrl: BASE, deferCompression: true });
    const catalog = deferred.representations.get('/v1/catalog')!;
    expect(catalog.body.byteLength).toBeGreaterThanOrEqual(MIN_COMPRESSIBLE_BYTES);
    expect(catalog.gzip).toBeNull();
    expect(catalog.br).toBeNull();

    const full = await completeCompression(nodeCodec, deferred);
    expect(full).not.toBe(deferred);
    expect(full.revision).toBe(deferred.revision);
    expect(full.builtAt).toBe(deferred.builtAt);
    const compressed = full.representations.get('/v1/catalog')!;
    expect(compressed.etag).toBe(catalog.etag);
    expect(compressed.body).toBe(catalog.body);
    expect(text(gunzipSync(compressed.gzip!))).toBe(text(catalog.body));
    expect(text(brotliDecompressSync(compressed.br!))).toBe(text(catalog.body));
    // Small bodies are shared as they were; a complete index is returned as is.
    expect(full.representations.get('/v1/health')).toBe(deferred.representations.get('/v1/health'));
    expect(await completeCompression(nodeCodec, full)).toBe(full);
  });

  it('deferRendering: a page made while the index is being compressed is compressed once, by itself', async () => {
    const bodies: string[] = [];
    const codec: IndexCodec = {
      ...nodeCodec,
      compress: (body, contentType) => {
        bodies.push(text(body));
        return nodeCodec.compress(body, contentType);
      },
    };
    // Large enough to be compressed on the thread pool: the page's own compression is still running when the pass
    // looks at the index.
    const html = `<h1>Home</h1>${Array.from({ length: 2000 }, (_, i) => `<p>paragraph ${i}</p>`).join('')}`;
    const renderers = [(): DerivedEntry[] => [['/', { contentType: 'text/html; charset=utf-8', inputs: [html], render: () => html }]]];
    const lazy = await buildIndex(sampleModel(), { codec, publicBaseUrl: BASE, renderers, deferCompression: true, deferRendering: true });
    const home = lazy.representations.get('/')!;
    expect(text(home.body)).toBe(html); // its first request, just before the start's compression pass
    const full = await completeCompression(codec, lazy);
    await vi.waitFor(() => expect(home.br).not.toBeNull());
    expect(bodies.filter((b) => b === html)).toHaveLength(1);
    expect(full.representations.get('/')).toBe(home);
    // Nor does compressing it on its own: a copy of a deferred representation would lose its body.
    expect(await compressRepresentation(codec, home)).toBe(home);
    expect(bodies.filter((b) => b === html)).toHaveLength(1);
  });

  it('a deferred body whose renderer throws throws the same error on its next read, then is made once it renders', () => {
    let calls = 0;
    const rep = deferredRepresentation(nodeCodec, {
      contentType: 'text/html; charset=utf-8',
      render: () => {
        calls++;
        if (calls < 3) throw new Error('renderer failed');
        return '<p>made</p>';
      },
    });
    expect(() => rep.body).toThrow('renderer failed');
    expect(() => rep.etag).toThrow('renderer failed');
    expect(text(rep.body)).toBe('<p>made</p>');
    expect(rep.etag).toMatch(/^"[\w-]+"$/);
    expect(calls).toBe(3);
  });

  it('deferRendering: a page is rendered on first need, once, to the bytes and tags an eager build gives', async () => {
    const renders = new Map<string, number>();
    let inputs: unknown = 'first';
    const page = (path: string, html: string): DerivedEntry => [
      path,
      {
        contentType: 'text/html; charset=utf-8',
        headers: { 'X-Content-Type-Options': 'nosniff' },
        inputs: [html, inputs],
        render: () => {
          renders.set(path, (renders.get(path) ?? 0) + 1);
          return html;
        },
      },
    ];
    const renderers = [() => [page('/', `<h1>Home</h1>${'<p>padding</p>'.repeat(100)}`), page('/roadmap', '<h1>Roadmap</h1>')]];
    const eager = await buildIndex(sampleModel(), { codec: nodeCodec, publicBaseUrl: BASE, renderers, deferCompression: true });
    renders.clear();
    const lazy = await buildIndex(sampleModel(), { codec: nodeCodec, publicBaseUrl: BASE, renderers, deferCompression: true, deferRendering: true });
    expect(renders.size).toBe(0); // nothing rendered by the build
    // The API's own bodies are never deferred: the first request (the catalog) needs no render.
    expect(Object.getOwnPropertyDescriptor(lazy.representations.get('/v1/catalog'), 'body')).toHaveProperty('value');

    const home = lazy.representations.get('/')!;
    expect(home.contentType).toBe('text/html; charset=utf-8');
    expect(home.cacheControl).toBe(eager.representations.get('/')!.cacheControl);
    expect(renders.size).toBe(0); // labels are known without rendering
    expect(home.etag).toBe(eager.representations.get('/')!.etag);
    expect(text(home.body)).toBe(text(eager.representations.get('/')!.body));
    expect([home.gzipEtag, home.brEtag]).toEqual([eager.representations.get('/')!.gzipEtag, eager.representations.get('/')!.brEtag]);
    expect(renders).toEqual(new Map([['/', 1]]));

    // A page compresses itself once made, after a yield (never while the request that made it waits).
    expect([home.gzip, home.br]).toEqual([null, null]);
    await vi.waitFor(() => expect(home.gzip).not.toBeNull());
    expect(text(gunzipSync(home.gzip!))).toBe(text(home.body));
    expect(text(brotliDecompressSync(home.br!))).toBe(text(home.body));
    expect(home.etag).toBe(eager.representations.get('/')!.etag);

    // completeCompression leaves the pages alone: a page nobody asked for stays unrendered, a made one is compressed.
    const full = await completeCompression(nodeCodec, lazy);
    expect(renders).toEqual(new Map([['/', 1]]));
    expect(full.representations.get('/roadmap')).toBe(lazy.representations.get('/roadmap'));
    expect(awaitsRendering(full.representations.get('/roadmap')!)).toBe(true);
    const compressed = full.representations.get('/')!;
    expect(compressed).toBe(home);
    expect(compressed.etag).toBe(home.etag);
    expect(text(gunzipSync(compressed.gzip!))).toBe(text(home.body));
    expect(text(full.representations.get('/roadmap')!.body)).toBe('<h1>Roadmap</h1>');
    expect(renders).toEqual(
      new Map([
        ['/', 1],
        ['/roadmap', 1],
      ]),
    );

    // A page the previous index had, from other inputs, is made at once: equal bytes keep the previous representation.
    inputs = {};
    renders.clear();
    const next = await buildIndex(sampleModel(), {
      codec: nodeCodec,
      publicBaseUrl: BASE,
      renderers,
      previous: full,
      deferCompression: true,
      deferRendering: true,
    });
    expect(renders).toEqual(
      new Map([
        ['/', 1],
        ['/roadmap', 1],
      ]),
    );
    expect(next.representations.get('/')).toBe(compressed);
  });

  it('deferRendering: a lesson body is made by its first request, as an eager build makes it; the catalog and courses at once', async () => {
    const eager = await buildIndex(sampleModel(), { codec: nodeCodec, publicBaseUrl: BASE, deferCompression: true });
    const lazy = await buildIndex(sampleModel(), { codec: nodeCodec, publicBaseUrl: BASE, deferCompression: true, deferRendering: true });
    for (const path of ['/v1/catalog', '/v1/courses/python-basics', '/v1/health', '/v1/changelog', '/v1/roadmap']) {
      expect(awaitsRendering(lazy.representations.get(path)!), path).toBe(false);
    }
    const one = lazy.representations.get('/v1/lessons/py-one')!;
    const eagerOne = eager.representations.get('/v1/lessons/py-one')!;
    expect(awaitsRendering(one)).toBe(true);
    expect([one.contentType, one.cacheControl, one.headers]).toEqual([eagerOne.contentType, eagerOne.cacheControl, eagerOne.headers]);
    expect(one.etag).toBe(eagerOne.etag);
    expect(awaitsRendering(one)).toBe(false);
    expect(text(one.body)).toBe(text(eagerOne.body));

    // A reload keeps an unchanged lesson's representation, made or not, and serves a changed lesson's new body.
    const model = sampleModel({ revision: 'sha256:0002' });
    const changed: typeof model = {
      ...model,
      catalog: {
        courses: model.catalog.courses.map((course) => ({
          ...course,
          classes: course.classes.map((k) => ({ ...k, lessons: k.lessons.map((l) => (l.id === 'py-two' ? { ...l, steps: 9 } : l)) })),
        })),
      },
    };
    const next = await buildIndex(changed, { codec: nodeCodec, publicBaseUrl: BASE, previous: lazy, deferCompression: true, deferRendering: true });
    expect(next.representations.get('/v1/lessons/py-one')).toBe(one);
    expect(JSON.parse(text(next.representations.get('/v1/lessons/py-two')!.body))).toMatchObject({ id: 'py-two', steps: 9 });
  });

  it('completeCompression has at most codec.compressionsAtOnce calls in flight, and that many while work is left', async () => {
    let inFlight = 0;
    let most = 0;
    const codec: IndexCodec = {
      ...nodeCodec,
      compressionsAtOnce: 2,
      async compress(body, contentType) {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        return nodeCodec.compress(body, contentType);
      },
    };
    const model = bigModel();
    model.catalog.courses[0] = { ...model.catalog.courses[0]!, blurb: 'Start here. '.repeat(40) };
    model.catalog.courses[1] = { ...model.catalog.courses[1]!, blurb: 'Coming later. '.repeat(80) };
    const deferred = await buildIndex(model, { codec, publicBaseUrl: BASE, deferCompression: true });
    const pending = [...deferred.representations.values()].filter((rep) => rep.gzip === null && rep.body.byteLength >= MIN_COMPRESSIBLE_BYTES);
    expect(pending.length).toBeGreaterThan(2);
    await completeCompression(codec, deferred);
    expect(most).toBe(2);
  });

  it('a deferred rebuild reuses the compressed forms of unchanged bodies', async () => {
    const first = await completeCompression(nodeCodec, await buildIndex(bigModel(), { codec: nodeCodec, publicBaseUrl: BASE }));
    const model = bigModel();
    model.changelog.entries[0] = { ...model.changelog.entries[0]!, title: 'Changed' };
    const next = await buildIndex(model, { codec: nodeCodec, publicBaseUrl: BASE, previous: first, deferCompression: true });
    expect(next.representations.get('/v1/catalog')).toBe(first.representations.get('/v1/catalog'));
    expect(next.representations.get('/v1/changelog')).not.toBe(first.representations.get('/v1/changelog'));
  });

  it('IndexHolder.upgrade swaps only while the index it replaces is still served', async () => {
    const a = await buildIndex(bigModel(), { codec: nodeCodec, publicBaseUrl: BASE, deferCompression: true });
    const holder = new IndexHolder(a);
    const statusBefore = holder.status();
    const aFull = await completeCompression(nodeCodec, a);
    expect(holder.upgrade(a, aFull)).toBe(true);
    expect(holder.current).toBe(aFull);
    expect(holder.status()).toEqual(statusBefore);
    const b = await buildIndex(bigModel(), { codec: nodeCodec, publicBaseUrl: BASE, deferCompression: true });
    holder.swap(b);
    expect(holder.upgrade(aFull, await completeCompression(nodeCodec, aFull))).toBe(false);
    expect(holder.current).toBe(b);
  });
});
