/**
 * The client's failures, each with the exit code it maps to (0 ok, 1 check or request failed, 2 usage error,
 * 75 rate limited; `update --check` also exits 10 when a newer release exists).
 * Their messages are shown to the user as they are: one sentence saying what was tried, what happened and what
 * to do — never a stack trace.
 */

/**
 * Exit codes of the `syllabus` command. `updateAvailable` is `update --check`'s answer "a newer release exists",
 * far from 1 and 2 so a script can tell it from a failure. `rateLimited` is sysexits' EX_TEMPFAIL ("try again
 * later"): the service's read budget is spent and the client did not (or could no longer) wait for it.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, updateAvailable: 10, rateLimited: 75 } as const;

/** A failure the user should read: the message is complete and printed on stderr as it is. */
export class CliError extends Error {
  /** @param exitCode 1 (a check or request failed), 2 (a usage error) or 75 (rate limited). */
  constructor(
    message: string,
    readonly exitCode: 1 | 2 | 75 = EXIT.failed,
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
