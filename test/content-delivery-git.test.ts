/**
 * Git follower mode on the real server, with a real bare repository in a temporary folder: a valid push is served,
 * an invalid one is reported with its commit id and `path:line:column` problems while the last good commit stays
 * served, a fix is served, a force-push is followed, a deleted branch shows on `/health` and recovers; the push
 * webhook (a real HMAC) makes the service fetch at once, a wrong one is refused; SIGHUP fetches too.
 */
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually } from './helpers/eventually.js';
import { createContentRemote, type ContentRemote } from './helpers/git-repo.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const LESSON = 'content/courses/python-basics/first-steps/hello-world.md';
const lessonText = (title: string): string => `---\ntitle: ${title}\nlang: python\n---\n\n## One\n\n## Two\n`;
const SECRET = 'test-webhook-secret-0123456789';

async function lessonTitle(s: TestServer): Promise<string> {
  return ((await (await fetch(`${s.url}/v1/lessons/hello-world`)).json()) as { title: string }).title;
}
async function health(s: TestServer): Promise<Record<string, string>> {
  return (await (await fetch(`${s.url}/health`)).json()) as Record<string, string>;
}
const served = (s: TestServer, title: string) =>
  eventually(async () => (await lessonTitle(s)) === title, { what: `"${title}" served`, limitMs: 15_000 });

describe('Git follower, polling every second', () => {
  let remote: ContentRemote;
  let server: TestServer;
  beforeAll(async () => {
    remote = await createContentRemote();
    server = await startTestServer({ env: { CONTENT_GIT_URL: remote.bare, CONTENT_GIT_POLL: '1', CONTENT_GIT_CACHE: join(remote.root, 'cache') } });
  });
  afterAll(async () => {
    await server.close();
    await remote.remove();
  });

  it('serves the branch head, with its commit id as the revision', async () => {
    const head = (await remote.git('rev-parse', 'HEAD')).trim();
    const h = await health(server);
    expect(h).toMatchObject({ revision: head, content_source: 'git', content_watch: 'ok', last_reload_error: '' });
    expect(Date.parse(h.content_synced_at!)).not.toBeNaN();
  });

  it('serves a pushed commit', async () => {
    const commit = await remote.commit('Retitle hello-world', { [LESSON]: lessonText('Pushed') });
    await served(server, 'Pushed');
    expect((await health(server)).revision).toBe(commit);
  });

  it('keeps the last good commit when an invalid one is pushed, reports it with its id, then serves the fix', async () => {
    const good = (await health(server)).revision;
    const bad = await remote.commit('Break the lesson', { [LESSON]: '---\ntitle: Broken\nlang: python\ncolour: red\n---\n\n## One\n' });
    await eventually(async () => (await health(server)).last_reload_error !== '', { what: 'the rejected commit on /health', limitMs: 15_000 });
    const h = await health(server);
    expect(h.last_reload_error).toBe(`commit ${bad}: invalid content (1 problem); see the log or the admin listener's /statusz`);
    expect(h).toMatchObject({ content_head: bad, content_in_sync: 'false', content_watch: 'ok' });
    const rejected = server.logs.find((l) => l.msg === 'content reload rejected; still serving the previous revision' && l.commit === bad)!;
    expect(rejected.problems).toEqual([`${LESSON}:4:1: unknown key "colour"; allowed keys: title, blurb, lang, aliases`]);
    expect(h.revision).toBe(good);
    expect(await lessonTitle(server)).toBe('Pushed');

    const fix = await remote.commit('Fix the lesson', { [LESSON]: lessonText('Fixed') });
    await served(server, 'Fixed');
    expect(await health(server)).toMatchObject({ revision: fix, last_reload_error: '' });
  });

  it('follows a force-push that rewrites history', async () => {
    await remote.git('reset', '--quiet', '--hard', 'HEAD~3');
    const rewritten = await remote.commit('Rewritten history', { [LESSON]: lessonText('Force-pushed') }, { force: true });
    await served(server, 'Force-pushed');
    expect((await health(server)).revision).toBe(rewritten);
  });

  it('says on /health when the branch is deleted, keeps serving, and recovers when it is back', async () => {
    await remote.git('push', '--quiet', 'origin', ':main');
    await eventually(async () => (await health(server)).content_watch !== 'ok', { what: 'a failing fetch on /health', limitMs: 15_000 });
    const h = await health(server);
    expect(h).toMatchObject({ content_watch: 'branch-missing', content_in_sync: 'false', content_watch_since: expect.stringMatching(/Z$/) });
    expect(JSON.stringify(h)).not.toContain(remote.root); // no server path on the public /health
    expect(await lessonTitle(server)).toBe('Force-pushed');

    await remote.commit('Branch back', { [LESSON]: lessonText('Branch back') });
    // No back-off beyond the poll: the next fetch (a second later) serves it.
    await served(server, 'Branch back');
    await eventually(async () => (await health(server)).content_watch === 'ok', { what: 'content_watch ok again' });
  });
});

