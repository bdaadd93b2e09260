/**
 * The options of `syllabus-content dev`, apart from the preview itself so that the content CLI can declare the
 * command without loading the server (the command's module is imported when it runs).
 */
import { InvalidArgumentError } from 'commander';

/** Where the preview listens unless told otherwise: this machine only. */
export const PREVIEW_DEFAULTS = { port: 4321, host: '127.0.0.1' } as const;

/**
 * A `--port` value: an integer from 0 (any free port) to 65535.
 * @throws InvalidArgumentError naming what is allowed (commander prints it and the command exits 2).
 */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d{1,5}$/.test(value) || port > 65535) throw new InvalidArgumentError('a port is an integer from 0 to 65535');
  return port;
}
