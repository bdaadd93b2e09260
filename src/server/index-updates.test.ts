/**
 * The serial index work on its own: a real index builder and holder, a content report over a stub source, and a
 * fake clock whose timers fire only when the test moves it.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../test/helpers/fake-clock.js';
import { sampleModel } from '../../test/helpers/sample-model.js';
import type { ContentModel, Problem } from '../content/model.js';
import { publishedAt } from '../content/schedule.js';
import { IndexHolder } from '../index/holder.js';
import type { CatalogIndex } from '../index/types.js';
import type { ContentSource, ContentUpdate } from '../source/types.js';
import { indexBuilder } from './app.js';
import { loadConfig } from './config.js';
import { ContentReport, STATUS_PATH } from './content-report.js';
import { IndexUpdates, PUBLISH_RETRY_MS, type IndexWork } from './index-updates.js';

const START = '2026-11-30T23:59:00Z';

/** A source that only reports a folder in sync (the report reads its status). */
const SOURCE: ContentSource = {
  kind: 'folder',
  start: () => Promise.reject(new Error('not used')),
  refresh: () => undefined,
  status: () => ({ kind: 'folder', syncedAt: START, fault: undefined }),
  close: () => Promise.resolve(),
};

/** `sampleModel` with one more changelog entry dated `date` (held back before its day). */
function withEntryOn(date: string, revision: string): ContentModel {
  const model = sampleModel({ revision });
  const entry = { ...model.changelog.entries[0]!, id: `entry-${date}`, date, deprecates: [] };
  return { ...model, changelog: { entries: [entry, ...model.changelog.entries] } };
}

const valid = (model: ContentModel, reason = 'test'): ContentUpdate => ({ result: { ok: true, model }, reason, changedFiles: 1 });
const invalid = (problems: Problem[], commit?: string): ContentUpdate => ({
  result: { ok: false, problems },
  reason: 'test',
  changedFiles: 1,
  ...(commit !== undefined && { commit }),
});

/** A promise resolved from outside. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Index updates over `first` as the clock publishes it, with the real builder (wrapped by `wrap`, e.g. to fail
 * or wait) and every reload result and log message recorded.
 */
async function setUp(
  first: ContentModel,
  options: { wrap?: (build: IndexWork['build']) => IndexWork['build']; compress?: IndexWork['compress'] } = {},
) {
  const clock = new FakeClock(START);
  const realBuild = indexBuilder(loadConfig({}, '/srv'), clock.now);
  const builtRevisions: string[] = [];
  const build: IndexWork['build'] = (model, previous) => {
    builtRevisions.push(model.revision);
    return realBuild(model, previous);
  };
  const published = publishedAt(first, clock.now());
  const holder = new IndexHolder(await realBuild(published.model));
  const swapped: string[] = [];
  holder.subscribe((status) => swapped.push(status.revision));
  const report = new ContentReport(SOURCE, holder);
  const reloads: string[] = [];
  const logs: { msg: string }[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line) as { msg: string }) });
  const updates = new IndexUpdates(holder, first, published.next, {
    build: options.wrap ? options.wrap(build) : build,
    ...(options.compress && { compress: options.compress }),
    logger,
    metrics: { contentReload: (result) => void reloads.push(result) },
    report,
    now: clock.now,
    timers: clock.timers,
  });
  return { clock, holder, report, updates, builtRevisions, swapped, reloads, logs };
}

/** Whether the served index holds the changelog entry `id`. */
const serves = (holder: IndexHolder, id: string): boolean => holder.current.model.changelog.entries.some((e) => e.id === id);

