/**
 * "Did you mean …?": the known names closest to one that does not exist, by case-insensitive Damerau-Levenshtein
 * distance (a typo, a missing or doubled letter, two swapped neighbours: "titel" is one edit from "title"). One rule
 * for every suggestion the project makes: the writers' messages, `syllabus-content` and `syllabus`.
 */
import editDistance from 'damerau-levenshtein';

/** Most suggestions offered. */
const MAX_SUGGESTIONS = 3;

/**
 * The candidates close enough to `word` to be a plausible intent (at most one edit per three characters of the
 * candidate, and always one; a case-only difference is the nearest; the word itself is no suggestion), nearest first, then by name; at most three.
 */
export function nearest(word: string, candidates: Iterable<string>): string[] {
  const scored: { candidate: string; steps: number }[] = [];
  for (const candidate of new Set(candidates)) {
    if (candidate === word) continue;
    const steps = editDistance(word.toLowerCase(), candidate.toLowerCase()).steps;
    if (steps <= Math.max(1, Math.floor(candidate.length / 3))) scored.push({ candidate, steps });
  }
  scored.sort((a, b) => a.steps - b.steps || (a.candidate < b.candidate ? -1 : 1));
  return scored.slice(0, MAX_SUGGESTIONS).map((s) => s.candidate);
}

/** The nearest plausible candidate ({@link nearest}), or `undefined` when none is close. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  return nearest(word, candidates)[0];
}
