/**
 * A fleet: two built servers (`node dist/server.js`, separate processes and caches) follow one real bare repository,
 * polling every second. For each fault that once emptied the Service (the branch renamed away, the remote moved,
 * a commit with an entry no file system holds, one with an entry `..`), both instances stay ready and keep serving,
 * `/health` and the metrics show the fault, and the head is served again within a poll once it clears. A fresh
 * instance whose branch head is invalid starts on the newest valid commit before it, and says so.
 */
import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './helpers/eventually.js';
import { createContentRemote, pushHandMadeEntry, type ContentRemote } from './helpers/git-repo.js';
import { killServers, logLines, servingUrl, spawnServer, type SpawnedServer } from './helpers/server-process.js';

const ROOT = join(import.meta.dirname, '..');
const LESSON = 'content/courses/python-basics/first-steps/hello-world.md';
const lessonText = (title: string): string => `---\ntitle: ${title}\nlang: python\n---\n\n## One\n\n## Two\n`;
const INVALID = '---\ntitle: Broken\nlang: python\ncolour: red\n---\n\n## One\n';

/** A running instance: its public and admin URLs. */
interface Instance {
  process: SpawnedServer;
  url: string;
  admin: string;
}

async function startInstance(remote: ContentRemote, name: string): Promise<Instance> {
  const process = spawnServer(
    {
      CONTENT_GIT_URL: remote.bare,
      CONTENT_GIT_POLL: '1',
      CONTENT_GIT_CACHE: join(remote.root, `cache-${name}`),
      ADMIN_PORT: '0',
      RATE_LIMIT_ANONYMOUS: '1000000',
    },
    { command: [globalThis.process.execPath, 'dist/server.js'] },
  );
  const url = await servingUrl(process);
  const admin = logLines(process).find((l) => l.msg === 'serving')!.admin_url as string;
  return { process, url, admin };
}

const json = async (url: string): Promise<Record<string, string>> => (await (await fetch(url)).json()) as Record<string, string>;
const health = (i: Instance): Promise<Record<string, string>> => json(`${i.url}/health`);
const title = async (i: Instance): Promise<string> => (await json(`${i.url}/v1/lessons/hello-world`)).title!;

