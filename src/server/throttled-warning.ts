/**
 * A warning that anyone outside may cause again and again (a rejected webhook delivery), written at a bounded rate
 * so that a flood cannot fill the log: at most one line per interval, carrying how many were left unwritten since the
 * line before. Count every occurrence in a metric as well: the count of the last ones waits for the next line.
 */
import type { AppLogger } from '../http/access-log.js';

/** Least time between two lines of one warning, in milliseconds (a minute). */
export const WARNING_INTERVAL_MS = 60_000;

/** One warning message, written at most once per interval (see the module comment). */
export class ThrottledWarning {
  readonly #logger: AppLogger;
  readonly #msg: string;
  readonly #now: () => number;
  /** When the last line was written (ms), or `undefined` before the first. */
  #writtenAt: number | undefined;
  #suppressed = 0;

  /**
   * @param msg the line's message.
   * @param now the clock, in milliseconds (tests move their own).
   */
  constructor(logger: AppLogger, msg: string, now: () => number = Date.now) {
    this.#logger = logger;
    this.#msg = msg;
    this.#now = now;
  }

  /**
   * Writes the warning with `fields` and `suppressed` (how many occurrences were not written since the line before)
   * when the interval has passed since the last line; otherwise counts this occurrence among those.
   */
  warn(fields: object): void {
    const now = this.#now();
    if (this.#writtenAt !== undefined && now - this.#writtenAt < WARNING_INTERVAL_MS) {
      this.#suppressed++;
      return;
    }
    this.#logger.warn({ ...fields, suppressed: this.#suppressed }, this.#msg);
    this.#writtenAt = now;
    this.#suppressed = 0;
  }
}
