/**
 * The process's structured logger: pino on stdout (`LOG_LEVEL`), one JSON object per line with an ISO 8601
 * `time` (`LOG_FORMAT=json`, for collectors), or pino-pretty's coloured lines (`LOG_FORMAT=pretty`, for people): one
 * line each too, the fields as JSON after the message; only an error's stack and a `problems` list (start-up failures,
 * rejected content) take more lines, a problem on each.
 * Errors are serialised with their stack into the log (never into a response).
 *
 * Lines are written asynchronously to a non-blocking stdout (sonic-boom), in batches of 32 KiB or every 100 ms: a
 * request never waits for `write(2)`, and a busy server makes one system call per batch rather than per line.
 * When stdout stalls (a full pipe, a stuck collector) the buffer stops at {@link MAX_LOG_BUFFER_BYTES} and further
 * lines are dropped, counted and reported, instead of growing without bound.
 *
 * A process that exits at once (no `drain`) has what is still buffered written by pino's exit hook, synchronously.
 * A batch the thread pool is writing then is not waited for (pino's limit of asynchronous logging): the lines
 * written at exit may land before it or, on a blocking pipe that is full, between its parts, cutting lines. The
 * service's own stops drain first.
 */
import { pino, type Logger, type LoggerOptions } from 'pino';
import pretty, { type PrettyOptions } from 'pino-pretty';
import type { LogFormat, LogLevel } from './config.js';

/** Most bytes of log lines held while stdout cannot take them; beyond, lines are dropped (16 MiB). */
export const MAX_LOG_BUFFER_BYTES = 16 * 1024 * 1024;
/**
 * Log bytes gathered before one `write(2)` (32 KiB, about eighty access-log lines): under load one system call per
 * line cost more than building the line, and each batch is a round trip to the thread pool (smaller batches cost
 * more CPU per request, measured side by side). Lines wait at most
 * {@link LOG_FLUSH_INTERVAL_MS} for the batch to fill.
 */
const LOG_BATCH_BYTES = 32 * 1024;
/** Longest a line waits in a batch that is not full, in milliseconds. */
const LOG_FLUSH_INTERVAL_MS = 100;
/** How often dropped lines are reported in the log (when some were), in milliseconds. */
const DROP_REPORT_INTERVAL_MS = 10_000;

/** `LOG_FORMAT=pretty`'s options (pino-pretty's). */
const PRETTY_OPTIONS: PrettyOptions = {
  ignore: 'service',
  // pino-pretty's default puts each field on a line of its own: a dozen lines per access-log line.
  singleLine: true,
  // Printed below the line like an error's stack (pino-pretty's own `err` and `error`), a problem on each line.
  errorLikeObjectKeys: ['err', 'error', 'problems'],
  customPrettifiers: { problems: (list) => (Array.isArray(list) ? list.map((problem) => `\n  ${String(problem)}`).join('') : JSON.stringify(list)) },
};

/** The logger's output: what it dropped, and a way to stop waiting for it. */
export interface LogOutput {
  /** Lines dropped so far because stdout could not keep up. */
  readonly droppedLines: number;
  /**
   * Resolves `true` once every buffered line is written, or `false` after `timeoutMs` milliseconds if stdout
   * does not take them.
   */
  drain(timeoutMs: number): Promise<boolean>;
  /**
   * Drops whatever is still buffered and writes nothing more. Call it before `process.exit`: pino's exit hook
   * would otherwise retry writing to a stalled stdout for ever.
   */
  abandon(): void;
}

/**
 * pino's `isoTime` (`,"time":"<ISO 8601>"`), formatted once per millisecond: under load many lines fall in the same
 * millisecond, and formatting a date for each line showed in a busy process's profile with the access log on.
 */
function isoTimePerMillisecond(): () => string {
  let formattedAt = -1;
  let field = '';
  return () => {
    const now = Date.now();
    if (now !== formattedAt) {
      formattedAt = now;
      field = `,"time":"${new Date(now).toISOString()}"`;
    }
    return field;
  };
}

/** The logger's options (level, `service` field, ISO 8601 `time`, error serialiser), for any destination. */
export function loggerOptions(level: LogLevel): LoggerOptions {
  return {
    level,
    base: { service: 'syllabus-catalog' },
    timestamp: isoTimePerMillisecond(),
    serializers: { err: pino.stdSerializers.err },
  };
}

/**
 * Creates the service logger and its bounded output. pino-pretty runs in this process as a stream (not a worker
 * transport), so the bundle needs no files beside it. Before exiting: `await output.drain(ms)`, then
 * `output.abandon()`.
 * @param maxBufferBytes the output's bound (tests use a small one).
 */
