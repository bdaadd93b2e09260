import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeTree, writeContentFixture } from '../../test/helpers/content-fixture.js';
import { generateContent } from '../../bench/generate-content.js';
import { ContentLoader, MAX_FILE_BYTES } from './loader.js';
import { parseFile } from './parse-file.js';
import { listContentTree } from './read-tree.js';

const LESSON = 'courses/python-basics/first-steps/hello-world.md';
let dir: string;
let loader: ContentLoader;

beforeEach(async () => {
  dir = await writeContentFixture();
  loader = new ContentLoader(dir);
  expect((await loader.load()).ok).toBe(true);
});
afterEach(() => removeTree(dir));

const titleOf = (result: Awaited<ReturnType<ContentLoader['load']>>, id: string) => {
  if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('\n'));
  return result.model.catalog.courses.flatMap((c) => c.classes.flatMap((k) => k.lessons)).find((l) => l.id === id)?.title;
};

describe('ContentLoader.loadChanged', () => {
  it('reads only the reported files and takes the rest from the cache', async () => {
    await writeFile(join(dir, LESSON), (await import('node:fs')).readFileSync(join(dir, LESSON), 'utf8').replace('Hello, world', 'Hello again'));
    const result = await loader.loadChanged([LESSON]);
    expect(loader.lastParsedCount).toBe(1);
    expect(titleOf(result, 'hello-world')).toBe('Hello again');
  });

  it('derives again only what the edit reaches: every other lesson, class and course is the very same object', async () => {
    const modelOf = (result: Awaited<ReturnType<ContentLoader['load']>>) => {
      if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('\n'));
      return result.model;
    };
    const parts = (model: ReturnType<typeof modelOf>) => {
      const classes = model.catalog.courses.flatMap((c) => c.classes);
      return { courses: model.catalog.courses, classes, lessons: classes.flatMap((k) => k.lessons) };
    };
    const before = parts(modelOf(await loader.load()));
    await writeFile(join(dir, LESSON), (await import('node:fs')).readFileSync(join(dir, LESSON), 'utf8').replace('Hello, world', 'Hello again'));
    const after = parts(modelOf(await loader.loadChanged([LESSON])));
    const reached = { courses: ['python-basics'], classes: ['first-steps'], lessons: ['hello-world'] };
    for (const kind of ['courses', 'classes', 'lessons'] as const) {
      expect(after[kind].map((x) => x.id)).toEqual(before[kind].map((x) => x.id));
      after[kind].forEach((x, i) => {
        if (reached[kind].includes(x.id)) expect(x, x.id).not.toBe(before[kind][i]);
        else expect(x, x.id).toBe(before[kind][i]);
      });
    }
    expect(before.lessons.filter((l) => l.class_id === 'first-steps').length).toBeGreaterThan(1); // a sibling was reused
  });

  it('trusts the report: a file changed but not reported is not read until a full load', async () => {
    const path = join(dir, 'courses/python-basics/first-steps/variables.md');
    await writeFile(path, (await import('node:fs')).readFileSync(path, 'utf8').replace('title: Variables', 'title: Names'));
    expect(titleOf(await loader.loadChanged([]), 'variables')).toBe('Variables');
    expect(titleOf(await loader.load(), 'variables')).toBe('Names');
  });

  it('drops a removed folder and everything under it', async () => {
    await rm(join(dir, 'courses/rust-intro'), { recursive: true });
    const result = await loader.loadChanged(['courses/rust-intro/']);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.map((p) => p.message).join('\n')).toMatch(/rust-intro/);
  });

  it('treats a file that became a symbolic link, or moved into a hidden folder, as gone — like a full listing', async () => {
    const abs = join(dir, LESSON);
    await mkdir(join(dir, '.trash'));
    await rename(abs, join(dir, '.trash/hello-world.md'));
    await symlink(join(dir, '.trash/hello-world.md'), abs);
    const incremental = await loader.loadChanged([LESSON, '.trash/hello-world.md']);
    const full = await new ContentLoader(dir).load();
    expect(incremental).toEqual(full);
    expect(incremental.ok).toBe(false);
  });

  it('reads a file whole whatever its size: larger than the read buffer, exactly the largest allowed, and after it shrank', async () => {
    const abs = join(dir, LESSON);
    const original = (await import('node:fs')).readFileSync(abs, 'utf8');
    const stepsOf = (result: Awaited<ReturnType<ContentLoader['load']>>) => {
      if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('\n'));
      return result.model.catalog.courses.flatMap((c) => c.classes.flatMap((k) => k.lessons)).find((l) => l.id === 'hello-world')?.steps;
    };
    const before = stepsOf(await loader.load());
    // The last heading sits past the first 64 KiB the loader's buffer holds.
    const long = `${original}\n${'A line of text.\n'.repeat(12_000)}\n## The last step\n`;
    await writeFile(abs, long);
    expect(stepsOf(await loader.loadChanged([LESSON]))).toBe(before! + 1);
    const padding = MAX_FILE_BYTES - Buffer.byteLength(long);
    await writeFile(abs, `${long}${' '.repeat(padding - 1)}\n`);
    expect(stepsOf(await loader.loadChanged([LESSON]))).toBe(before! + 1);
    await writeFile(abs, original);
    expect(stepsOf(await loader.loadChanged([LESSON]))).toBe(before);
  });

  it('reports a file it cannot take (too large) until it is fixed', async () => {
    const abs = join(dir, LESSON);
    const original = (await import('node:fs')).readFileSync(abs, 'utf8');
    await writeFile(abs, original + 'x'.repeat(MAX_FILE_BYTES));
    const broken = await loader.loadChanged([LESSON]);
    expect(broken.ok).toBe(false);
    if (!broken.ok)
      expect(broken.problems).toContainEqual({ path: `${dir}/${LESSON}`, line: 1, column: 1, message: 'the file is larger than 8 MiB' });
    await writeFile(abs, original);
    expect((await loader.loadChanged([LESSON])).ok).toBe(true);
  });

  it('never opens a FIFO, socket or folder named like a lesson for reading: it is not content, and the load does not block', async () => {
    const extra = [
      'courses/python-basics/first-steps/pipe.md',
      'courses/python-basics/first-steps/socket.md',
      'courses/python-basics/first-steps/folder.md',
    ];
    expect(spawnSync('mkfifo', [join(dir, extra[0]!)]).status).toBe(0);
    const server = createServer().listen(join(dir, extra[1]!));
    await once(server, 'listening');
    await mkdir(join(dir, extra[2]!));
    try {
      const before = await new ContentLoader(dir).load();
      const incremental = await loader.loadChanged(extra);
      expect(incremental.ok).toBe(true);
      expect(incremental).toEqual(before); // the full listing skips them too
    } finally {
      server.close();
    }
  });
});

