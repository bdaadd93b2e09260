import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { removeTree, writeContentFixture } from '../../test/helpers/content-fixture.js';
import { ContentLoader } from '../content/loader.js';
import type { ContentModel } from '../content/model.js';
import { indexBuilder } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { nodeCodec } from '../server/node-codec.js';
import { buildIndex, completeCompression, type Renderer } from './build.js';
import { needsCompression } from './representation.js';
import type { CatalogIndex, Representation } from './types.js';

const config = loadConfig({ CONTENT_DIR: '.', PUBLIC_BASE_URL: 'https://catalog.example.com' });
const build = indexBuilder(config);
const LESSON = 'courses/python-basics/first-steps/hello-world.md';

let dir: string;
let loader: ContentLoader;
/** The index served, as the service keeps it: each reload built on the previous one, then compressed. */
let served: CatalogIndex;

beforeEach(async () => {
  dir = await writeContentFixture();
  loader = new ContentLoader(dir);
  served = await completeCompression(nodeCodec, await build(modelOf(await loader.load())));
});
afterEach(() => removeTree(dir));

function modelOf(result: Awaited<ReturnType<ContentLoader['load']>>): ContentModel {
  if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('\n'));
  return result.model;
}

/** What a client can see of a representation (everything but the object's identity). */
function visible(rep: Representation) {
  const { contentType, body, gzip, br, etag, gzipEtag, brEtag, cacheControl, headers } = rep;
  return {
    contentType,
    body: Buffer.from(body),
    gzip: gzip && Buffer.from(gzip),
    br: br && Buffer.from(br),
    etag,
    gzipEtag,
    brEtag,
    cacheControl,
    headers,
  };
}

/** Reloads the reported files as the service does; the index swapped in (or kept, on invalid content). */
async function reload(changed: string[]): Promise<CatalogIndex> {
  const result = await loader.loadChanged(changed);
  if (result.ok) served = await completeCompression(nodeCodec, await build(result.model, served));
  return served;
}

/**
 * Makes every page of `index` not rendered yet, as requests would, and waits until each has compressed itself: a
 * page's compressed forms follow its first rendering in the background.
 */
async function settled(index: CatalogIndex): Promise<CatalogIndex> {
  const reps = [...index.representations.values()];
  for (const rep of reps) void rep.body;
  await vi.waitFor(() => expect(reps.filter(needsCompression)).toEqual([]));
  return index;
}

/** The incremental index equals one built from scratch from the same folder: paths, bytes, ETags, headers. */
async function expectSameAsFromScratch(index: CatalogIndex): Promise<void> {
  const scratch = await settled(await completeCompression(nodeCodec, await build(modelOf(await new ContentLoader(dir).load()))));
  await settled(index);
  expect(index.revision).toBe(scratch.revision);
  expect([...index.representations.keys()]).toEqual([...scratch.representations.keys()]);
  for (const [path, rep] of scratch.representations) expect(visible(index.representations.get(path)!), path).toEqual(visible(rep));
  expect(index.deprecations).toEqual(scratch.deprecations);
  expect(index.model).toEqual(scratch.model);
  expect(Object.isFrozen(index)).toBe(true);
}

async function edit(rel: string, change: (text: string) => string): Promise<void> {
  await writeFile(join(dir, rel), change(await readFile(join(dir, rel), 'utf8')));
}

