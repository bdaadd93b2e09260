/**
 * GitFollower with real repositories: old checkouts are pruned (current and previous kept), two processes'
 * followers on one cache take different slots, a restart while the remote is unreachable serves the cached branch
 * and says so, a repository that cannot be fetched at all is a SourceError without credentials in it, and a
 * commit without the content folder is an invalid update naming the folder.
 */
import { readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createContentRemote, pushHandMadeEntry, type ContentRemote } from '../../test/helpers/git-repo.js';
import { eventually } from '../../test/helpers/eventually.js';
import { folderBytes } from '../../test/helpers/folder-bytes.js';
import { MAX_FILE_BYTES } from '../content/loader.js';
import { GitFollower, type GitFollowerOptions } from './git-follower.js';
import { SourceError, type ContentUpdate } from './types.js';

const LESSON = 'content/courses/python-basics/first-steps/hello-world.md';
const lessonText = (title: string): string => `---\ntitle: ${title}\nlang: python\n---\n\n## One\n`;

const open: Array<{ close(): Promise<void> }> = [];
const remotes: ContentRemote[] = [];
afterEach(async () => {
  for (const f of open.splice(0)) await f.close();
  for (const r of remotes.splice(0)) await r.remove();
});

async function remote(): Promise<ContentRemote> {
  const r = await createContentRemote();
  remotes.push(r);
  return r;
}

function follower(r: ContentRemote, options: Partial<GitFollowerOptions> = {}): GitFollower {
  const f = new GitFollower({
    url: r.bare,
    ref: 'main',
    path: 'content',
    pollSeconds: 3600,
    cacheDir: join(r.root, 'cache'),
    historyDepth: 5,
    maxContentBytes: 64 * 1024 * 1024,
    logger: pino({ level: 'silent' }),
    ...options,
  });
  open.push(f);
  return f;
}

function listen(updates: ContentUpdate[]) {
  return { onUpdate: (u: ContentUpdate) => void updates.push(u), onStatus: () => undefined };
}

describe('GitFollower', () => {
  it('keeps only the current and the previous checkout', async () => {
    const r = await remote();
    const f = follower(r);
    const updates: ContentUpdate[] = [];
    await f.start(listen(updates));
    const commits: string[] = [];
    for (let i = 1; i <= 3; i++) {
      commits.push(await r.commit(`Edit ${i}`, { [LESSON]: lessonText(`Edit ${i}`) }));
      f.refresh('test');
      await eventually(() => updates.some((u) => u.commit === commits.at(-1)), { what: `commit ${i}` });
    }
    const slotDirs = await readdir(join(r.root, 'cache'));
    const key = slotDirs.find((d) => !d.endsWith('.lock'))!;
    const checkouts = await readdir(join(r.root, 'cache', key, 'slot-0', 'checkouts'));
    expect(checkouts.sort()).toEqual([commits[1], commits[2]].sort());
  });

  it('gives two followers on one cache folder different slots', async () => {
    const r = await remote();
    await follower(r).start(listen([]));
    await follower(r).start(listen([]));
    const key = (await readdir(join(r.root, 'cache')))[0]!;
    expect((await readdir(join(r.root, 'cache', key))).sort()).toEqual(['slot-0', 'slot-0.lock', 'slot-1', 'slot-1.lock']);
  });

  it('starts from the cached branch when the remote is unreachable, and says so', async () => {
    const r = await remote();
    const first = follower(r);
    const head = (await first.start(listen([]))).commit;
    await first.close();
    await rename(r.bare, `${r.bare}.gone`);
    const again = follower(r);
    const update = await again.start(listen([]));
    expect(update.result.ok).toBe(true);
    expect(update.commit).toBe(head);
    expect(again.status().fault).toMatchObject({ reason: 'repository-missing', since: expect.stringMatching(/Z$/) });
    expect(again.status().fault?.detail).toMatch(/^fetching branch "main" fails: the repository cannot be found: .*; trying again every 3600 s$/);
  });

  it('refuses to start when nothing can be fetched, without credentials in the message', async () => {
    const r = await remote();
    // Port 1 on loopback refuses at once.
    const f = follower(r, { url: 'https://user:hunter2@127.0.0.1:1/content.git' });
    const error = await f.start(listen([])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as Error).message).toContain('https://user:***@127.0.0.1:1/content.git');
    expect((error as Error).message).not.toContain('hunter2');
  });

  it('reports a commit without the content folder as invalid, naming the folder', async () => {
    const r = await remote();
    const update = await follower(r, { path: 'catalog' }).start(listen([]));
    expect(update.result).toEqual({
      ok: false,
      problems: [
        { path: 'catalog', line: 1, column: 1, message: `the content folder "catalog" does not exist in commit ${update.commit!.slice(0, 12)}` },
      ],
    });
  });

  it('serves the repository root with path "."', async () => {
    const r = await remote();
    await r.git('mv', 'content', 'tmp');
    await r.git('rm', '--quiet', 'README.md');
    for (const name of await readdir(join(r.work, 'tmp'))) await r.git('mv', `tmp/${name}`, name);
    await r.commit('Content at the root', {});
    const update = await follower(r, { path: '.' }).start(listen([]));
    expect(update.result.ok).toBe(true);
  });
});

