/**
 * The client's failures, each with the exit code it maps to (0 ok, 1 check or request failed, 2 usage error;
 * `update --check` also exits 10 when a newer release exists).
 * Their messages are shown to the user as they are: one sentence saying what was tried, what happened and what
 * to do — never a stack trace.
 */

/**
 * Exit codes of the `syllabus` command. `updateAvailable` is `update --check`'s answer "a newer release exists",
 * far from 1 and 2 so a script can tell it from a failure.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, updateAvailable: 10 } as const;

/** A failure the user should read: the message is complete and printed on stderr as it is. */
export class CliError extends Error {
  /** @param exitCode 1 (a check or request failed) or 2 (a usage error). */
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = EXIT.failed,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A usage error (bad option value, unknown command): exit code 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT.usage);
    this.name = 'UsageError';
  }
}
