/**
 * What the preview shows that production never serves, over plain HTTP against the real preview on temporary copies
 * of the small content fixture: each lesson's page (its body rendered and sanitised, its steps numbered exactly as
 * `/v1/lessons/{id}` counts them, a mark where an unclosed fence swallows the rest), and the content as it will be
 * published at an instant (`--at`) or with every scheduled entry (`--scheduled`), each such entry marked with its
 * date on the pages and served by `/v1/changelog` and the feed; by default, the content as published now.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../src/content-cli/main.js';
import type { Preview } from '../src/preview/preview.js';
import type { PreviewTime } from '../src/preview/time.js';
import { writeContentFixture, type ContentFiles } from './helpers/content-fixture.js';
import { eventually } from './helpers/eventually.js';
import { saveEdit, startFixturePreview } from './helpers/preview.js';
import { killServers, spawnServer } from './helpers/server-process.js';

const HTML = { Accept: 'text/html' };
const HELLO = 'courses/python-basics/first-steps/hello-world.md';

/** The step numbers a lesson page shows, in order, e.g. `[1, 2]`. */
function stepNumbers(page: string): number[] {
  return [...page.matchAll(/<h2 id="step-(\d+)" data-step="(\d+)"><span class="step-number">Step (\d+)</g)].map((m) => {
    expect(new Set([m[1], m[2], m[3]]).size).toBe(1);
    return Number(m[1]);
  });
}

async function apiSteps(url: string, id: string): Promise<number> {
  return ((await (await fetch(`${url}/v1/lessons/${id}`)).json()) as { steps: number }).steps;
}

