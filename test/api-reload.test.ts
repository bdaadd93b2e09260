/**
 * Hot reload on the real server: a content edit is served without a restart, an invalid edit is rejected
 * (the last good revision stays served and `/health` reports the problem), and the referral digests file
 * reloads the same way.
 */
import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeDigest } from '../src/referrals/digests.js';
import { eventually } from './helpers/eventually.js';
import { rawRequest } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let srv: TestServer;

const json = async (path: string) => (await rawRequest(srv.url, path)).json() as Record<string, unknown>;

beforeAll(async () => {
  srv = await startTestServer({ start: { contentDebounceMs: 60 } });
});
afterAll(async () => {
  await srv?.close();
});

describe('content hot reload', () => {
  const lessonFile = () => join(srv.contentDir, 'courses/python-basics/first-steps/hello-world.md');

  it('serves an edited lesson, with a new ETag and revision, without a restart', async () => {
    const before = await rawRequest(srv.url, '/v1/lessons/hello-world');
    const revision = (await json('/health')).revision;
    const text = await readFile(lessonFile(), 'utf8');
    await writeFile(lessonFile(), text.replace('title: Hello, world', 'title: Hello again'));
    await eventually(async () => (await json('/v1/lessons/hello-world')).title === 'Hello again');
    const after = await rawRequest(srv.url, '/v1/lessons/hello-world');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await json('/health')).revision).not.toBe(revision);
    // The aggregate containing it changed too.
    const catalog = (await json('/v1/catalog')) as { courses: Array<{ classes: Array<{ lessons: Array<{ id: string; title: string }> }> }> };
    expect(catalog.courses[0]!.classes[0]!.lessons.find((l) => l.id === 'hello-world')!.title).toBe('Hello again');
    // An old ETag no longer matches.
    expect((await rawRequest(srv.url, '/v1/lessons/hello-world', { headers: { 'if-none-match': before.headers.etag! } })).status).toBe(200);
  });

  it('serves a changed aggregate at once and its br and gzip forms once compressed, each with its own tag', async () => {
    const catalogBlurb = async () => ((await json('/v1/catalog')) as { courses: Array<{ blurb: string | null }> }).courses[0]!.blurb;
    const courseFile = join(srv.contentDir, 'courses/python-basics/index.md');
    const text = await readFile(courseFile, 'utf8');
    // A blurb long enough that /v1/catalog is worth compressing.
    const blurb = 'Learn Python by writing small programs, one step at a time. '.repeat(8).trim();
    await writeFile(courseFile, text.replace(/^blurb: .*$/m, `blurb: ${blurb}`));
    await eventually(async () => (await catalogBlurb()) === blurb);
    const identity = await rawRequest(srv.url, '/v1/catalog');
    await eventually(
      async () => (await rawRequest(srv.url, '/v1/catalog', { headers: { 'accept-encoding': 'br' } })).headers['content-encoding'] === 'br',
    );
    const br = await rawRequest(srv.url, '/v1/catalog', { headers: { 'accept-encoding': 'br' } });
    const gzip = await rawRequest(srv.url, '/v1/catalog', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(br.headers.etag).toBe(identity.headers.etag!.replace(/"$/, '.br"'));
    expect(gzip.headers.etag).toBe(identity.headers.etag!.replace(/"$/, '.gz"'));
    await writeFile(courseFile, text);
    await eventually(async () => (await catalogBlurb()) !== blurb);
  });

  it('keeps serving the last good revision when an edit is invalid, and reports it on /health', async () => {
    const good = await rawRequest(srv.url, '/v1/catalog');
    const text = await readFile(lessonFile(), 'utf8');
    await writeFile(lessonFile(), text.replace('lang: python', 'lang: "Not A Lang!"'));
    await eventually(async () => (await json('/health')).last_reload_error !== '');
    const health = await json('/health');
    // /health counts the problems; the file, line and value go to the log only (an embargoed entry stays unseen).
    expect(health.last_reload_error).toBe("invalid content (1 problem); see the log or the admin listener's /statusz");
    expect(JSON.stringify(health)).not.toContain('hello-world');
    const rejected = srv.logs.find((l) => l.msg === 'content reload rejected; still serving the previous revision')!;
    expect(String((rejected.problems as string[])[0])).toMatch(/^courses\/python-basics\/first-steps\/hello-world\.md:\d+:\d+: /);
    expect(JSON.stringify(rejected)).not.toContain(srv.contentDir); // paths relative to the content root, never the server's
    expect(health.status).toBe('ok');
    const still = await rawRequest(srv.url, '/v1/catalog');
    expect(still.headers.etag).toBe(good.headers.etag);
    // Fixing it clears the error.
    await writeFile(lessonFile(), text);
    await eventually(async () => (await json('/health')).last_reload_error === '');
  });
});

describe('an embargoed changelog entry pushed with a typo', () => {
  it('shows neither its file name nor its values on the public /health; the log has them', async () => {
    const entry = join(srv.contentDir, 'changelog/acquisition-of-examplecorp-2099-12-15.md');
    await writeFile(entry, '---\nkind: acquisiton\ntitle: We acquire ExampleCorp\nblurb: ExampleCorp joins us.\n---\nEmbargoed.\n');
    try {
      await eventually(async () => (await json('/health')).last_reload_error !== '');
      const health = JSON.stringify(await json('/health'));
      for (const secret of ['acquisition', 'examplecorp', '2099', 'acquisiton', 'ExampleCorp']) expect(health).not.toContain(secret);
      const rejected = srv.logs.findLast((l) => l.msg === 'content reload rejected; still serving the previous revision')!;
      expect((rejected.problems as string[])[0]).toMatch(/^changelog\/acquisition-of-examplecorp-2099-12-15\.md:2:\d+: /);
    } finally {
      await rm(entry);
      await eventually(async () => (await json('/health')).last_reload_error === '');
    }
  });
});

describe('referral digests reload', () => {
  it('a file rewritten in place (truncated, then written slowly) is loaded only once complete and stable', async () => {
    const codes = ['STABLE-1', 'STABLE-2', 'STABLE-3'];
    await writeFile(srv.referralsFile, codes.map((c) => `${codeDigest(c)}\n`).join(''));
    await eventually(async () => (await json('/v1/referrals/STABLE-3')).valid === true);
    const handle = await open(srv.referralsFile, 'r+');
    let sawFalse = false;
    try {
      await handle.truncate(0);
      for (const code of [...codes, 'STABLE-4']) {
        // Each pause is shorter than the stability wait: the file is still being written.
        for (let i = 0; i < 3; i++) {
          if ((await json('/v1/referrals/STABLE-1')).valid !== true) sawFalse = true;
          await new Promise((r) => setTimeout(r, 30));
        }
        await handle.write(`${codeDigest(code)}\n`);
      }
    } finally {
      await handle.close();
    }
    await eventually(async () => (await json('/v1/referrals/STABLE-4')).valid === true);
    expect(sawFalse).toBe(false); // valid codes never answered false while the file was incomplete
  });

  it('a code added to the file becomes valid, and a bad file keeps the previous set', async () => {
    expect(await json('/v1/referrals/NEW-CODE-1')).toEqual({ valid: false });
    await writeFile(srv.referralsFile, `${codeDigest('NEW-CODE-1')}\n`);
    await eventually(async () => (await json('/v1/referrals/NEW-CODE-1')).valid === true);
    expect(await json('/v1/referrals/WELCOME-2026')).toEqual({ valid: false });

    await writeFile(srv.referralsFile, 'PLAINTEXT-CODE-42\n');
    expect(await json('/health')).toMatchObject({ referral_source: 'file', referrals_reload_error: '' });
    await eventually(async () => (await json('/health')).referrals_reload_error !== '');
    // The public /health says only what a client may know: no line of the file, no server path.
    const health = JSON.stringify(await json('/health'));
    expect((await json('/health')).referrals_reload_error).toBe('invalid file, previous set kept');
    expect(health).not.toContain('PLAINTEXT-CODE-42');
    expect(health).not.toContain(srv.referralsFile);
    const logged = srv.logs.find((l) => l.msg === 'referral digests reload rejected; keeping the previous set');
    expect(String(logged?.error)).toContain(':1: not a SHA-256 hex digest'); // the details, in the log
    expect(await json('/v1/referrals/NEW-CODE-1')).toEqual({ valid: true });
  });
});