export function createServiceLogger(
  level: LogLevel,
  format: LogFormat = 'json',
  maxBufferBytes = MAX_LOG_BUFFER_BYTES,
): { logger: Logger; output: LogOutput } {
  let dropped = 0;
  let reported = 0;
  let abandoned = false;
  const destination = pino.destination({
    dest: 1,
    sync: false,
    maxLength: maxBufferBytes,
    minLength: LOG_BATCH_BYTES,
    // sonic-boom refuses a batch of its default largest write (16 KiB) or more.
    maxWrite: 2 * LOG_BATCH_BYTES,
    // A full non-blocking stdout answers EAGAIN: retry later, unless the process is abandoning its output.
    retryEAGAIN: () => !abandoned,
    // Bytes, not text: in its text mode sonic-boom measures the UTF-8 length of the whole batch gathered so far on
    // every write, flattening it first: garbage and CPU per line that grow with the batch. In byte mode it keeps each
    // line's length and joins a batch once, when it writes it.
    contentMode: 'buffer',
  });
  // sonic-boom's typings know its text mode only.
  const write = destination.write.bind(destination) as unknown as (bytes: Buffer) => boolean;
  // The bytes still buffered, from what was handed to sonic-boom and its `drop` and `write` events.
  let buffered = 0;
  const writeBytes = (bytes: Buffer): boolean => {
    buffered += bytes.length;
    return write(bytes);
  };
  // pino and pino-pretty write text; the byte mode's write takes bytes only. Each line is encoded into one reused
  // buffer as it comes, and a full batch is copied out: a `Buffer` per line cost more than the line itself, and lines
  // kept as text until the batch was full were most of what each young-generation collection copied under load.
  // Twice a batch: a batch is handed over once it holds LOG_BATCH_BYTES, and a line up to that size always fits.
  const batch = Buffer.allocUnsafe(2 * LOG_BATCH_BYTES);
  let used = 0;
  const handOver = (): boolean => {
    if (used === 0) return true;
    const bytes = Buffer.from(batch.subarray(0, used));
    used = 0;
    return writeBytes(bytes);
  };
  destination.write = (line: string) => {
    // UTF-8 takes at most three bytes per UTF-16 code unit; a longer line goes on its own.
    if (line.length * 3 > LOG_BATCH_BYTES) {
      handOver();
      return writeBytes(Buffer.from(line));
    }
    used += batch.write(line, used);
    return used >= LOG_BATCH_BYTES ? handOver() : true;
  };
  destination.on('drop', (data: Buffer) => {
    buffered -= data.length;
    dropped += Math.max(1, data.toString('utf8').split('\n').length - 1);
  });
  destination.on('write', (bytes: number) => (buffered = Math.max(0, buffered - bytes)));
  // pino writes a `fatal` line and what precedes it with `flushSync` (its exit hook too), which reports no `write`:
  // once it returns, nothing is buffered (without this, `drain` would wait for its whole timeout after a fatal line).
  const flushSync = destination.flushSync.bind(destination);
  destination.flushSync = () => {
    handOver();
    flushSync();
    buffered = 0;
  };
  const idle = (): boolean => buffered === 0 && used === 0;
  const stream = format === 'pretty' ? pretty({ destination, ...PRETTY_OPTIONS }) : destination;
  const logger = pino(loggerOptions(level), stream);
  const report = setInterval(() => {
    if (dropped === reported) return;
    logger.warn({ dropped_lines: dropped - reported, dropped_total: dropped }, 'log lines dropped: stdout could not keep up');
    reported = dropped;
  }, DROP_REPORT_INTERVAL_MS);
  report.unref();
  /**
   * Starts writing a batch that is not full (sonic-boom's own `periodicFlush` would write even an empty one); while
   * a write is under way, `flush` leaves the rest to it.
   */
  const flushBatch = (): void => {
    if (abandoned) return;
    handOver();
    if (buffered > 0) destination.flush();
  };
  const batches = setInterval(flushBatch, LOG_FLUSH_INTERVAL_MS);
  batches.unref();
  const output: LogOutput = {
    get droppedLines() {
      return dropped;
    },
    drain(timeoutMs) {
      if (abandoned || idle()) return Promise.resolve(true);
      return new Promise((resolve) => {
        const done = (drained: boolean): void => {
          clearTimeout(timer);
          destination.off('drain', onDrain);
          resolve(drained);
        };
        // sonic-boom says `drain` with less than a batch still buffered: write that too.
        const onDrain = (): void => (idle() ? done(true) : flushBatch());
        const timer = setTimeout(() => done(false), timeoutMs);
        destination.on('drain', onDrain);
        flushBatch();
      });
    },
    abandon() {
      abandoned = true;
      used = 0;
      clearInterval(report);
      clearInterval(batches);
      destination.destroy();
    },
  };
  return { logger, output };
}

/** The service logger alone (see {@link createServiceLogger}). */
export function createLogger(level: LogLevel, format: LogFormat = 'json'): Logger {
  return createServiceLogger(level, format).logger;
}
