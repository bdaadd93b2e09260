/** The CLI's wording of a suggestion ({@link nearest}'s rule, shared with the writers' tools). */
import { nearest } from '../text/nearest.js';

/** `did you mean a, b or c?` for the names nearest to `word`; `''` when none is close. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const found = nearest(word, candidates);
  const last = found.pop();
  if (last === undefined) return '';
  return `did you mean ${found.length > 0 ? `${found.join(', ')} or ${last}` : last}?`;
}