describe('ContentLoader.load with a listing', () => {
  it('reads the files a watcher listed instead of walking the tree: a file it did not list is not read', async () => {
    const listing = await listContentTree(dir);
    await writeFile(join(dir, 'courses/python-basics/first-steps/unlisted.md'), 'not even frontmatter\n');
    const fresh = new ContentLoader(dir);
    expect((await fresh.load(listing)).ok).toBe(true);
    expect([...fresh.parsedFiles().keys()]).toEqual(listing.markdown);
    expect((await fresh.load()).ok).toBe(false); // walked: the file is content, and a bad one
  });
});

describe('ContentLoader with a known revision', () => {
  it('hashes no file (it makes no folder digest), and its models carry the revision it was given', async () => {
    const known = new ContentLoader(dir, { revision: 'c0ffee' });
    const result = await known.load();
    expect(result.ok && result.model.revision).toBe('c0ffee');
    const files = [...known.parsedFiles().values()];
    expect(files.length).toBeGreaterThan(0);
    expect(files.every((file) => file.sha256 === undefined)).toBe(true);
    // Without one, every file is hashed for the digest.
    expect([...loader.parsedFiles().values()].every((file) => /^[0-9a-f]{64}$/.test(file.sha256 ?? ''))).toBe(true);
  });
});

describe('ContentLoader.load', () => {
  it('parses every file from its own bytes while it reads them in runs: runs of 64, a file larger than a run, one that does not fit what is left', async () => {
    const root = await mkdtemp(join(tmpdir(), 'syllabus-read-ahead-'));
    try {
      const tree = await generateContent(root, { lessons: 150 });
      const lessons = (await listContentTree(root)).markdown.filter((rel) => rel.split('/').length === 4);
      // 1.5 MiB: larger than a run's buffer. 700 KiB: fits an empty run but not one already holding it.
      await appendFile(join(root, lessons[40]!), `\n${'A line of text.\n'.repeat(98_304)}\n## One more step\n`);
      await appendFile(join(root, lessons[41]!), `\n${'A line of text.\n'.repeat(44_800)}\n## One more step\n`);
      await appendFile(join(root, lessons[42]!), `\n${'A line of text.\n'.repeat(44_800)}\n## One more step\n`);
      const fresh = new ContentLoader(root);
      const result = await fresh.load();
      if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('\n'));
      expect(fresh.lastParsedCount).toBe(tree.files);
      const parsed = fresh.parsedFiles();
      expect(parsed.size).toBe(tree.files);
      for (const [rel, file] of parsed) expect(file, rel).toEqual(parseFile(rel, readFileSync(join(root, rel))));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
