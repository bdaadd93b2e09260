import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ContentLoader } from '../content/loader.js';
import type { ContentModel } from '../content/model.js';
import { writeContentFixture } from '../../test/helpers/content-fixture.js';
import { lessonPage } from './lesson-page.js';

const HELLO = 'courses/python-basics/first-steps/hello-world.md';
const dirs: string[] = [];

afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** The fixture loaded, then `change` made to the lesson's file on disk (the page reads the file when asked). */
async function fixture(change: (text: string) => string): Promise<{ dir: string; model: ContentModel }> {
  const dir = await writeContentFixture();
  dirs.push(dir);
  const loaded = await new ContentLoader(dir).load();
  if (!loaded.ok) throw new Error('the fixture is valid');
  await writeFile(join(dir, HELLO), change(await readFile(join(dir, HELLO), 'utf8')));
  return { dir, model: loaded.model };
}

describe('lessonPage', () => {
  it('numbers the steps of the file as it is now and says which "##" lines an open fence swallowed', async () => {
    const { dir, model } = await fixture((text) => text.replace('python3\n```\n', 'python3\n\n'));
    const page = lessonPage(dir, model, 'hello-world');
    expect(page.status).toBe(200);
    expect(page.headers['Cache-Control']).toBe('no-store');
    expect([...page.body.matchAll(/data-step="(\d+)"/g)].map((m) => m[1])).toEqual(['1']);
    expect(page.body).toContain('<span data-steps="1">1 step</span>');
    expect(page.body).toContain(
      'is never closed, so everything after it, to the end of the lesson, is one code block; it holds 2 lines that start with <code>##</code>, ' +
        'and none of them is a step. Add a line <code>```</code> where the code ends.',
    );
  });

  it('says when an open fence runs to the end of its list item only', async () => {
    const { dir, model } = await fixture((text) => `${text}\n- Try it:\n\n  ~~~~\n  print(1)\n\n- Then go on.\n`);
    const page = lessonPage(dir, model, 'hello-world');
    expect(page.body).toContain('opened on line');
    expect(page.body).toContain('to the end of its list item, is one code block. Add a line <code>~~~~</code> where the code ends.');
    expect(page.body).toMatch(/<li>\s*<p>Then go on\.<\/p>\s*<\/li>/); // after the list item, not in the block
  });

  it('answers 404 for an id that is no lesson, and for a lesson whose file is gone', async () => {
    const { dir, model } = await fixture((text) => text);
    expect(lessonPage(dir, model, 'first-steps').status).toBe(404);
    await rm(join(dir, HELLO));
    const gone = lessonPage(dir, model, 'hello-world');
    expect(gone.status).toBe(404);
    expect(gone.body).toContain(`The file ${HELLO} cannot be read.`);
  });
});
