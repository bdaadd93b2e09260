/**
 * Large pushes do not fill the Git cache or stall serving: two pushes of a 150 MB file under `content/` (a video
 * beside the lessons), then a commit removing it, followed by the built server (`node dist/server.js`) while a
 * client asks for `/v1/catalog` every 100 ms. The remote answers partial-clone filters, as GitHub, GitLab and Gitea
 * do. Every request is answered, and the cache stays within the documented bound: the head's objects without blobs
 * over 8 MiB, and the Markdown of two checkouts.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../src/content/loader.js';
import { eventually } from './helpers/eventually.js';
import { folderBytes } from './helpers/folder-bytes.js';
import { createContentRemote, type ContentRemote } from './helpers/git-repo.js';
import { killServers, servingUrl, spawnServer } from './helpers/server-process.js';

const ROOT = join(import.meta.dirname, '..');
const LARGE_BYTES = 150 * 1000 * 1000;
const LESSON = 'content/courses/python-basics/first-steps/hello-world.md';
const lessonText = (title: string): string => `---\ntitle: ${title}\nlang: python\n---\n\n## One\n`;

/** Asks for `url` every 100 ms until stopped; counts the answers and the requests not answered 200 within 5 s. */
function steadyClient(url: string): { stop(): Promise<{ answered: number; failed: number }> } {
  let running = true;
  let answered = 0;
  let failed = 0;
  const loop = (async () => {
    while (running) {
      const sent = Date.now();
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
        await res.arrayBuffer();
        if (res.status === 200) answered++;
        else failed++;
      } catch {
        failed++;
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 100 - (Date.now() - sent))));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { answered, failed };
    },
  };
}

describe('large pushes to a followed branch', () => {
  let remote: ContentRemote;
  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'server.js'))) throw new Error('dist/server.js is missing: run `npm run build` first');
    remote = await createContentRemote();
    await remote.git('-C', remote.bare, 'config', 'uploadpack.allowFilter', 'true');
  });
  afterAll(async () => {
    killServers();
    await remote.remove();
  });

  it('keep the cache small and every request answered', { timeout: 180_000 }, async () => {
    const cache = join(remote.root, 'cache');
    const server = spawnServer(
      { CONTENT_GIT_URL: remote.bare, CONTENT_GIT_POLL: '1', CONTENT_GIT_CACHE: cache, RATE_LIMIT_ANONYMOUS: '1000000' },
      { command: [process.execPath, 'dist/server.js'] },
    );
    const url = await servingUrl(server);
    const revision = async (): Promise<string> => ((await (await fetch(`${url}/health`)).json()) as { revision: string }).revision;
    const served = (commit: string): Promise<void> =>
      eventually(async () => (await revision()) === commit, { what: `commit ${commit.slice(0, 7)} served`, limitMs: 60_000 });
    const sizes: number[] = [await folderBytes(cache)];
    const client = steadyClient(`${url}/v1/catalog`);
    for (const n of [1, 2]) {
      const commit = await remote.commit(`A ${n}50 MB video`, {
        'content/media/intro.mp4': randomBytes(LARGE_BYTES),
        [LESSON]: lessonText(`With video ${n}`),
      });
      await served(commit);
      sizes.push(await folderBytes(cache));
    }
    await remote.git('rm', '--quiet', 'content/media/intro.mp4');
    const removed = await remote.commit('No video', { [LESSON]: lessonText('No video') });
    await served(removed);
    sizes.push(await folderBytes(cache));
    const { answered, failed } = await client.stop();

    expect(failed).toBe(0);
    expect(answered).toBeGreaterThan(10);
    for (const size of sizes) expect(size).toBeLessThan(MAX_FILE_BYTES);
    console.info(`cache bytes: ${sizes.join(' → ')}; requests answered ${answered}, unanswered ${failed}`);
  });
});
