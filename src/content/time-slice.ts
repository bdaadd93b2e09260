/**
 * Cooperative time slicing for the loader's synchronous file system work: synchronous calls are several times
 * faster than `fs/promises` for thousands of small files and folders (one thread-pool round trip per call), and
 * yielding to the event loop every few milliseconds keeps a server that reloads in the background responsive.
 */

/** Longest stretch of synchronous work before yielding to the event loop, in milliseconds. */
const YIELD_EVERY_MS = 10;

/** A stretch of synchronous work that yields to the event loop once it has run {@link YIELD_EVERY_MS}. */
export class TimeSlice {
  #start = performance.now();

  /** Whether this slice has run out: then `await slice.yield()` before the next piece of work. */
  over(): boolean {
    return performance.now() - this.#start > YIELD_EVERY_MS;
  }

  /** Yields to the event loop (`setImmediate`) and starts the next slice. */
  async yield(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.#start = performance.now();
  }
}
