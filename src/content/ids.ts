/**
 * Ids of courses, classes, lessons, changelog entries and roadmap items: they come from folder and file names.
 */

/** The id grammar: lowercase letters and digits in hyphen-separated words. */
export const ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The longest id allowed, in characters. */
export const ID_MAX_LENGTH = 64;

/** Whether `id` is a valid id (pattern and length). */
export function isValidId(id: string): boolean {
  return id.length <= ID_MAX_LENGTH && ID_PATTERN.test(id);
}

/**
 * Why `id` is not a valid id, as the end of a sentence, or `undefined` when it is valid.
 * @example idProblem('Intro_1') // 'must be lowercase letters and digits in hyphen-separated words (^[a-z0-9]+(?:-[a-z0-9]+)*$)'
 */
export function idProblem(id: string): string | undefined {
  if (id.length > ID_MAX_LENGTH) return `must be at most ${ID_MAX_LENGTH} characters, got ${id.length}`;
  if (!ID_PATTERN.test(id)) return `must be lowercase letters and digits in hyphen-separated words (${ID_PATTERN.source})`;
  return undefined;
}
