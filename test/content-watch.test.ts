/**
 * Hot reload on real files: added, changed, renamed, deleted files and editor-style atomic saves are
 * picked up; only changed files are parsed again; an invalid edit reports problems (the caller keeps its
 * last good model); a burst of 200 changes gives one reload.
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentLoader } from '../src/content/loader.js';
import type { ContentModel, LoadResult } from '../src/content/model.js';
import { watchContent, type ContentWatch } from '../src/source/watch.js';
import { removeTree, writeContentFixture } from './helpers/content-fixture.js';

interface Reload {
  result: LoadResult;
  changed: string[];
}

/** A watched fixture folder whose reloads are recorded, plus a "server" keeping its last good model. */
async function watchedFixture(debounceMs: number): Promise<{
  dir: string;
  loader: ContentLoader;
  reloads: Reload[];
  current: () => ContentModel;
  waitFor: (predicate: (r: Reload) => boolean) => Promise<Reload>;
  watch: ContentWatch;
}> {
  const dir = await writeContentFixture();
  const loader = new ContentLoader(dir);
  const first = await loader.load();
  if (!first.ok) throw new Error('fixture invalid');
  let served = first.model;
  const reloads: Reload[] = [];
  let waiters: { predicate: (r: Reload) => boolean; resolve: (r: Reload) => void }[] = [];
  const watch = await watchContent(dir, {
    loader,
    debounceMs,
    maxWaitMs: 30_000,
    onReload(result, changed) {
      if (result.ok) served = result.model; // what the server does: one assignment, only when valid
      const reload = { result, changed };
      reloads.push(reload);
      for (const waiter of waiters.filter((w) => w.predicate(reload))) waiter.resolve(reload);
      waiters = waiters.filter((w) => !w.predicate(reload));
    },
  });
  const waitFor = (predicate: (r: Reload) => boolean): Promise<Reload> => new Promise((resolve) => waiters.push({ predicate, resolve }));
  return { dir, loader, reloads, current: () => served, waitFor, watch };
}

const lessonOf = (m: ContentModel, id: string) => m.catalog.courses.flatMap((c) => c.classes.flatMap((k) => k.lessons)).find((l) => l.id === id);
const roadmapIds = (m: ContentModel): string[] => m.roadmap.stages.flatMap((s) => s.items.map((i) => i.id));

