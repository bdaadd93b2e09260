/**
 * Scheduled publishing on the real server: a content folder holding a changelog entry dated later, a fake clock
 * given to the server (`now`, `timers`; the rest of the process keeps real time). The entry, its roadmap move and
 * its deprecation are absent from every representation until the clock passes 00:00 UTC of its date, then present:
 * no file changes, no reload, no restart.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './helpers/eventually.js';
import { FakeClock } from './helpers/fake-clock.js';
import { rawRequest } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const ENTRY = 'scheduling-2026-12-01';
const clock = new FakeClock('2026-11-30T23:59:00Z');
let srv: TestServer;

const get = (path: string) => rawRequest(srv.url, path);
const json = async (path: string) => (await get(path)).json() as Record<string, unknown>;
const changelogIds = async () => ((await json('/v1/changelog')) as { entries: { id: string }[] }).entries.map((e) => e.id);
const stageOf = async (id: string) =>
  ((await json('/v1/roadmap')) as { stages: { key: string; items: { id: string }[] }[] }).stages.find((s) => s.items.some((i) => i.id === id))?.key;

beforeAll(async () => {
  srv = await startTestServer({
    start: { now: clock.now, timers: clock.timers, contentDebounceMs: 60 },
    editContent(files) {
      files[`changelog/${ENTRY}.md`] =
        '---\nkind: feature\ntitle: Scheduled publishing\nblurb: Entries appear on their date.\n' +
        'deprecates:\n  - path: /v1/catalog\n    sunset: 2027-06-01\n---\n\nWriters date an entry ahead.\n';
      files['roadmap/sql-joins.md'] = `---\ntitle: SQL joins\ntheme: Courses\nstage: shipped\nshipped: ${ENTRY}\n---\n\nJoining tables.\n`;
    },
  });
});
afterAll(async () => {
  await srv?.close();
});

describe('scheduled publishing', () => {
  it('holds a future entry back from the API, the pages, the feed and the headers, and says when it comes', async () => {
    expect(await changelogIds()).not.toContain(ENTRY);
    expect((await get('/changelog')).text).not.toContain(ENTRY);
    expect((await get('/changelog.atom')).text).not.toContain(ENTRY);
    expect(await stageOf('sql-joins')).toBe('building');
    expect((await get('/roadmap')).text).not.toContain(`changelog#${ENTRY}`);
    expect((await get('/v1/catalog')).headers.deprecation).toBeUndefined();
    expect((await json('/health')).next_scheduled_change).toBe('2026-12-01T00:00:00.000Z');
  });

  it('re-arms when the content reloads meanwhile, still holding back what is dated later', async () => {
    await writeFile(
      join(srv.contentDir, 'changelog/early-2026-12-01.md'),
      '---\nkind: feature\ntitle: Early\nblurb: Also on the first.\n---\n\nAlso dated the first.\n',
    );
    await eventually(() => srv.logs.some((l) => l.msg === 'content reloaded'), { what: 'the reload' });
    expect(await changelogIds()).not.toContain('early-2026-12-01');
    expect((await json('/health')).next_scheduled_change).toBe('2026-12-01T00:00:00.000Z');
    expect(clock.armed).toBe(1);
  });

  it('publishes them at 00:00 UTC of their date without a file change or a restart, reusing what did not change', async () => {
    const lesson = srv.server.holder.current.representations.get('/v1/lessons/hello-world');
    const healthBefore = await json('/health');
    clock.set('2026-11-30T23:59:59.999Z');
    expect(await changelogIds()).not.toContain(ENTRY);

    clock.set('2026-12-01T00:00:00Z');
    await eventually(async () => (await changelogIds()).includes(ENTRY), { what: 'the scheduled entry on /v1/changelog' });
    expect(await changelogIds()).toContain('early-2026-12-01');
    expect((await get('/changelog')).text).toContain(`id="${ENTRY}"`);
    const feed = (await get('/changelog.atom')).text;
    expect(feed).toContain(`/changelog#${ENTRY}`);
    expect(await stageOf('sql-joins')).toBe('shipped');
    expect((await get('/roadmap')).text).toContain(`changelog#${ENTRY}`);
    const catalog = await get('/v1/catalog');
    expect(catalog.headers.deprecation).toBe(`@${Date.UTC(2026, 11, 1) / 1000}`);
    expect(catalog.headers.link).toContain(`/changelog#${ENTRY}>; rel="deprecation"`);

    const health = await json('/health');
    expect(health.next_scheduled_change).toBe('');
    expect(health.revision).toBe(healthBefore.revision);
    expect(health.last_reload_at).toBe(healthBefore.last_reload_at);
    expect(health.built_at).toBe('2026-12-01T00:00:00.000Z');
    // A lesson is not affected by the date: its representation is the very object served before.
    expect(srv.server.holder.current.representations.get('/v1/lessons/hello-world')).toBe(lesson);
    expect(srv.logs.some((l) => l.msg === 'scheduled content published' && (l.published as string[]).includes(ENTRY))).toBe(true);
  });

  it('arms for an entry a reload brings later, and clears the timer on shutdown', async () => {
    await writeFile(
      join(srv.contentDir, 'changelog/next-year-2027-01-15.md'),
      '---\nkind: feature\ntitle: Next year\nblurb: Later.\n---\n\nLater.\n',
    );
    await eventually(async () => (await json('/health')).next_scheduled_change === '2027-01-15T00:00:00.000Z', {
      what: 'the next change on /health',
    });
    expect(await changelogIds()).not.toContain('next-year-2027-01-15');
    expect(clock.armed).toBe(1);
    await srv.server.close();
    expect(clock.armed).toBe(0);
  });
});
