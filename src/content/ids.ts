/**
 * Ids of courses, classes, lessons, changelog entries and roadmap items: they come from folder and file names.
 */

import { ID_MAX_LENGTH, ID_PATTERN } from '../contract/params.js';

/** The id grammar, compiled once. */
const ID = new RegExp(ID_PATTERN);

/**
 * Why `id` is not a valid id, as the end of a sentence, or `undefined` when it is valid.
 * @example idProblem('Intro_1') // 'must be lowercase letters and digits in hyphen-separated words (^[a-z0-9]+(?:-[a-z0-9]+)*$)'
 */
export function idProblem(id: string): string | undefined {
  if (id.length > ID_MAX_LENGTH) return `must be at most ${ID_MAX_LENGTH} characters, got ${id.length}`;
  if (!ID.test(id)) return `must be lowercase letters and digits in hyphen-separated words (${ID_PATTERN})`;
  return undefined;
}