/** The value of one series of the instance's `/metrics` (`name{labels}` as written there), or `undefined`. */
async function metric(i: Instance, series: string): Promise<number | undefined> {
  const text = await (await fetch(`${i.admin}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Both instances: ready, answering the catalog, and serving `expected` as the lesson's title. */
async function servingBoth(fleet: Instance[], expected: string): Promise<void> {
  for (const i of fleet) {
    expect((await fetch(`${i.admin}/readyz`)).status).toBe(200);
    expect((await fetch(`${i.url}/v1/catalog`)).status).toBe(200);
    expect(await title(i)).toBe(expected);
  }
}

/** Waits until every instance serves `commit` (within a few polls of one second). */
async function headServed(fleet: Instance[], commit: string): Promise<void> {
  for (const i of fleet) {
    await eventually(async () => (await health(i)).revision === commit, { what: `commit ${commit.slice(0, 7)} served`, limitMs: 10_000 });
    expect(await health(i)).toMatchObject({ content_watch: 'ok', content_in_sync: 'true', content_head: commit, last_reload_error: '' });
    expect(await metric(i, 'syllabus_content_in_sync')).toBe(1);
    // The served commit's own time (the test's commits are seconds old), so its age can be alerted on.
    const committed = await metric(i, 'syllabus_content_revision_timestamp_seconds');
    expect(Math.abs(Date.now() / 1000 - committed!)).toBeLessThan(3600);
  }
}

describe('two instances following one branch', () => {
  let remote: ContentRemote;
  let fleet: Instance[];
  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'server.js'))) throw new Error('dist/server.js is missing: run `npm run build` first');
    remote = await createContentRemote();
    fleet = await Promise.all([startInstance(remote, 'a'), startInstance(remote, 'b')]);
  });
  afterAll(async () => {
    killServers();
    await remote.remove();
  });

  it('stay ready and serving while the branch is renamed away, and serve the head within a poll once it is back', async () => {
    const before = await remote.commit('Before the rename', { [LESSON]: lessonText('Before the rename') });
    await headServed(fleet, before);
    await remote.git('push', '--quiet', 'origin', 'main:renamed', ':main');
    for (const i of fleet) {
      await eventually(async () => (await health(i)).content_watch === 'branch-missing', { what: 'the fault on /health' });
      expect(await health(i)).toMatchObject({ content_in_sync: 'false', revision: before });
      expect(await metric(i, 'syllabus_content_source_up')).toBe(0);
      expect(await metric(i, 'syllabus_content_sync_failures_total{reason="branch-missing"}')).toBeGreaterThan(0);
      const status = (await (await fetch(`${i.admin}/statusz`)).json()) as { source: { fault: { reason: string; detail: string } } };
      expect(status.source.fault.reason).toBe('branch-missing');
    }
    await servingBoth(fleet, 'Before the rename');
    const back = await remote.commit('Branch back', { [LESSON]: lessonText('Branch back') });
    await headServed(fleet, back);
    for (const i of fleet) expect(await metric(i, 'syllabus_content_source_up')).toBe(1);
  });

  it('stay ready and serving while the remote is moved away, and serve the head once it is back', async () => {
    await rename(remote.bare, `${remote.bare}.moved`);
    for (const i of fleet) {
      await eventually(async () => (await health(i)).content_watch === 'repository-missing', { what: 'the fault on /health' });
      expect(await metric(i, 'syllabus_content_sync_failures_total{reason="repository-missing"}')).toBeGreaterThan(0);
    }
    await servingBoth(fleet, 'Branch back');
    await rename(`${remote.bare}.moved`, remote.bare);
    const after = await remote.commit('Remote back', { [LESSON]: lessonText('Remote back') });
    await headServed(fleet, after);
  });

  it('refuse a commit holding a name no file system holds as invalid content, stay ready, then serve the fix', async () => {
    const bad = await pushHandMadeEntry(remote, ({ blob }) => `100644 blob ${blob}\t${'n'.repeat(300)}.md`);
    for (const i of fleet) {
      await eventually(async () => (await health(i)).last_reload_error !== '', { what: 'the rejected commit on /health' });
      const h = await health(i);
      expect(h).toMatchObject({ content_watch: 'ok', content_in_sync: 'false', content_head: bad });
      expect(h.last_reload_error).toBe(`commit ${bad}: invalid content (1 problem); see the log or the admin listener's /statusz`);
      expect(JSON.stringify(h)).not.toContain('nnnn'); // the file's name stays off the public /health
      const status = (await (await fetch(`${i.admin}/statusz`)).json()) as { last_rejected: { commit: string; problems: string[] } };
      expect(status.last_rejected.commit).toBe(bad);
      expect(status.last_rejected.problems[0]).toMatch(/^content\/n{300}\.md:1:1: a file or folder name longer than 255 bytes/);
      expect(await metric(i, 'syllabus_content_in_sync')).toBe(0);
      expect(await metric(i, 'syllabus_content_source_up')).toBe(1);
    }
    await servingBoth(fleet, 'Remote back');
    // The working clone's index never held the long name: its next commit leaves it out.
    const fix = await remote.commit('Without the long name', { [LESSON]: lessonText('Fixed') });
    await headServed(fleet, fix);
  });

  it('serve a commit with an entry named ".." without it', async () => {
    const dotdot = await pushHandMadeEntry(remote, ({ tree }) => `040000 tree ${tree}\t..`);
    await headServed(fleet, dotdot);
    await servingBoth(fleet, 'Fixed');
  });
});

describe('a fresh instance on a branch whose head is invalid', () => {
  let remote: ContentRemote;
  afterAll(async () => {
    killServers();
    await remote.remove();
  });

  it('serves the newest valid commit before the head, says so, and serves the head once it is fixed', async () => {
    remote = await createContentRemote();
    const valid = await remote.commit('Valid', { [LESSON]: lessonText('Valid') });
    await remote.commit('Broken', { [LESSON]: INVALID });
    const head = await remote.commit('Still broken', { [LESSON]: INVALID.replace('red', 'blue') });
    const fresh = await startInstance(remote, 'fresh');
    expect(await title(fresh)).toBe('Valid');
    await eventually(async () => (await health(fresh)).last_reload_error !== '', { what: "the head's problems on /health" });
    expect(await health(fresh)).toMatchObject({
      revision: valid,
      content_head: head,
      content_in_sync: 'false',
      content_watch: 'ok',
      last_reload_error: `commit ${head}: invalid content (1 problem); see the log or the admin listener's /statusz`,
    });
    expect((await fetch(`${fresh.admin}/readyz`)).status).toBe(200);
    const logged = logLines(fresh.process).find(
      (l) => l.msg === 'the branch head is invalid; serving the newest valid commit before it until the head is fixed',
    );
    expect(logged).toMatchObject({ head, commit: valid, looked_back: 2 });

    const fixed = await remote.commit('Fixed', { [LESSON]: lessonText('Fixed head') });
    await headServed([fresh], fixed);
    expect(await title(fresh)).toBe('Fixed head');
  });
});