describe('lesson pages', () => {
  let dir: string;
  let preview: Preview;
  beforeAll(async () => {
    ({ dir, preview } = await startFixturePreview((files) => {
      files[HELLO] += [
        '',
        '<script>alert("raw")</script>',
        '',
        'A <b onclick="steal()">bold</b> claim and ![pic](https://tracker.example/x.png).',
        '',
        '```python',
        'print("Hello, world")',
        '```',
        '',
        'It prints one line.',
        '',
      ].join('\n');
    }));
  });
  afterAll(async () => {
    await preview?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('shows every lesson of the course pages with its steps numbered as /v1/lessons/{id} counts them', async () => {
    const course = await (await fetch(`${preview.url}/courses/python-basics`, { headers: HTML })).text();
    const linked = [...course.matchAll(/<a href="(\/__syllabus\/lessons\/([a-z0-9-]+))"/g)].map((m) => [m[1]!, m[2]!] as const);
    expect(linked.map(([, id]) => id)).toEqual(['hello-world', 'variables', 'for-loops']);
    for (const [path, id] of [...linked, ['/__syllabus/lessons/select-star', 'select-star'] as const]) {
      const res = await fetch(preview.url + path, { headers: HTML });
      expect(res.status, id).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      const page = await res.text();
      const steps = await apiSteps(preview.url, id);
      expect(steps, id).toBeGreaterThan(0);
      expect(stepNumbers(page), id).toEqual(Array.from({ length: steps }, (_, i) => i + 1));
      expect(page, id).toContain(`<span data-steps="${steps}">`);
      expect(page).toMatch(/<script src="\/__syllabus\/reload\.js" data-version="[^"]+"><\/script>\s*<\/body>/);
      expect(page).not.toContain('class="preview-mark"');
    }
  });

  it('renders the body as the pages render Markdown: sanitised, raw HTML dropped, images from elsewhere as their text', async () => {
    const page = await (await fetch(`${preview.url}/__syllabus/lessons/hello-world`, { headers: HTML })).text();
    expect(page).toContain(
      '<h2 id="step-1" data-step="1"><span class="step-number">Step 1<span class="visually-hidden">: </span></span>Run Python</h2>',
    );
    expect(page).toContain('<code class="language-bash">## this is a shell comment, not a step\npython3\n</code>');
    expect(page).toContain('A bold claim and pic.');
    expect(page).not.toMatch(/alert|onclick|steal|tracker\.example/);
  });

  it('marks a code fence left open, with its line and what it swallows, and counts as the API does', async () => {
    // The lesson's last block loses its closing fence: the sentence after it becomes code, the steps stay 2.
    await saveEdit(dir, HELLO, 'print("Hello, world")\n```\n', 'print("Hello, world")\n\n');
    const lessonPage = async (): Promise<string> => (await fetch(`${preview.url}/__syllabus/lessons/hello-world`, { headers: HTML })).text();
    await eventually(async () => (await lessonPage()).includes('preview-mark'), { what: 'the reload' });
    const page = await lessonPage();
    expect(await apiSteps(preview.url, 'hello-world')).toBe(2);
    expect(stepNumbers(page)).toEqual([1, 2]);
    expect(page).toMatch(/<p class="preview-mark" role="alert">\s*1 code fence never closed: see the mark below.\s*<\/p>/);
    const line = (await readFile(join(dir, HELLO), 'utf8')).split('\n').indexOf('```python') + 1;
    const mark = /<p class="preview-mark" role="note" data-unclosed-fence="(\d+)">([\s\S]*?)<\/p>\s*<pre class="preview-swallowed">/.exec(page);
    expect(mark?.[1]).toBe(String(line));
    expect(mark?.[2]).toBe(
      `<strong>Unclosed code fence. </strong>The <code>\`\`\`</code> opened on line ${line} of <code>${HELLO}</code> is never closed, so ` +
        'everything after it, to the end of the lesson, is one code block. Add a line <code>```</code> where the code ends.',
    );
    expect(page).toMatch(/<code class="language-python">print\("Hello, world"\)\n+It prints one line\.\n*<\/code>/);
    await saveEdit(dir, HELLO, 'print("Hello, world")\n\n', 'print("Hello, world")\n```\n');
    await eventually(async () => !(await lessonPage()).includes('preview-mark'), { what: 'the reload after the fix' });
  });

  it('answers 404 for an id that is no live lesson, 405 for another method, and the error page while the content is invalid', async () => {
    for (const id of ['no-such-lesson', 'python-basics', 'hello-world%2F..%2F..', '']) {
      const res = await fetch(`${preview.url}/__syllabus/lessons/${id}`, { headers: HTML });
      expect(res.status, id).toBe(404);
      expect(await res.text()).toContain('<h1>Lesson not found</h1>');
    }
    const post = await fetch(`${preview.url}/__syllabus/lessons/hello-world`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const head = await fetch(`${preview.url}/__syllabus/lessons/hello-world`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    await saveEdit(dir, HELLO, 'lang: python', 'lang: 42');
    await eventually(() => preview.state.snapshot().problems !== undefined, { what: 'the invalid load' });
    const broken = await fetch(`${preview.url}/__syllabus/lessons/hello-world`, { headers: HTML });
    expect(broken.status).toBe(500);
    expect(await broken.text()).toContain(`${HELLO}:4:1`);
    await saveEdit(dir, HELLO, 'lang: 42', 'lang: python');
    await eventually(() => preview.state.snapshot().problems === undefined, { what: 'the fix' });
  });
});

describe('scheduled content in the preview', () => {
  /** Two entries not published yet, one shipping a roadmap item. */
  const scheduled = (files: ContentFiles): void => {
    files['changelog/sql-joins-2099-03-01.md'] = '---\nkind: feature\ntitle: SQL joins are here\nblurb: Join tables.\n---\n\nJoins ship.\n';
    files['changelog/rust-course-2100-01-01.md'] = '---\nkind: course\ntitle: Rust intro is live\nblurb: Ownership.\n---\n\nRust opens.\n';
    files['roadmap/sql-joins.md'] = files['roadmap/sql-joins.md']!.replace('stage: building', 'stage: shipped\nshipped: sql-joins-2099-03-01');
  };
  const previews: Array<{ dir: string; preview: Preview }> = [];
  afterAll(async () => {
    for (const { dir, preview } of previews) {
      await preview.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  /** What a preview shows: the entry ids of /v1/changelog and of the feed, the marks and banner of the pages. */
  async function shown(time?: PreviewTime) {
    const started = await startFixturePreview(scheduled, time);
    previews.push(started);
    const { url } = started.preview;
    const api = (await (await fetch(`${url}/v1/changelog`)).json()) as { entries: Array<{ id: string }> };
    const feed = await (await fetch(`${url}/changelog.atom`)).text();
    const changelog = await (await fetch(`${url}/changelog`, { headers: HTML })).text();
    const roadmap = await (await fetch(`${url}/roadmap`, { headers: HTML })).text();
    const home = await (await fetch(`${url}/`, { headers: HTML })).text();
    const marks = (page: string, attribute: string) =>
      [...page.matchAll(new RegExp(`${attribute}="([a-z0-9-]+)">\\s*<p class="preview-scheduled" data-scheduled="([\\d-]+)">([^<]*)<`, 'g'))].map(
        (m) => `${m[1]} ${m[2]} ${m[3]}`,
      );
    return {
      api: api.entries.map((e) => e.id),
      feed: ['sql-joins-2099-03-01', 'rust-course-2100-01-01'].filter((id) => feed.includes(`/changelog#${id}`)),
      changelog: marks(changelog, 'data-entry'),
      roadmap: marks(roadmap, 'data-item'),
      shippedStage: /id="stage-shipped"[\s\S]*?<\/section>/.exec(roadmap)?.[0].includes('data-item="sql-joins"') ?? false,
      banner: /<p class="preview-banner" role="note">([^<]*)<\/p>/.exec(home)?.[1],
    };
  }

  it('shows the content as published now by default: nothing scheduled, no banner', async () => {
    const now = await shown();
    expect(now.api).not.toContain('sql-joins-2099-03-01');
    expect(now).toMatchObject({ feed: [], changelog: [], roadmap: [], shippedStage: false, banner: undefined });
  });

  it('shows the content as published at an instant, each entry not published yet marked with its date', async () => {
    const at = await shown({ kind: 'at', at: new Date('2099-03-01T00:00:00Z') });
    expect(at.api.slice(0, 1)).toEqual(['sql-joins-2099-03-01']);
    expect(at.api).not.toContain('rust-course-2100-01-01');
    expect(at.feed).toEqual(['sql-joins-2099-03-01']);
    expect(at.changelog).toEqual(['sql-joins-2099-03-01 2099-03-01 Scheduled: published on 2099-03-01']);
    expect(at.roadmap).toEqual(['sql-joins 2099-03-01 Scheduled: shipped on 2099-03-01']);
    expect(at.shippedStage).toBe(true);
    expect(at.banner).toMatch(
      /^Preview of the content as published at 2099-03-01T00:00:\d\d\.\d{3}Z: what is not published yet is marked with its date\.$/,
    );
    const before = await shown({ kind: 'at', at: new Date('2099-02-28T23:00:00Z') });
    expect(before).toMatchObject({ feed: [], changelog: [], roadmap: [], shippedStage: false });
  });

  it('shows every scheduled entry with --scheduled', async () => {
    const all = await shown({ kind: 'scheduled' });
    expect(all.api.slice(0, 2)).toEqual(['rust-course-2100-01-01', 'sql-joins-2099-03-01']);
    expect(all.feed).toEqual(['sql-joins-2099-03-01', 'rust-course-2100-01-01']);
    expect(all.changelog).toEqual([
      'rust-course-2100-01-01 2100-01-01 Scheduled: published on 2100-01-01',
      'sql-joins-2099-03-01 2099-03-01 Scheduled: published on 2099-03-01',
    ]);
    expect(all.roadmap).toEqual(['sql-joins 2099-03-01 Scheduled: shipped on 2099-03-01']);
    expect(all.banner).toBe('Preview with every scheduled entry published: each is marked with its date.');
  });

  it('syllabus-content dev --at says which instant it shows, and shows it', async () => {
    const dir = await writeContentFixture(undefined, scheduled);
    const root = join(import.meta.dirname, '..');
    const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
    const args = ['--import', tsx, join(root, 'src/content-cli/main.ts'), 'dev', '--port', '0', '--at', '2099-03-01', dir];
    const dev = spawnServer({}, { command: [process.execPath, ...args] });
    try {
      await eventually(() => dev.stdout().includes('Showing'), { what: 'the start', limitMs: 30_000 });
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(dev.stdout())![0];
      expect(dev.stdout().split('\n')[1]).toBe(
        'Showing the content as published at 2099-03-01T00:00:00.000Z: what is not published yet is marked with its date',
      );
      const api = (await (await fetch(`${url}/v1/changelog`)).json()) as { entries: Array<{ id: string }> };
      expect(api.entries.map((e) => e.id)).toContain('sql-joins-2099-03-01');
      dev.child.kill('SIGTERM');
      expect(await dev.exited).toBe(0);
    } finally {
      killServers();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a malformed --at, and --at with --scheduled, with status 2 before starting', async () => {
    const run = async (...args: string[]): Promise<{ status: number; stderr: string }> => {
      let stderr = '';
      const io: CliIo = { stdout: () => undefined, stderr: (line) => (stderr += `${line}\n`), env: {}, cwd: process.cwd() };
      return { status: await runCli(['dev', '--port', '0', ...args, '/nonexistent/content'], io), stderr };
    };
    for (const value of ['tomorrow', '2026-02-30', '2026-12-01T09:00']) {
      const { status, stderr } = await run('--at', value);
      expect(status, value).toBe(2);
      expect(stderr).toContain(`option '--at <instant>' argument '${value}' is invalid. an instant is a date, 2026-12-01 (00:00 UTC)`);
    }
    const both = await run('--at', '2099-03-01', '--scheduled');
    expect(both.status).toBe(2);
    expect(both.stderr).toContain("option '--at <instant>' cannot be used with option '--scheduled'");
  });
});