describe('Git follower with the push webhook (no polling in the test window)', () => {
  let remote: ContentRemote;
  let server: TestServer;
  const sign = (body: string, secret = SECRET): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const deliver = (body: string, headers: Record<string, string>): Promise<Response> =>
    fetch(`${server.server.adminUrl}/hooks/git`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

  beforeAll(async () => {
    remote = await createContentRemote();
    server = await startTestServer({
      env: {
        CONTENT_GIT_URL: remote.bare,
        CONTENT_GIT_POLL: '3600',
        CONTENT_GIT_CACHE: join(remote.root, 'cache'),
        ADMIN_PORT: '0',
        CONTENT_GIT_WEBHOOK_SECRET: SECRET,
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await remote.remove();
  });

  it('is not on the public port', async () => {
    const res = await fetch(`${server.url}/hooks/git`, { method: 'POST', body: '{}', headers: { 'x-hub-signature-256': sign('{}') } });
    expect(res.status).toBe(404); // the public API has no such route
    expect(await res.json()).toEqual({ detail: 'Not Found' });
    expect(server.server.adminUrl).not.toBe(server.url);
  });

  it('refuses a wrong signature and an oversized body without fetching', async () => {
    await remote.commit('Not yet announced', { [LESSON]: lessonText('Unannounced') });
    // An accepted delivery asks the source for a fetch before it is answered: no request, no fetch.
    const refresh = vi.spyOn(server.server.contentSource, 'refresh');
    const wrong = await deliver('{"ref":"refs/heads/main"}', {
      'x-github-event': 'push',
      'x-hub-signature-256': sign('{"ref":"refs/heads/main"}', 'another-secret-0123456789'),
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ detail: 'Unauthorized' });
    const big = 'x'.repeat(1024 * 1024 + 1);
    const oversized = await deliver(big, { 'x-github-event': 'push', 'x-hub-signature-256': sign(big) });
    expect(oversized.status).toBe(413);
    expect(refresh).not.toHaveBeenCalled();
    refresh.mockRestore();
    expect(await lessonTitle(server)).not.toBe('Unannounced');
  });

  it('fetches at once on a valid GitHub delivery and serves the push', async () => {
    const body = JSON.stringify({ ref: 'refs/heads/main', after: '0'.repeat(40) }); // the body's commit id is never used
    const res = await deliver(body, { 'x-github-event': 'push', 'x-github-delivery': 'd-1', 'x-hub-signature-256': sign(body) });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ detail: 'Accepted' });
    await served(server, 'Unannounced');
  });

  it('fetches at once on a valid GitLab delivery', async () => {
    await remote.commit('Via GitLab', { [LESSON]: lessonText('Via GitLab') });
    const res = await deliver('{}', { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': SECRET });
    expect(res.status).toBe(202);
    await served(server, 'Via GitLab');
  });

  it('folds a burst of deliveries into few fetches', async () => {
    const follower = server.server.contentSource as unknown as { fetchCount: number };
    const before = follower.fetchCount;
    await remote.commit('Burst', { [LESSON]: lessonText('Burst') });
    const body = '{}';
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => deliver(body, { 'x-github-event': 'push', 'x-hub-signature-256': sign(body) })),
    );
    expect(answers.every((r) => r.status === 202)).toBe(true);
    await served(server, 'Burst');
    // Deliveries during a fetch fold into at most one more, which starts as the first ends: give it time to show.
    await new Promise((r) => setTimeout(r, 500));
    expect(follower.fetchCount - before).toBeLessThanOrEqual(2);
  });

  it('fetches on SIGHUP (the reload the signal handler calls)', async () => {
    await remote.commit('Via SIGHUP', { [LESSON]: lessonText('Via SIGHUP') });
    server.server.reload('SIGHUP');
    await served(server, 'Via SIGHUP');
  });
});
