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
import { createContentRemote, type ContentRemote } from '../../test/helpers/git-repo.js';
import { eventually } from '../../test/helpers/eventually.js';
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
    expect(again.status().content_watch).toMatch(/^fetching branch "main" fails since .*: the repository cannot be found; retrying in \d+ s$/);
    expect(again.status().content_watch).not.toContain(r.root);
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
