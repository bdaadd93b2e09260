import { describe, expect, it } from 'vitest';
import { observeInBatches } from './observation-batch.js';
import type { ObserverGate, RequestObserver, RequestRecord } from './observe.js';

const record = (path: string): RequestRecord => ({
  method: 'GET',
  path,
  route: '/v1/catalog',
  status: 200,
  bytes: 10,
  durationMs: 0.5,
  clientKind: 'anonymous',
  clientAddress: '127.0.0.1',
  userAgent: undefined,
  requestId: path,
  revision: 'r1',
});

/** A scheduler that keeps the batches it is given, to run them when the test says. */
function heldScheduler(): { schedule: (flush: () => void) => void; pending: Array<() => void>; runAll(): void } {
  const pending: Array<() => void> = [];
  return {
    schedule: (flush) => void pending.push(flush),
    pending,
    runAll() {
      for (const flush of pending.splice(0)) flush();
    },
  };
}

/** An observer that notes the paths it saw, with an optional gate. */
function noting(gate?: () => boolean): RequestObserver & ObserverGate & { seen: string[] } {
  const seen: string[] = [];
  return Object.assign((r: RequestRecord) => void seen.push(r.path), { seen, ...(gate && { enabled: gate }) });
}

describe('observeInBatches', () => {
  it('tells every observer about every record, in order, only when the batch runs, one batch per run', () => {
    const scheduler = heldScheduler();
    const a = noting();
    const b = noting();
    const batched = observeInBatches([a, b], scheduler.schedule, () => {});
    batched(record('/1'));
    batched(record('/2'));
    batched(record('/3'));
    expect(a.seen).toEqual([]);
    expect(scheduler.pending).toHaveLength(1);
    scheduler.runAll();
    expect(a.seen).toEqual(['/1', '/2', '/3']);
    expect(b.seen).toEqual(['/1', '/2', '/3']);
    // The next record starts the next batch.
    batched(record('/4'));
    expect(scheduler.pending).toHaveLength(1);
    scheduler.runAll();
    expect(a.seen).toEqual(['/1', '/2', '/3', '/4']);
  });

  it('is enabled while any observer is, and asks each gate again when the batch runs', () => {
    const scheduler = heldScheduler();
    let logging = true;
    const log = noting(() => logging);
    const metrics = noting(() => false);
    const batched = observeInBatches([log, metrics], scheduler.schedule, () => {});
    expect(batched.enabled?.()).toBe(true);
    batched(record('/1'));
    logging = false;
    expect(batched.enabled?.()).toBe(false);
    scheduler.runAll();
    expect(log.seen).toEqual([]);
    expect(metrics.seen).toEqual([]);
  });

  it('reports an observer that throws and goes on with the other observers and records', () => {
    const scheduler = heldScheduler();
    const errors: unknown[] = [];
    const failing: RequestObserver = (r) => {
      if (r.path === '/1') throw new Error('observer broke');
    };
    const after = noting();
    const batched = observeInBatches([failing, after], scheduler.schedule, (e) => errors.push(e));
    batched(record('/1'));
    batched(record('/2'));
    expect(() => scheduler.runAll()).not.toThrow();
    expect(errors.map((e) => (e as Error).message)).toEqual(['observer broke']);
    expect(after.seen).toEqual(['/1', '/2']);
  });

  it('with setImmediate, observes the records of one turn of the event loop together, after that turn', async () => {
    const seen = noting();
    const batched = observeInBatches([seen], setImmediate, () => {});
    const order: string[] = [];
    batched(record('/1'));
    batched(record('/2'));
    expect(seen.seen).toEqual([]);
    await new Promise<void>((resolve) => setImmediate(() => (order.push(`immediate: ${seen.seen.join(' ')}`), resolve())));
    expect(order).toEqual(['immediate: /1 /2']);
  });
});
