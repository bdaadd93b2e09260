/**
 * The process's structured logger: pino, JSON lines on stdout (`LOG_LEVEL`). Errors are serialised with their
 * stack into the log (never into a response).
 */
import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.js';

/**
 * Creates the service logger. Lines are written asynchronously (sonic-boom, `sync: false`): a request never
 * waits for a `write(2)`, and under load consecutive lines leave in one write. Call `logger.flush()` before
 * exiting (the entry point does).
 */
export function createLogger(level: LogLevel): Logger {
  return pino(
    { level, base: { service: 'syllabus-catalog' }, serializers: { err: pino.stdSerializers.err } },
    pino.destination({ dest: 1, sync: false }),
  );
}
