/**
 * FolderSource when watching fails (inotify limits, a watcher error): the status says so, the folder is loaded
 * again on each retry with back-off, and watching resumes when it can. Real folders; only the watcher's failure
 * is injected (an inotify limit cannot be reached safely on a shared machine).
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { watchContent, type ContentWatch, type WatchContentOptions } from './watch.js';
import { writeContentFixture } from '../../test/helpers/content-fixture.js';
import { eventually } from '../../test/helpers/eventually.js';
import { FolderSource } from './folder-source.js';
import type { ContentUpdate } from './types.js';

const LESSON = 'courses/python-basics/first-steps/hello-world.md';
const lessonText = (title: string): string => `---\ntitle: ${title}\nlang: python\n---\n\n## One\n`;
const titleOf = (u: ContentUpdate): string | undefined =>
  u.result.ok
    ? u.result.model.catalog.courses.flatMap((c) => c.classes.flatMap((k) => k.lessons)).find((l) => l.id === 'hello-world')?.title
    : undefined;

const silent = pino({ level: 'silent' });
let source: FolderSource | undefined;
let dir: string | undefined;
afterEach(async () => {
  await source?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  source = dir = undefined;
});

/** A watcher that cannot be armed the first `failures` times (ENOSPC, as inotify reports its limits). */
function failingWatch(failures: number): { watch: (d: string, o: WatchContentOptions) => Promise<ContentWatch>; attempts: () => number } {
  let attempts = 0;
  return {
    attempts: () => attempts,
    watch: async (d, o) => {
      attempts++;
      if (attempts <= failures) throw Object.assign(new Error('inotify watch limit reached'), { code: 'ENOSPC' });
      return watchContent(d, o);
    },
  };
}

describe('FolderSource', () => {
  it('serves the first load even when the watcher cannot be armed, reports it, loads again on retry, then watches', async () => {
    dir = await writeContentFixture(undefined, (files) => void (files[LESSON] = lessonText('First')));
    const failing = failingWatch(2);
    const updates: ContentUpdate[] = [];
    const statuses: string[] = [];
    source = new FolderSource({ dir, logger: silent, watch: failing.watch, checkIntervalMs: 50, retryMinMs: 100, retryMaxMs: 400, debounceMs: 20 });
    const first = await source.start({ onUpdate: (u) => updates.push(u), onStatus: (s) => statuses.push(s.fault?.reason ?? 'ok') });
    expect(titleOf(first)).toBe('First');
    expect(source.status().fault).toMatchObject({
      reason: 'watch-failed',
      detail: expect.stringMatching(/^watching failed \(ENOSPC\); loading the folder again in \d+ s$/),
    });

    // Not watched: an edit is still picked up by the retry's load.
    await writeFile(join(dir, LESSON), lessonText('Seen by a retry'));
    await eventually(() => updates.some((u) => titleOf(u) === 'Seen by a retry'), { what: 'the retry to load the edit' });
    await eventually(() => source!.status().fault === undefined, { what: 'watching to resume' });
    expect(failing.attempts()).toBe(3);
    expect(statuses.at(-1)).toBe('ok');

    // Watching again: an edit arrives through the watcher.
    await writeFile(join(dir, LESSON), lessonText('Seen by the watcher'));
    await eventually(() => updates.some((u) => titleOf(u) === 'Seen by the watcher'), { what: 'the watcher to reload' });
  });

  it('re-arms when a running watcher reports an error', async () => {
    dir = await writeContentFixture(undefined, (files) => void (files[LESSON] = lessonText('First')));
    let fail: ((error: unknown) => void) | undefined;
    let armed = 0;
    source = new FolderSource({
      dir,
      logger: silent,
      checkIntervalMs: 50,
      retryMinMs: 100,
      debounceMs: 20,
      watch: async (d, o) => {
        armed++;
        fail = o.onError;
        return watchContent(d, o);
      },
    });
    const updates: ContentUpdate[] = [];
    await source.start({ onUpdate: (u) => updates.push(u), onStatus: () => undefined });
    fail!(Object.assign(new Error('watcher broke'), { code: 'EMFILE' }));
    expect(source.status().fault).toMatchObject({ reason: 'watch-failed', detail: expect.stringMatching(/^watching failed \(EMFILE\)/) });
    await eventually(() => source!.status().fault === undefined && armed === 2, { what: 'a new watcher' });
    await writeFile(join(dir, LESSON), lessonText('After re-arming'));
    await eventually(() => updates.some((u) => titleOf(u) === 'After re-arming'), { what: 'the new watcher to reload' });
  });

  it('folds a burst of refreshes into one load, and one asked for during a load into one more', async () => {
    dir = await writeContentFixture();
    const updates: ContentUpdate[] = [];
    source = new FolderSource({ dir, logger: silent, follow: false });
    await source.start({ onUpdate: (u) => updates.push(u), onStatus: () => undefined });
    for (let i = 0; i < 20; i++) source.refresh('SIGHUP');
    await eventually(() => updates.length >= 1, { what: 'the refresh' });
    source.refresh('again');
    await eventually(() => updates.length >= 2, { what: 'the second refresh' });
    await source.close(); // waits for anything still queued
    expect(updates.map((u) => u.reason)).toEqual(['SIGHUP', 'again']);
    expect(updates.every((u) => u.result.ok)).toBe(true);
  });
});
