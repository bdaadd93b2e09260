import { describe, expect, it } from 'vitest';
import { sampleModel } from '../../test/helpers/sample-model.js';
import type { AliasTable, ContentModel } from '../content/model.js';
import { nodeCodec } from '../server/node-codec.js';
import { buildIndex } from './build.js';

const BASE = 'https://catalog.example.com';
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

/** The sample model with these old ids (the content validator has checked them). */
function withAliases(aliases: Partial<AliasTable>): ContentModel {
  const model = sampleModel({ withDeprecation: false });
  return { ...model, aliases: { ...model.aliases, ...aliases } };
}

describe('the index redirects', () => {
  it('answer each old course and lesson id at its API path with the current path and the contract body', async () => {
    const model = withAliases({ courses: new Map([['python-intro', 'python-basics']]), lessons: new Map([['py-first', 'py-one']]) });
    const index = await buildIndex(model, { codec: nodeCodec, publicBaseUrl: BASE });
    expect([...index.redirects.keys()].sort()).toEqual(['/v1/courses/python-intro', '/v1/lessons/py-first']);
    const lesson = index.redirects.get('/v1/lessons/py-first')!;
    expect(lesson.location).toBe('/v1/lessons/py-one');
    expect(lesson.contentType).toBe('application/json');
    expect(JSON.parse(text(lesson.body))).toEqual({ detail: 'Lesson "py-first" is now "py-one"' });
    expect(lesson.cacheControl).toBe(index.representations.get('/v1/lessons/py-one')!.cacheControl);
    expect(index.redirects.get('/v1/courses/python-intro')!.location).toBe('/v1/courses/python-basics');
  });

  it('redirect an old course page id when the pages are rendered, with an empty body', async () => {
    const model = withAliases({ courses: new Map([['python-intro', 'python-basics']]) });
    const page = (id: string) => [`/courses/${id}`, { contentType: 'text/html; charset=utf-8', body: id }] as const;
    const index = await buildIndex(model, {
      codec: nodeCodec,
      publicBaseUrl: BASE,
      renderers: [(m) => m.catalog.courses.map((c) => page(c.id))],
    });
    const moved = index.redirects.get('/courses/python-intro')!;
    expect(moved).toMatchObject({ location: '/courses/python-basics', contentType: null });
    expect(moved.body.byteLength).toBe(0);
  });

  it('put the published base URL before the path when there is one', async () => {
    const model = withAliases({ lessons: new Map([['py-first', 'py-one']]) });
    const index = await buildIndex(model, { codec: nodeCodec, publicBaseUrl: BASE, locationBase: `${BASE}/catalog` });
    expect(index.redirects.get('/v1/lessons/py-first')!.location).toBe(`${BASE}/catalog/v1/lessons/py-one`);
  });

  it('leave an old id whose current resource is not served to answer 404, like the current id', async () => {
    const index = await buildIndex(withAliases({ lessons: new Map([['py-old', 'py-gone']]) }), { codec: nodeCodec, publicBaseUrl: BASE });
    expect(index.redirects.size).toBe(0);
  });

  it('follow a reload: an alias added is there, one removed is gone', async () => {
    const first = await buildIndex(withAliases({ lessons: new Map([['py-first', 'py-one']]) }), { codec: nodeCodec, publicBaseUrl: BASE });
    const next = await buildIndex(withAliases({ lessons: new Map([['py-second', 'py-two']]) }), {
      codec: nodeCodec,
      publicBaseUrl: BASE,
      previous: first,
    });
    expect([...next.redirects.keys()]).toEqual(['/v1/lessons/py-second']);
  });

  it('refuse an old id that is also a served path (the validator keeps aliases from being live ids)', async () => {
    const model = withAliases({ lessons: new Map([['py-two', 'py-one']]) });
    await expect(buildIndex(model, { codec: nodeCodec, publicBaseUrl: BASE })).rejects.toThrow(
      'the old id "py-two" is also served at /v1/lessons/py-two',
    );
  });
});