describe('watchContent', () => {
  let ctx: Awaited<ReturnType<typeof watchedFixture>>;
  const HELLO = 'courses/python-basics/first-steps/hello-world.md';
  const helloText = (title: string): string => `---\ntitle: ${title}\nlang: python\n---\n\n## One\n\n## Two\n\n## Three\n`;

  beforeAll(async () => {
    ctx = await watchedFixture(150);
  });
  afterAll(async () => {
    await ctx.watch.close();
    await removeTree(ctx.dir);
  });

  it('reloads a changed file, parsing only that file', async () => {
    const reloaded = ctx.waitFor((r) => r.result.ok && lessonOf(r.result.model, 'hello-world')?.title === 'Hello again');
    await writeFile(join(ctx.dir, HELLO), helloText('Hello again'));
    const { changed } = await reloaded;
    expect(changed).toContain(HELLO);
    expect(ctx.loader.lastParsedCount).toBe(1);
    expect(lessonOf(ctx.current(), 'hello-world')).toMatchObject({ title: 'Hello again', steps: 3 });
  });

  it('reloads an added file', async () => {
    const reloaded = ctx.waitFor((r) => r.result.ok && lessonOf(r.result.model, 'while-loops') !== undefined);
    await writeFile(
      join(ctx.dir, 'courses/python-basics/loops/while-loops.md'),
      '---\ntitle: While loops\nlang: python\n---\n## Condition\n## Break\n',
    );
    await writeFile(
      join(ctx.dir, 'courses/python-basics/loops/index.md'),
      '---\nname: Loops\nstatus: live\nlessons: [for-loops, while-loops]\n---\n',
    );
    await reloaded;
    const loops = ctx.current().catalog.courses[0]!.classes[1]!;
    expect(loops.lessons.map((l) => l.id)).toEqual(['for-loops', 'while-loops']);
    expect(loops.exercises).toBe(3);
  });

  it('reloads a renamed file', async () => {
    const reloaded = ctx.waitFor((r) => r.result.ok && roadmapIds(r.result.model).includes('ai-tips'));
    await rename(join(ctx.dir, 'roadmap/ai-hints.md'), join(ctx.dir, 'roadmap/ai-tips.md'));
    await reloaded;
    expect(roadmapIds(ctx.current())).toContain('ai-tips');
    expect(roadmapIds(ctx.current())).not.toContain('ai-hints');
  });

  it('reloads after a deleted file', async () => {
    const reloaded = ctx.waitFor((r) => r.result.ok && !roadmapIds(r.result.model).includes('dark-theme'));
    await rm(join(ctx.dir, 'roadmap/dark-theme.md'));
    await reloaded;
    expect(roadmapIds(ctx.current())).not.toContain('dark-theme');
  });

  it('reloads after a folder is renamed', async () => {
    const classIds = (m: ContentModel): string[] => m.catalog.courses[2]!.classes.map((k) => k.id);
    const reloaded = ctx.waitFor((r) => r.result.ok && classIds(r.result.model).includes('borrowing'));
    await rename(join(ctx.dir, 'courses/rust-intro/ownership'), join(ctx.dir, 'courses/rust-intro/borrowing'));
    await writeFile(
      join(ctx.dir, 'courses/rust-intro/index.md'),
      '---\ntitle: Rust intro\ncolor: "#dea584"\nstatus: soon\nclasses: [borrowing]\n---\n',
    );
    await reloaded;
    expect(classIds(ctx.current())).toEqual(['borrowing']);
  });

  it('handles an editor that saves by writing a temporary file and renaming it over the original', async () => {
    const reloaded = ctx.waitFor((r) => r.result.ok && lessonOf(r.result.model, 'hello-world')?.title === 'Saved atomically');
    const temp = join(ctx.dir, 'courses/python-basics/first-steps/.hello-world.md.swp');
    await writeFile(temp, helloText('Saved atomically'));
    await rename(temp, join(ctx.dir, HELLO));
    await reloaded;
    expect(lessonOf(ctx.current(), 'hello-world')?.title).toBe('Saved atomically');
  });

  it('reports an invalid edit with its problems while the caller keeps the last good model', async () => {
    const before = ctx.current();
    const failed = ctx.waitFor((r) => !r.result.ok);
    await writeFile(join(ctx.dir, 'courses/sql-basics/index.md'), '---\ntitle: SQL basics\ncolor: blue\nstatus: live\nclasses: [select]\n---\n');
    const { result } = await failed;
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems).toContainEqual({
        path: `${ctx.dir}/courses/sql-basics/index.md`,
        line: 3,
        column: 1,
        message: '"color" must be a hex colour #rrggbb, got "blue"',
      });
    }
    expect(ctx.current()).toBe(before);

    const fixed = ctx.waitFor((r) => r.result.ok);
    await writeFile(join(ctx.dir, 'courses/sql-basics/index.md'), '---\ntitle: SQL basics\ncolor: "#0000ff"\nstatus: live\nclasses: [select]\n---\n');
    await fixed;
    expect(ctx.current().catalog.courses[1]!.color).toBe('#0000ff');
  });

  // The two cases below are where fs.watch recursive (Node 20) and @parcel/watcher 2.6.0 lose changes
  // (bench/watchers.ts): a watch left on the inode an editor replaced, and folders whose subfolders are not watched
  // or are reported under their old path.
  it('sees an in-place edit of a file an editor had saved by rename', async () => {
    const reloaded = ctx.waitFor((r) => r.result.ok && lessonOf(r.result.model, 'hello-world')?.title === 'Edited in place');
    await writeFile(join(ctx.dir, HELLO), helloText('Edited in place'));
    const { changed } = await reloaded;
    expect(changed).toEqual([HELLO]);
  });

  it('follows a course folder moved in from outside the tree and then renamed, edits in its subfolders included', async () => {
    const courseNamed = (m: ContentModel, id: string) => m.catalog.courses.find((c) => c.id === id);
    const catalog = (ids: string): string => `---\ncourses: [python-basics, sql-basics, rust-intro, ${ids}]\n---\n`;
    const classIndex = (name: string): string => `---\nname: ${name}\nstatus: soon\nlessons: []\nsoon: [Welcome]\n---\n`;
    const outside = await mkdtemp(join(tmpdir(), 'syllabus-outside-'));
    try {
      await mkdir(join(outside, 'go-basics/intro'), { recursive: true });
      await writeFile(join(outside, 'go-basics/index.md'), '---\ntitle: Go basics\ncolor: "#00add8"\nstatus: soon\nclasses: [intro]\n---\n');
      await writeFile(join(outside, 'go-basics/intro/index.md'), classIndex('Intro'));

      let reloaded = ctx.waitFor((r) => r.result.ok && courseNamed(r.result.model, 'go-basics') !== undefined);
      await rename(join(outside, 'go-basics'), join(ctx.dir, 'courses/go-basics'));
      await writeFile(join(ctx.dir, 'catalog.md'), catalog('go-basics'));
      await reloaded;

      reloaded = ctx.waitFor((r) => r.result.ok && courseNamed(r.result.model, 'go-basics')?.classes[0]?.name === 'Getting started');
      await writeFile(join(ctx.dir, 'courses/go-basics/intro/index.md'), classIndex('Getting started'));
      await reloaded;

      reloaded = ctx.waitFor((r) => r.result.ok && courseNamed(r.result.model, 'go-intro') !== undefined);
      await rename(join(ctx.dir, 'courses/go-basics'), join(ctx.dir, 'courses/go-intro'));
      await writeFile(join(ctx.dir, 'catalog.md'), catalog('go-intro'));
      await reloaded;

      reloaded = ctx.waitFor((r) => r.result.ok && courseNamed(r.result.model, 'go-intro')?.classes[0]?.name === 'First programs');
      await writeFile(join(ctx.dir, 'courses/go-intro/intro/index.md'), classIndex('First programs'));
      await reloaded;
      expect(courseNamed(ctx.current(), 'go-basics')).toBeUndefined();
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});

describe('a burst of changes', () => {
  it('gives one reload after 200 changes', async () => {
    const ctx = await watchedFixture(700);
    try {
      const COUNT = 200;
      const reloaded = ctx.waitFor(() => true);
      await mkdir(join(ctx.dir, 'roadmap'), { recursive: true });
      await Promise.all(
        Array.from({ length: COUNT }, (_, i) =>
          writeFile(join(ctx.dir, `roadmap/burst-${i}.md`), `---\ntitle: Burst ${i}\ntheme: Load\nstage: exploring\n---\nItem ${i}.\n`),
        ),
      );
      const { result, changed } = await reloaded;
      expect(changed).toHaveLength(COUNT);
      expect(result.ok && roadmapIds(result.model).filter((id) => id.startsWith('burst-'))).toHaveLength(COUNT);
      // A late chokidar event (its atomic-save hold is 100 ms) would start a second reload within one quiet period
      // (700 ms); the debouncer itself folds a burst into one run (burst.test.ts, on fake timers).
      await new Promise((resolve) => setTimeout(resolve, 900));
      expect(ctx.reloads).toHaveLength(1);
    } finally {
      await ctx.watch.close();
      await removeTree(ctx.dir);
    }
  });
});
