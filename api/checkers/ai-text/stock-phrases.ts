import { z } from 'zod';
import lexiconJson from './tells.json' with { type: 'json' };
import type { Segmented, Span } from './segment.ts';

const Family = z.strictObject({
  id: z.string(),
  label: z.string(),
  basis: z.string(),
  sentence_initial: z.boolean().optional(),
  patterns: z.array(z.string().min(1)).min(1),
});
export type StockPhraseFamily = z.infer<typeof Family>;

/** The stock-phrase families with their published basis (tells.json), checked once at load. */
export const STOCK_PHRASES: readonly StockPhraseFamily[] = z.strictObject({ about: z.string(), families: z.array(Family) }).parse(lexiconJson).families;

export interface StockPhraseHit extends Span {
  family: StockPhraseFamily;
  phrase: string;
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// One case-insensitive alternation per family, longest phrase first so "in the heart of" is not cut short.
function familyPattern(family: StockPhraseFamily): RegExp {
  const alternatives = [...family.patterns].sort((a, b) => b.length - a.length).map((phrase) => escapeRegExp(phrase).replaceAll("'", "['’]"));
  return new RegExp(`(?<![\\p{L}'’-])(?:${alternatives.join('|')})(?![\\p{L}'’-])`, 'giu');
}
const PATTERNS = new Map(STOCK_PHRASES.map((family) => [family, familyPattern(family)]));

/**
 * Every stock phrase in the text. A sentence-initial family only counts at the start of a sentence (after
 * any opening quote or bracket), since "however" mid-sentence is ordinary prose.
 */
export function findStockPhrases(units: Segmented): StockPhraseHit[] {
  const sentenceStarts = new Set(units.sentences.map((sentence) => sentence.words[0]!.start));
  const hits: StockPhraseHit[] = [];
  for (const [family, pattern] of PATTERNS) {
    for (const match of units.text.matchAll(pattern)) {
      if (family.sentence_initial && !sentenceStarts.has(match.index)) continue;
      hits.push({ family, phrase: match[0].toLowerCase().replaceAll('’', "'"), start: match.index, end: match.index + match[0].length });
    }
  }
  return hits.sort((a, b) => a.start - b.start);
}
