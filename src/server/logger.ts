/**
 * The process's structured logger: pino, JSON lines on stdout (`LOG_LEVEL`). Errors are serialised with their
 * stack into the log (never into a response).
 */
import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.js';

/** Creates the service logger. */
export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: { service: 'syllabus-catalog' }, serializers: { err: pino.stdSerializers.err } });
}
