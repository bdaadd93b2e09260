/**
 * How many content problems a reload report carries: a file with thousands of mistakes must not turn one log line
 * or the admin listener's `/statusz` into megabytes. Every problem is still printed by `syllabus-content validate`.
 */

/** Problems listed in the log line of a rejected reload and on `/statusz` before the rest are only counted. */
export const MAX_REPORTED_PROBLEMS = 50;
