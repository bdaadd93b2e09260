import { fromHtml } from 'hast-util-from-html';
import { select, selectAll } from 'hast-util-select';
import { describe, expect, it } from 'vitest';
import { pagesModel } from '../../test/helpers/pages-model.js';
import type { AliasTable, ContentModel } from '../content/model.js';
import { nodeCodec } from '../server/node-codec.js';
import { pageSources, renderPages } from './index.js';
import { oldIdsByCurrent, oldIdsKey } from './old-ids.js';

const BASE = 'https://catalog.syllabus.test';

function withAliases(aliases: Partial<AliasTable>, model = pagesModel()): ContentModel {
  return { ...model, aliases: { ...model.aliases, ...aliases } };
}

function page(model: ContentModel, path: string) {
  const entry = new Map(renderPages(model, { publicBaseUrl: BASE, digest: nodeCodec.digest })).get(path)!;
  return fromHtml(String(entry.body));
}

describe('old ids on the pages', () => {
  it('inverts an alias map, old ids in code point order', () => {
    const old = oldIdsByCurrent(
      new Map([
        ['b-old', 'x'],
        ['a-old', 'x'],
        ['c', 'y'],
      ]),
    );
    expect([...old]).toEqual([
      ['x', ['a-old', 'b-old']],
      ['y', ['c']],
    ]);
    expect(oldIdsKey(old, ['y', 'z', 'x'])).toBe('y<c x<a-old,b-old');
  });

  it('keep old class and lesson ids as anchor targets inside the renamed class and lesson of the course page', () => {
    const model = withAliases({
      classes: new Map([['python-foundations', new Map([['first-steps', 'basics']])]]),
      lessons: new Map([['py-vals', 'py-values']]),
    });
    const root = page(model, '/courses/python-foundations');
    expect(select('li#class-basics > span#class-first-steps[data-old-id="first-steps"]:empty', root)).toBeDefined();
    expect(select('li#lesson-py-values > span#lesson-py-vals:empty', root)).toBeDefined();
    // A class id is scoped by its course: the same old id on another course's page names nothing there.
    expect(select('#class-first-steps', page(model, '/courses/the-shell'))).toBeUndefined();
    // Ids stay unique on the page.
    const ids = selectAll('[id]', root).map((el) => String(el.properties.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keep an old changelog entry id as an anchor target inside the entry', () => {
    const root = page(withAliases({ changelog: new Map([['shell-course', 'shell-course-2026-03-02']]) }), '/changelog');
    expect(select('li#shell-course-2026-03-02 > span#shell-course:empty', root)).toBeDefined();
    expect(selectAll('[data-old-id]', root)).toHaveLength(1);
  });

  it('leave out an old id whose anchor would repeat an element id the page has (a live id keeps its fragment)', () => {
    const course = page(
      withAliases({
        classes: new Map([
          [
            'python-foundations',
            new Map([
              ['objects-title', 'basics'],
              ['intro', 'basics'],
            ]),
          ],
        ]),
      }),
      '/courses/python-foundations',
    );
    expect(select('#class-objects-title', course)?.tagName).toBe('h2');
    expect(selectAll('[data-old-id]', course).map((el) => el.properties.id)).toEqual(['class-intro']);
    const changelog = page(
      withAliases({
        changelog: new Map([
          ['main', 'shell-course-2026-03-02'],
          ['month-2026-02', 'shell-course-2026-03-02'],
          ['roadmap-json-2026-03-01-title', 'shell-course-2026-03-02'],
        ]),
      }),
      '/changelog',
    );
    expect(selectAll('[data-old-id]', changelog)).toHaveLength(0);
    const ids = selectAll('[id]', changelog).map((el) => String(el.properties.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('render a page again when the old ids pointing into it change, and only that page', () => {
    const model = pagesModel();
    const sources = (m: ContentModel) => new Map(pageSources(m, { publicBaseUrl: BASE, digest: nodeCodec.digest }));
    const before = sources(model);
    const changed = (aliases: Partial<AliasTable>) =>
      [...sources(withAliases(aliases, model))]
        .filter(([path, source]) => {
          const was = before.get(path)!;
          return source.inputs.length !== was.inputs.length || source.inputs.some((input, i) => input !== was.inputs[i]);
        })
        .map(([path]) => path);
    expect(changed({ classes: new Map([['the-shell', new Map([['moving', 'navigating']])]]) })).toEqual(['/courses/the-shell']);
    expect(changed({ lessons: new Map([['py-vals', 'py-values']]) })).toEqual(['/courses/python-foundations']);
    expect(changed({ changelog: new Map([['shell-course', 'shell-course-2026-03-02']]) })).toEqual(['/changelog']);
    // An alias of an id no page shows changes nothing.
    expect(changed({ lessons: new Map([['old', 'no-such-lesson']]) })).toEqual([]);
  });
});