describe('GitFollower: commits that cannot be served are content problems, not source faults', () => {
  /** Starts a follower, pushes a commit with `entry` added to the content folder, and returns both and the update. */
  async function pushHandMade(entry: (ids: { blob: string; tree: string }) => string) {
    const r = await remote();
    const f = follower(r);
    const updates: ContentUpdate[] = [];
    const failures: string[] = [];
    await f.start({ ...listen(updates), onSyncFailure: (reason) => void failures.push(reason) });
    const commit = await pushHandMadeEntry(r, entry);
    f.refresh('test');
    await eventually(() => updates.some((u) => u.commit === commit), { what: 'the hand-made commit loaded' });
    return { f, failures, commit, update: updates.find((u) => u.commit === commit)! };
  }

  it('serves a commit with an entry named ".." as if it were not there (hidden entries are never content)', async () => {
    const { f, failures, commit, update } = await pushHandMade(({ tree }) => `040000 tree ${tree}\t..`);
    expect(update.result.ok).toBe(true);
    expect(f.status()).toMatchObject({ fault: undefined, head: commit });
    expect(failures).toEqual([]);
  });

  it('refuses a file name over 255 bytes at that commit, and the source stays ok', async () => {
    const name = `${'n'.repeat(300)}.md`;
    const { f, failures, commit, update } = await pushHandMade(({ blob }) => `100644 blob ${blob}\t${name}`);
    expect(update.result).toEqual({
      ok: false,
      problems: [{ path: `content/${name}`, line: 1, column: 1, message: 'a file or folder name longer than 255 bytes, which no file system holds' }],
    });
    expect(f.status()).toMatchObject({ fault: undefined, head: commit });
    expect(failures).toEqual([]);
  });

  it('never fetches or writes a large file the loader does not read, and refuses a Markdown file over the limit', async () => {
    const r = await remote();
    await r.git('-C', r.bare, 'config', 'uploadpack.allowFilter', 'true'); // as GitHub, GitLab and Gitea do
    const f = follower(r);
    const updates: ContentUpdate[] = [];
    await f.start(listen(updates));
    const big = Buffer.alloc(MAX_FILE_BYTES + 1, 'a').toString();
    const withVideo = await r.commit('A large video beside the lessons', { 'content/media/intro.mp4': big, [LESSON]: lessonText('With video') });
    f.refresh('test');
    await eventually(() => updates.some((u) => u.commit === withVideo), { what: 'the commit with a video' });
    expect(updates.find((u) => u.commit === withVideo)!.result.ok).toBe(true);
    const slot = await slotDir(r);
    expect(await folderBytes(slot)).toBeLessThan(MAX_FILE_BYTES / 2); // neither fetched nor checked out

    const hugeLesson = await r.commit('A huge lesson', { [LESSON]: `---\ntitle: Huge\nlang: python\n---\n\n${big}` });
    f.refresh('test');
    await eventually(() => updates.some((u) => u.commit === hugeLesson), { what: 'the huge lesson' });
    expect(updates.find((u) => u.commit === hugeLesson)!.result).toEqual({
      ok: false,
      problems: [{ path: LESSON, line: 1, column: 1, message: `the file is larger than ${MAX_FILE_BYTES / 1048576} MiB` }],
    });
    expect(await folderBytes(slot)).toBeLessThan(MAX_FILE_BYTES / 2);
  });

  it('refuses a commit whose Markdown is over the configured size', async () => {
    const r = await remote();
    const f = follower(r, { maxContentBytes: 4096 });
    const updates: ContentUpdate[] = [];
    await f.start(listen(updates));
    const large = await r.commit('Long lesson', { [LESSON]: `${lessonText('Long')}\n${'word '.repeat(2000)}\n` });
    f.refresh('test');
    await eventually(() => updates.some((u) => u.commit === large), { what: 'the large commit' });
    const result = updates.find((u) => u.commit === large)!.result;
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems).toEqual([
      {
        path: 'content',
        line: 1,
        column: 1,
        message: 'the content holds 12.1 KiB of files the service reads, more than the limit of 4.0 KiB (CONTENT_GIT_MAX_MIB)',
      },
    ]);
  });
});

describe('GitFollower: a fresh instance whose branch head is invalid', () => {
  it('serves the newest valid commit within the history depth, then reports the head', async () => {
    const r = await remote();
    const valid = await r.commit('Valid', { [LESSON]: lessonText('Valid') });
    await r.commit('Broken once', { [LESSON]: '---\ntitle: Broken\nlang: python\ncolour: red\n---\n' });
    const head = await r.commit('Broken twice', { [LESSON]: '---\ntitle: Broken\nlang: python\ncolour: blue\n---\n' });
    const f = follower(r, { historyDepth: 5 });
    const updates: ContentUpdate[] = [];
    const first = await f.start(listen(updates));
    expect(first.commit).toBe(valid);
    expect(first.result.ok).toBe(true);
    await eventually(() => updates.length === 1, { what: "the head's problems after start" });
    expect(updates[0]!.commit).toBe(head);
    expect(updates[0]!.result.ok).toBe(false);
    expect(f.status()).toMatchObject({ head, fault: undefined });
  });

  it('gives up beyond the depth: start answers the head, invalid', async () => {
    const r = await remote();
    await r.commit('Broken', { [LESSON]: '---\ntitle: Broken\nlang: python\ncolour: red\n---\n' });
    await r.commit('Still broken', { [LESSON]: '---\ntitle: Broken\nlang: python\ncolour: blue\n---\n' });
    const first = await follower(r, { historyDepth: 1 }).start(listen([]));
    expect(first.result.ok).toBe(false);
  });
});

async function slotDir(r: ContentRemote): Promise<string> {
  const key = (await readdir(join(r.root, 'cache'))).find((d) => !d.endsWith('.lock'))!;
  return join(r.root, 'cache', key, 'slot-0');
}