describe('IndexUpdates', () => {
  it('applies nothing before it opens, then every update in the order it came, ', async () => {
    const { holder, updates, builtRevisions, swapped, reloads } = await setUp(sampleModel({ revision: 'r0' }));
    updates.push(valid(sampleModel({ revision: 'r1' })));
    updates.push(valid(sampleModel({ revision: 'r2' })));
    await Promise.resolve();
    expect(builtRevisions).toEqual([]);
    await updates.open();
    updates.push(valid(sampleModel({ revision: 'r3' })));
    await updates.settled();
    expect(builtRevisions).toEqual(['r1', 'r2', 'r3']);
    expect(swapped).toEqual(['r1', 'r2', 'r3']);
    expect(reloads).toEqual(['applied', 'applied', 'applied']);
    expect(holder.current.revision).toBe('r3');
  });

  it('keeps serving the previous index on a rejected update and records the public summary, then clears it', async () => {
    const { holder, report, updates, reloads, logs } = await setUp(sampleModel({ revision: 'r0' }));
    await updates.open();
    const problem = { path: 'courses/x.md', line: 2, column: 1, message: 'title: required' };
    updates.push(invalid([problem], 'abc123'));
    await updates.settled();
    expect(holder.current.revision).toBe('r0');
    expect(reloads).toEqual(['rejected']);
    expect(holder.status().last_reload_error).toBe(`commit abc123: invalid content (1 problem); see the log or the admin listener's ${STATUS_PATH}`);
    // The public summary names no file; the details are the admin listener's.
    expect(holder.status().last_reload_error).not.toContain('courses/x.md');
    expect(logs.find((l) => l.msg.startsWith('content reload rejected'))).toMatchObject({ problems: ['courses/x.md:2:1: title: required'] });
    expect(report.publicFields().content_in_sync).toBe('false');

    updates.push(valid(sampleModel({ revision: 'r1' })));
    await updates.settled();
    expect(holder.status()).toMatchObject({ revision: 'r1', last_reload_error: '' });
  });

  it('keeps serving the previous index when a build fails, and builds the next update', async () => {
    const { holder, updates, reloads, logs } = await setUp(sampleModel({ revision: 'r0' }), {
      wrap: (build) => (model, previous) => (model.revision === 'bad' ? Promise.reject(new Error('renderer broke')) : build(model, previous)),
    });
    await updates.open();
    updates.push(valid(sampleModel({ revision: 'bad' })));
    await updates.settled();
    expect(holder.status()).toMatchObject({ revision: 'r0', last_reload_error: 'the index could not be built; see the log' });
    expect(logs.some((l) => l.msg === 'index build failed; still serving the previous revision')).toBe(true);
    updates.push(valid(sampleModel({ revision: 'r1' })));
    await updates.settled();
    expect(reloads).toEqual(['failed', 'applied']);
    expect(holder.current.revision).toBe('r1');
  });

  it('publishes an entry at 00:00 UTC of its date, keeping the reload status, and arms nothing after', async () => {
    const { clock, holder, updates, swapped } = await setUp(withEntryOn('2026-12-01', 'r0'));
    await updates.open();
    expect(serves(holder, 'entry-2026-12-01')).toBe(false);
    expect(updates.nextScheduledChange?.toISOString()).toBe('2026-12-01T00:00:00.000Z');

    clock.set('2026-11-30T23:59:59.999Z');
    await updates.settled();
    expect(serves(holder, 'entry-2026-12-01')).toBe(false);

    clock.set('2026-12-01T00:00:00Z');
    await updates.settled();
    expect(serves(holder, 'entry-2026-12-01')).toBe(true);
    expect(holder.status()).toMatchObject({ revision: 'r0', last_reload_at: '' });
    expect(swapped).toEqual(['r0']);
    expect(updates.nextScheduledChange).toBeUndefined();
    expect(clock.armed).toBe(0);
  });

  it('tries a failed scheduled publication again a minute later', async () => {
    let failures = 1;
    const { clock, holder, updates, logs } = await setUp(withEntryOn('2026-12-01', 'r0'), {
      wrap: (build) => (model, previous) => (failures-- > 0 ? Promise.reject(new Error('out of memory')) : build(model, previous)),
    });
    await updates.open();
    clock.set('2026-12-01T00:00:00Z');
    await updates.settled();
    expect(serves(holder, 'entry-2026-12-01')).toBe(false);
    expect(logs.some((l) => l.msg.startsWith('scheduled content could not be published'))).toBe(true);
    expect(updates.nextScheduledChange?.getTime()).toBe(Date.parse('2026-12-01T00:00:00Z') + PUBLISH_RETRY_MS);

    clock.set(new Date(Date.parse('2026-12-01T00:00:00Z') + PUBLISH_RETRY_MS).toISOString());
    await updates.settled();
    expect(serves(holder, 'entry-2026-12-01')).toBe(true);
  });

  it('re-arms for a reloaded model: its own next date, not the replaced one', async () => {
    const { clock, holder, updates } = await setUp(withEntryOn('2026-12-01', 'r0'));
    await updates.open();
    updates.push(valid(withEntryOn('2026-12-03', 'r1')));
    await updates.settled();
    expect(updates.nextScheduledChange?.toISOString()).toBe('2026-12-03T00:00:00.000Z');
    clock.set('2026-12-02T00:00:00Z');
    await updates.settled();
    expect(serves(holder, 'entry-2026-12-01')).toBe(false);
    expect(serves(holder, 'entry-2026-12-03')).toBe(false);
    clock.set('2026-12-03T00:00:00Z');
    await updates.settled();
    expect(serves(holder, 'entry-2026-12-03')).toBe(true);
  });

  it('drops queued updates and the timer on stop(), letting the build in progress finish unobserved', async () => {
    const gate = deferred<void>();
    const started = deferred<void>();
    const { clock, holder, updates, builtRevisions } = await setUp(withEntryOn('2026-12-01', 'r0'), {
      wrap: (build) => async (model, previous) => {
        if (model.revision === 'r1') {
          started.resolve();
          await gate.promise;
        }
        return build(model, previous);
      },
    });
    await updates.open();
    updates.push(valid(sampleModel({ revision: 'r1' })));
    updates.push(valid(sampleModel({ revision: 'r2' })));
    await started.promise;
    updates.stop();
    expect(updates.nextScheduledChange).toBeUndefined();
    expect(clock.armed).toBe(0);
    gate.resolve();
    await updates.settled();
    expect(builtRevisions).toEqual(['r1']);
    expect(holder.current.revision).not.toBe('r2');
  });

  it('drops what was queued before a failed start (abandon)', async () => {
    const { holder, updates, builtRevisions } = await setUp(sampleModel({ revision: 'r0' }));
    updates.push(valid(sampleModel({ revision: 'r1' })));
    updates.abandon();
    await updates.settled();
    expect(builtRevisions).toEqual([]);
    expect(holder.current.revision).toBe('r0');
  });

  it('does not serve a compressed index when a newer one was swapped in while it compressed', async () => {
    const gate = deferred<void>();
    const started = deferred<void>();
    const compressedFrom: CatalogIndex[] = [];
    const { holder, updates } = await setUp(sampleModel({ revision: 'r0' }), {
      compress: async (index) => {
        started.resolve();
        await gate.promise;
        compressedFrom.push(index);
        return { ...index, revision: `${index.revision}+compressed` };
      },
    });
    const first = holder.current;
    const opened = updates.open();
    await started.promise;
    // Another writer of the holder (in the service: none but this queue) swaps a newer index in meanwhile.
    const newer = { ...first, revision: 'newer' };
    holder.swap(newer);
    gate.resolve();
    await opened;
    expect(compressedFrom).toEqual([first]);
    expect(holder.current).toBe(newer);
  });

  it('serves the compressed index when nothing newer came', async () => {
    const { holder, updates } = await setUp(sampleModel({ revision: 'r0' }), {
      compress: (index) => Promise.resolve({ ...index, revision: `${index.revision}+compressed` }),
    });
    await updates.open();
    expect(holder.current.revision).toBe('r0+compressed');
  });
});
