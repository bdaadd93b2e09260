/**
 * Output streams that end quietly: when the reader of stdout goes away (`syllabus catalog | head -1`: `head` has
 * its line and closes the pipe), writing fails with EPIPE. Node ignores SIGPIPE, so without this the error would
 * crash the client with a stack trace; here it ends the output instead: later writes are dropped and the exit
 * status is 0 (the reader had what it wanted). Another write error (a full disk) is one line on stderr and status 1.
 */
import type { TextSink } from './output.js';

/** A sink over a process stream that knows whether its output ended early. */
export interface GuardedSink extends TextSink {
  /** The exit status the failed output calls for (0 after EPIPE, 1 otherwise); `undefined` while writes succeed. */
  readonly status: number | undefined;
}

/**
 * Wraps `stream` (process.stdout or process.stderr) so a write error ends its output quietly.
 * @param ended called once, at the first write error, with it and the exit status it calls for: the command may
 *   have finished already, so the caller sets the status here too.
 */
export function guardOutput(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  ended: (error: NodeJS.ErrnoException, status: number) => void,
): GuardedSink {
  let status: number | undefined;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (status !== undefined) return;
    status = error.code === 'EPIPE' ? 0 : 1;
    ended(error, status);
  });
  return {
    isTTY: stream.isTTY === true,
    write: (text: string) => (status === undefined ? stream.write(text) : false),
    get status() {
      return status;
    },
  };
}
