/**
 * The process's structured logger: pino on stdout (`LOG_LEVEL`), one JSON object per line with an ISO 8601
 * `time` (`LOG_FORMAT=json`, for collectors), or pino-pretty's coloured lines (`LOG_FORMAT=pretty`, for people).
 * Errors are serialised with their stack into the log (never into a response).
 */
import { pino, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat, LogLevel } from './config.js';

/** The logger's options (level, `service` field, ISO 8601 `time`, error serialiser), for any destination. */
export function loggerOptions(level: LogLevel): LoggerOptions {
  return {
    level,
    base: { service: 'syllabus-catalog' },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: pino.stdSerializers.err },
  };
}

/**
 * Creates the service logger. JSON lines are written asynchronously (sonic-boom, `sync: false`): a request
 * never waits for a `write(2)`, and under load consecutive lines leave in one write. pino-pretty runs in this
 * process as a stream (not a worker transport), so the bundle needs no files beside it. Call `logger.flush()`
 * before exiting (the entry point does).
 */
export function createLogger(level: LogLevel, format: LogFormat = 'json'): Logger {
  const options = loggerOptions(level);
  if (format === 'pretty') return pino(options, pretty({ destination: 1, sync: false, ignore: 'service' }));
  return pino(options, pino.destination({ dest: 1, sync: false }));
}
