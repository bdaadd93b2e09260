/**
 * Folder mode under the ways content really reaches a server, on the real server with real files: a git-sync
 * style symbolic-link swap repeated 20 times, a parent folder swapped the same way, the folder deleted and
 * recreated. Each time the new content is served and the watcher keeps working afterwards; while the folder is
 * missing, `/health` says so (without a server path) and the last good content stays served.
 */
import { mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { writeContentFixture } from './helpers/content-fixture.js';
import { eventually } from './helpers/eventually.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const LESSON = 'courses/python-basics/first-steps/hello-world.md';
const lessonText = (title: string): string => `---\ntitle: ${title}\nlang: python\n---\n\n## One\n\n## Two\n`;

const temps: string[] = [];
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'syllabus-delivery-'));
  temps.push(dir);
  return dir;
}

/** A valid tree at `dir` whose hello-world lesson is titled `title`. */
function revision(dir: string, title: string): Promise<string> {
  return writeContentFixture(dir, (files) => void (files[LESSON] = lessonText(title)));
}

/** `ln -s target tmp && mv -T tmp link`: the atomic swap git-sync and many deploy tools do. */
async function swapLink(link: string, target: string): Promise<void> {
  const tmp = `${link}.tmp`;
  await rm(tmp, { force: true });
  await symlink(target, tmp);
  await rename(tmp, link);
}

async function lessonTitle(s: TestServer): Promise<string | undefined> {
  const res = await fetch(`${s.url}/v1/lessons/hello-world`);
  return res.ok ? ((await res.json()) as { title: string }).title : undefined;
}

async function health(s: TestServer): Promise<Record<string, string>> {
  return (await (await fetch(`${s.url}/health`)).json()) as Record<string, string>;
}

const served = (s: TestServer, title: string) =>
  eventually(async () => (await lessonTitle(s)) === title, { what: `"${title}" served`, limitMs: 10_000 });

describe('folder mode', () => {
  it('follows a symbolic link swapped 20 times (git-sync), and keeps watching the folder it points at', async () => {
    const base = await tempDir();
    await revision(join(base, 'rev-0'), 'Hello 0');
    await symlink('rev-0', join(base, 'current'));
    server = await startTestServer({ env: { CONTENT_DIR: join(base, 'current') } });
    expect(await lessonTitle(server)).toBe('Hello 0');
    expect(await health(server)).toMatchObject({ content_source: 'folder', content_watch: 'ok' });

    for (let i = 1; i <= 20; i++) {
      await revision(join(base, `rev-${i}`), `Hello ${i}`);
      await swapLink(join(base, 'current'), `rev-${i}`);
      // git-sync removes old worktrees: the folder served two swaps ago disappears.
      if (i >= 2) await rm(join(base, `rev-${i - 2}`), { recursive: true, force: true });
      await served(server, `Hello ${i}`);
    }
    // The watcher is on the folder the link now leads to: an edit inside it is served too.
    await writeFile(join(base, 'rev-20', LESSON), lessonText('Edited after the swaps'));
    await served(server, 'Edited after the swaps');
    const h = await health(server);
    expect(h.content_watch).toBe('ok');
    expect(h.last_reload_error).toBe('');
    expect(Date.parse(h.content_synced_at!)).not.toBeNaN();
  });

  it('follows a parent folder that is a symbolic link swapped to another checkout', async () => {
    const base = await tempDir();
    await revision(join(base, 'a', 'content'), 'From a');
    await revision(join(base, 'b', 'content'), 'From b');
    await symlink('a', join(base, 'current'));
    server = await startTestServer({ env: { CONTENT_DIR: join(base, 'current', 'content') } });
    expect(await lessonTitle(server)).toBe('From a');
    await swapLink(join(base, 'current'), 'b');
    await served(server, 'From b');
    await swapLink(join(base, 'current'), 'a');
    await served(server, 'From a');
    await writeFile(join(base, 'a', 'content', LESSON), lessonText('Edited in a'));
    await served(server, 'Edited in a');
  });

  it('survives the folder being deleted and recreated: says so meanwhile, serves the new folder, keeps watching', async () => {
    const base = await tempDir();
    const dir = join(base, 'content');
    await revision(dir, 'Before');
    server = await startTestServer({ env: { CONTENT_DIR: dir } });
    const s = server;

    await rm(dir, { recursive: true, force: true });
    await eventually(async () => (await health(s)).content_watch === 'folder-missing', { what: 'content_watch to report the folder missing' });
    const missing = await health(s);
    expect(missing.content_in_sync).toBe('false');
    expect(JSON.stringify(missing)).not.toContain(base); // no server path on the public /health
    expect(await lessonTitle(s)).toBe('Before'); // the last good content stays served

    await revision(dir, 'Recreated');
    await served(s, 'Recreated');
    await eventually(async () => (await health(s)).content_watch === 'ok', { what: 'content_watch ok again' });

    await writeFile(join(dir, LESSON), lessonText('Edited after recreation'));
    await served(s, 'Edited after recreation');
    // Deleted and recreated once more, the same way a deploy does it on every release.
    await rm(dir, { recursive: true, force: true });
    await revision(dir, 'Second deploy');
    await served(s, 'Second deploy');
  });

  it('keeps the last good content when the new folder is invalid, and serves it once fixed', async () => {
    const base = await tempDir();
    await revision(join(base, 'rev-0'), 'Good');
    await writeContentFixture(join(base, 'rev-bad'), (files) => void (files[LESSON] = '---\ntitle: [unclosed\n---\n## One\n'));
    await symlink('rev-0', join(base, 'current'));
    server = await startTestServer({ env: { CONTENT_DIR: join(base, 'current') } });
    const s = server;
    await swapLink(join(base, 'current'), 'rev-bad');
    await eventually(async () => (await health(s)).last_reload_error !== '', { what: 'the reload error on /health' });
    const h = await health(s);
    expect(h.last_reload_error).toBe("invalid content (1 problem); see the log or the admin listener's /statusz");
    const rejected = s.logs.find((l) => l.msg === 'content reload rejected; still serving the previous revision')!;
    expect((rejected.problems as string[])[0]).toMatch(new RegExp(`^${LESSON}:2:\\d+: invalid YAML`));
    expect(JSON.stringify(rejected)).not.toContain(base);
    expect(await lessonTitle(s)).toBe('Good');
    await writeFile(join(base, 'rev-bad', LESSON), lessonText('Fixed'));
    await served(s, 'Fixed');
    expect((await health(s)).last_reload_error).toBe('');
  });
});