describe('an incremental reload', () => {
  it('rebuilds what derives from an edited lesson and takes every other representation as it was', async () => {
    const before = served;
    await edit(LESSON, (t) => t.replace('title: Hello, world', 'title: Hello again'));
    const index = await reload([LESSON]);
    await expectSameAsFromScratch(index);
    const same = (path: string) => index.representations.get(path) === before.representations.get(path);
    // Derived from the lesson: its body, its course's body and page, the catalog. (The course map is rendered again
    // but shows no lesson title: its bytes are equal, so the previous representation is kept.)
    for (const path of ['/v1/lessons/hello-world', '/v1/courses/python-basics', '/courses/python-basics', '/v1/catalog']) {
      expect(same(path), path).toBe(false);
    }
    // Not derived from it: the very objects of the previous index, compressed forms included.
    for (const path of [
      '/v1/lessons/variables',
      '/v1/lessons/select-star',
      '/v1/courses/sql-basics',
      '/courses/sql-basics',
      '/v1/changelog',
      '/changelog',
      '/roadmap',
    ]) {
      expect(same(path), path).toBe(true);
    }
    expect(index.model.catalog.courses[1]).toBe(before.model.catalog.courses[1]);
    expect(index.model.changelog).toBe(before.model.changelog);
  });

  it('matches a build from scratch after adds, removals, a rename across courses, a catalog change and a changelog change', async () => {
    // Add a lesson.
    await writeFile(join(dir, 'courses/sql-basics/select/where.md'), '---\ntitle: WHERE\nlang: sql\n---\n\n## Filter\n\nKeep some rows.\n');
    await edit('courses/sql-basics/select/index.md', (t) => t.replace('lessons: [select-star]', 'lessons: [select-star, where]'));
    await expectSameAsFromScratch(await reload(['courses/sql-basics/select/where.md', 'courses/sql-basics/select/index.md']));

    // Remove one.
    await rm(join(dir, 'courses/python-basics/first-steps/variables.md'));
    await edit('courses/python-basics/first-steps/index.md', (t) => t.replace('lessons: [hello-world, variables]', 'lessons: [hello-world]'));
    const removed = await reload(['courses/python-basics/first-steps/variables.md', 'courses/python-basics/first-steps/index.md']);
    await expectSameAsFromScratch(removed);
    expect(removed.representations.has('/v1/lessons/variables')).toBe(false);

    // Move one to another course (same id).
    const from = 'courses/python-basics/loops/for-loops.md';
    const to = 'courses/sql-basics/select/for-loops.md';
    await writeFile(join(dir, to), await readFile(join(dir, from), 'utf8'));
    await rm(join(dir, from));
    await edit('courses/python-basics/loops/index.md', (t) => t.replace('lessons: [for-loops]', 'lessons: [hello-again]'));
    await writeFile(join(dir, 'courses/python-basics/loops/hello-again.md'), '---\ntitle: Again\nlang: python\n---\n\n## Once more\n\nText.\n');
    await edit('courses/sql-basics/select/index.md', (t) => t.replace('lessons: [select-star, where]', 'lessons: [select-star, where, for-loops]'));
    const moved = await reload([
      from,
      to,
      'courses/python-basics/loops/index.md',
      'courses/python-basics/loops/hello-again.md',
      'courses/sql-basics/select/index.md',
    ]);
    await expectSameAsFromScratch(moved);
    expect(JSON.parse(Buffer.from(moved.representations.get('/v1/lessons/for-loops')!.body).toString())).toMatchObject({ course_id: 'sql-basics' });

    // Reorder the catalog.
    await edit('catalog.md', (t) =>
      t.replace('courses: [python-basics, sql-basics, rust-intro]', 'courses: [sql-basics, python-basics, rust-intro]'),
    );
    const before = served;
    const reordered = await reload(['catalog.md']);
    await expectSameAsFromScratch(reordered);
    expect(reordered.representations.get('/v1/courses/sql-basics')).toBe(before.representations.get('/v1/courses/sql-basics'));

    // A changelog entry stops deprecating a route: its headers go, on the route and the pages that list it.
    await edit('changelog/api-v1-2025-06-10.md', (t) => t.replace(/deprecates:\n.*\n.*\n/, ''));
    const undeprecated = await reload(['changelog/api-v1-2025-06-10.md']);
    await expectSameAsFromScratch(undeprecated);
    expect(undeprecated.representations.get('/v1/roadmap')!.headers).toEqual({});
    expect(undeprecated.representations.get('/v1/courses/python-basics')).toBe(reordered.representations.get('/v1/courses/python-basics'));
  });

  it('keeps the last good index on an invalid edit, then matches a build from scratch once it is fixed', async () => {
    const good = served;
    await edit(LESSON, (t) => t.replace('title: Hello, world\n', ''));
    expect(await reload([LESSON])).toBe(good);
    await edit(LESSON, (t) => t.replace('---\n', '---\ntitle: Fixed\n'));
    const fixed = await reload([LESSON]);
    await expectSameAsFromScratch(fixed);
    expect(fixed.representations.get('/v1/lessons/select-star')).toBe(good.representations.get('/v1/lessons/select-star'));
  });
});

describe('buildIndex with a previous index', () => {
  it('renders a derived entry again only when one of its inputs is another object or value', async () => {
    const model = modelOf(await loader.load());
    const rendered: string[] = [];
    const renderer: Renderer = (m) =>
      m.catalog.courses.map((course) => [
        `/courses/${course.id}`,
        {
          contentType: 'text/plain',
          inputs: [course],
          render: () => {
            rendered.push(course.id);
            return course.title;
          },
        },
      ]);
    const opts = { codec: nodeCodec, publicBaseUrl: 'https://x.example', renderers: [renderer] };
    const first = await buildIndex(model, opts);
    expect(rendered).toEqual(['python-basics', 'sql-basics', 'rust-intro']);
    const retitled = { ...model.catalog.courses[0]!, title: 'Python' };
    const next = { ...model, catalog: { courses: [retitled, ...model.catalog.courses.slice(1)] } };
    const second = await buildIndex(next, { ...opts, previous: first });
    expect(rendered).toEqual(['python-basics', 'sql-basics', 'rust-intro', 'python-basics']);
    expect(second.representations.get('/courses/sql-basics')).toBe(first.representations.get('/courses/sql-basics'));
    expect(Buffer.from(second.representations.get('/courses/python-basics')!.body).toString()).toBe('Python');
    // Without a previous index, everything is rendered.
    await buildIndex(next, opts);
    expect(rendered).toHaveLength(7);
  });
});
