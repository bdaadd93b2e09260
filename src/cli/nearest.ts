/**
 * "Did you mean …?": the known ids closest to one that does not exist, by Damerau-Levenshtein distance (a typo, a
 * missing or doubled letter, two swapped letters).
 */
import editDistance from 'damerau-levenshtein';

/** Most suggestions offered. */
const MAX_SUGGESTIONS = 3;

/**
 * The candidates within a third of their length in edits of `word` (at least one edit), nearest first, then by
 * name; at most three. Comparison ignores case.
 */
export function nearest(word: string, candidates: Iterable<string>): string[] {
  const scored: { candidate: string; steps: number }[] = [];
  for (const candidate of new Set(candidates)) {
    const steps = editDistance(word.toLowerCase(), candidate.toLowerCase()).steps;
    if (steps > 0 && steps <= Math.max(1, Math.floor(candidate.length / 3))) scored.push({ candidate, steps });
  }
  scored.sort((a, b) => a.steps - b.steps || (a.candidate < b.candidate ? -1 : 1));
  return scored.slice(0, MAX_SUGGESTIONS).map((s) => s.candidate);
}

/** `did you mean a, b or c?` for {@link nearest}'s suggestions; `''` when there are none. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const found = nearest(word, candidates);
  const last = found.pop();
  if (last === undefined) return '';
  return `did you mean ${found.length > 0 ? `${found.join(', ')} or ${last}` : last}?`;
}
