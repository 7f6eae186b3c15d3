import type { Segmented } from './segment.ts';

/**
 * The frequent-word profile (checker research §3.3, function-word profile): how often each of a list of common
 * words occurs, as a share of the text's words. The classic authorship-attribution feature (Burrows' Delta
 * compares z-scored rates of the most frequent words); the model file lists the words and their weights.
 */
export function wordRates(units: Segmented, profile: readonly string[]): number[] {
  const counts = new Map<string, number>();
  for (const word of units.words) counts.set(word.lower, (counts.get(word.lower) ?? 0) + 1);
  const total = Math.max(units.words.length, 1);
  return profile.map((word) => (counts.get(word) ?? 0) / total);
}
