/**
 * Work in batches, one per turn of the event loop: items queued during a turn are handled together, in order, once
 * that turn's I/O callbacks are done, instead of one by one inside each I/O callback. The work is the same, but under
 * load it costs less (bench/analysis.md): the observers (the access log, the metrics) are told about the answers
 * this way, and their code stays in the processor's caches for a row of records; the host answers the requests read
 * in a turn this way, and the answers leave together.
 */

/**
 * Runs `flush` once the current turn of the event loop has handled its I/O (Node's `setImmediate`); called at most
 * once per batch.
 */
export type BatchScheduler = (flush: () => void) => void;

/**
 * A function that queues its argument and hands the queued items to `handle`, in the order queued, in one batch that
 * `schedule` runs. An item queued while a batch runs goes into the next batch.
 * @param onError told of an exception `handle` threw for `item`; the batch goes on with the next item (a throw would
 *   otherwise escape to the event loop, end the process and leave the rest of the batch unhandled).
 */
export function inTurnBatches<T>(handle: (item: T) => void, schedule: BatchScheduler, onError: (error: unknown, item: T) => void): (item: T) => void {
  let queued: T[] = [];
  const flush = (): void => {
    const batch = queued;
    queued = [];
    for (const item of batch) {
      try {
        handle(item);
      } catch (error) {
        onError(error, item);
      }
    }
  };
  return (item) => {
    if (queued.push(item) === 1) schedule(flush);
  };
}
