/**
 * Git follower mode after crashes, as in a container: the built server runs as pid 1 of a fresh PID namespace
 * (`unshare --pid --fork`), so every restart gets the crashed run's pid. Killed with SIGKILL three times in a row
 * (its cache slot's lock left behind each time), then restarted with the remote gone: it keeps one working slot and
 * serves the branch from the cache.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContentRemote, type ContentRemote } from './helpers/git-repo.js';
import { killServers, servingUrl, spawnServer, type SpawnedServer } from './helpers/server-process.js';

const ROOT = join(import.meta.dirname, '..');
// Creating a PID namespace takes CAP_SYS_ADMIN: root (as CI runs), not a developer's own account.
const unshare = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']);
const noNamespace =
  unshare.status === 0 ? '' : `unshare cannot create a PID namespace here (${(unshare.error?.message ?? unshare.stderr.toString()).trim()})`;

/** The built server as pid 1 of a new PID namespace; `--kill-child` ends it with `unshare` if the test dies. */
function startInNamespace(env: Record<string, string>): SpawnedServer {
  return spawnServer(env, { command: ['unshare', '--pid', '--fork', '--mount-proc', '--kill-child', process.execPath, 'dist/server.js'] });
}

/** The server's pid outside and inside its namespace: the one child of `unshare`, and its `NSpid` line. */
async function serverPids(s: SpawnedServer): Promise<{ outer: number; inner: number }> {
  const outer = Number((await readFile(`/proc/${s.child.pid}/task/${s.child.pid}/children`, 'utf8')).trim());
  const nspid = /^NSpid:\s+(.*)$/m.exec(await readFile(`/proc/${outer}/status`, 'utf8'))?.[1]?.split(/\s+/) ?? [];
  return { outer, inner: Number(nspid.at(-1)) };
}

/** The working slot folders (`slot-<n>/`) in the cache, across its repository folders. */
async function slotFolders(cache: string): Promise<string[]> {
  const out: string[] = [];
  for (const repo of await readdir(cache)) {
    for (const entry of await readdir(join(cache, repo), { withFileTypes: true })) {
      if (entry.isDirectory() && /^slot-\d+$/.test(entry.name)) out.push(join(repo, entry.name));
    }
  }
  return out;
}

describe.skipIf(noNamespace !== '')(`Git follower crashing in a container${noNamespace && ` (skipped: ${noNamespace})`}`, () => {
  let remote: ContentRemote;
  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'server.js'))) throw new Error('dist/server.js is missing: run `npm run build` first');
    remote = await createContentRemote();
  });
  afterAll(async () => {
    killServers();
    await remote.remove();
  });

  it('restarts after three SIGKILLs with the same pid into one slot, and serves from it with the remote gone', async () => {
    const cache = join(remote.root, 'cache');
    const env = { CONTENT_GIT_URL: remote.bare, CONTENT_GIT_POLL: '3600', CONTENT_GIT_CACHE: cache };
    const innerPids: number[] = [];
    for (let crash = 1; crash <= 3; crash++) {
      const server = startInNamespace(env);
      const url = await servingUrl(server);
      expect((await fetch(`${url}/v1/catalog`)).status).toBe(200);
      const { outer, inner } = await serverPids(server);
      innerPids.push(inner);
      process.kill(outer, 'SIGKILL'); // the namespace's init: its end ends the namespace and unshare
      await server.exited;
    }
    expect(innerPids).toEqual([1, 1, 1]);

    await rename(remote.bare, `${remote.bare}.gone`);
    const server = startInNamespace(env);
    const url = await servingUrl(server);
    expect((await fetch(`${url}/v1/catalog`)).status).toBe(200);
    const health = (await (await fetch(`${url}/health`)).json()) as Record<string, string>;
    expect(health).toMatchObject({ content_watch: 'repository-missing', content_in_sync: 'false' });
    expect(await slotFolders(cache)).toEqual([expect.stringMatching(/\/slot-0$/)]);
    process.kill((await serverPids(server)).outer, 'SIGTERM'); // unshare ignores it; the server drains and exits
    expect(await server.exited).toBe(0);
  });
});
