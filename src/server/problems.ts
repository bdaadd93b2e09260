/**
 * How many content problems a reload report carries: a file with thousands of mistakes must not turn `/health`
 * or one log line into megabytes. Every problem is still printed by `syllabus-content validate`.
 */

/** Problems shown on `/health` (`last_reload_error`) before the rest are counted. */
export const MAX_REPORTED_PROBLEMS = 50;

/**
 * `prefix` and the first {@link MAX_REPORTED_PROBLEMS} problems, one per line, then `… and N more` when there are
 * more.
 */
export function summarizeProblems(problems: readonly string[], prefix = ''): string {
  const shown = problems.slice(0, MAX_REPORTED_PROBLEMS);
  const more = problems.length - shown.length;
  return `${prefix}${shown.join('\n')}${more > 0 ? `\n… and ${more} more (syllabus-content validate lists them all)` : ''}`;
}
