import type { Segmented, Span } from './segment.ts';
import { findStockPhrases, type StockPhraseHit } from './stock-phrases.ts';

/**
 * Weights-free stylometric features of English prose (checker research §3.3): each is a rate or a ratio, so
 * texts of different lengths compare. The fitted model (model.json) names the ones it uses.
 */
export const FEATURE_NAMES = [
  'sentence_length_mean',
  'sentence_length_sd',
  'sentence_length_cv',
  'mattr_50',
  'hapax_share_first_150',
  'repeated_trigram_share',
  'word_length_mean',
  'long_word_share',
  'function_word_share',
  'the_rate',
  'first_person_rate',
  'second_person_rate',
  'demonstrative_rate',
  'modal_rate',
  'comma_per_sentence',
  'em_dash_per_1000',
  'spaced_dash_per_1000',
  'colon_semicolon_per_1000',
  'quote_per_1000',
  'parenthesis_per_1000',
  'digit_per_1000',
  'contraction_rate',
  'capitalised_inner_rate',
  'stock_phrase_per_1000',
  'connective_opener_share',
  'negative_parallelism_per_1000',
  'triad_per_1000',
  'lowercase_sentence_start_share',
  'informal_punctuation_per_1000',
  'markdown_emphasis_per_1000',
  'heading_line_share',
] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];
export type Features = Record<FeatureName, number>;

// The most frequent English function words (articles, pronouns, prepositions, auxiliaries, conjunctions).
const FUNCTION_WORDS = new Set(
  ('the of and to a in is that it for as with was on be by at this are or from but not have an they which ' +
    'you were he she his her their its we our i my me your has had been there will would can could may might ' +
    'should must do does did so if than then these those such into about over also more most some any all no ' +
    'only other what when where who whom whose why how up out very just').split(' '),
);
const FIRST_PERSON = new Set(['i', 'me', 'my', 'mine', 'we', 'us', 'our', 'ours']);
const SECOND_PERSON = new Set(['you', 'your', 'yours']);
const DEMONSTRATIVES = new Set(['this', 'these', 'those', 'that']);
const MODALS = new Set(['can', 'could', 'may', 'might', 'should', 'must', 'will', 'would', 'shall']);
const CONTRACTION = /'(?:s|t|re|ve|ll|d|m)$/;

const mean = (values: number[]) => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);
function standardDeviation(values: number[]): number {
  if (values.length < 2) return 0;
  const average = mean(values);
  return Math.sqrt(values.reduce((sum, value) => sum + (value - average) ** 2, 0) / (values.length - 1));
}
const coefficientOfVariation = (values: number[]) => (mean(values) === 0 ? 0 : standardDeviation(values) / mean(values));

/** Moving-average type-token ratio (Covington & McFall 2010): the mean TTR over every window of `window` words. */
function movingAverageTypeTokenRatio(words: string[], window: number): number {
  if (words.length === 0) return 0;
  if (words.length <= window) return new Set(words).size / words.length;
  const counts = new Map<string, number>();
  for (const word of words.slice(0, window)) counts.set(word, (counts.get(word) ?? 0) + 1);
  let total = counts.size;
  for (let i = window; i < words.length; i++) {
    const leaving = words[i - window]!;
    const left = counts.get(leaving)! - 1;
    if (left === 0) counts.delete(leaving);
    else counts.set(leaving, left);
    counts.set(words[i]!, (counts.get(words[i]!) ?? 0) + 1);
    total += counts.size;
  }
  return total / ((words.length - window + 1) * window);
}

function hapaxShare(words: string[]): number {
  if (words.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  return [...counts.values()].filter((count) => count === 1).length / words.length;
}

function repeatedTrigramShare(words: string[]): number {
  if (words.length < 3) return 0;
  const counts = new Map<string, number>();
  for (let i = 0; i + 2 < words.length; i++) {
    const trigram = `${words[i]} ${words[i + 1]} ${words[i + 2]}`;
    counts.set(trigram, (counts.get(trigram) ?? 0) + 1);
  }
  let repeated = 0;
  for (const count of counts.values()) if (count > 1) repeated += count;
  return repeated / (words.length - 2);
}

/** "not just X, but Y" and "not only X but also Y" (Wikipedia:Signs of AI writing, negative parallelisms). */
export const NEGATIVE_PARALLELISM = /\bnot (?:just|only|merely|simply)\b[^.!?;]{1,80}?\bbut\b/gi;
/** A list of three closed by "and" or "or": "fast, cheap, and reliable" (rule-of-three triads, same source). */
export const TRIAD = /\b[\p{L}-]+(?: [\p{L}-]+){0,2}, [\p{L}-]+(?: [\p{L}-]+){0,2},? (?:and|or) [\p{L}-]+/giu;

export function findPattern(text: string, pattern: RegExp): Span[] {
  return [...text.matchAll(pattern)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
}

/** A short line without closing punctuation whose words are capitalised: a title-case heading. */
function isHeading(line: string): boolean {
  const words = line.replace(/[*#_]/g, '').trim().split(/\s+/);
  return words.length <= 10 && !/[.,;:!?]$/.test(line.trim()) && words.filter((word) => /^\p{Lu}/u.test(word)).length >= Math.ceil(words.length / 2);
}

const countOf = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

export interface FeatureReading {
  features: Features;
  stockPhrases: StockPhraseHit[];
}

/** The features of segmented text, with the stock-phrase hits they count (kept for the reply's tells). */
export function readFeatures(units: Segmented): FeatureReading {
  const { text } = units;
  const words = units.words.map((word) => word.lower);
  const wordCount = Math.max(words.length, 1);
  const perThousand = (count: number) => (1000 * count) / wordCount;
  const share = (set: Set<string>) => words.filter((word) => set.has(word)).length / wordCount;
  const sentenceLengths = units.sentences.map((sentence) => sentence.words.length);
  const sentenceCount = Math.max(units.sentences.length, 1);
  const stockPhrases = findStockPhrases(units);
  const openers = stockPhrases.filter((hit) => hit.family.sentence_initial).length;
  const sentenceStarts = new Set(units.sentences.map((sentence) => sentence.words[0]!.start));
  const capitalisedInner = units.words.filter((word) => !sentenceStarts.has(word.start) && /^\p{Lu}/u.test(text[word.start]!)).length;

  const features: Features = {
    sentence_length_mean: mean(sentenceLengths),
    sentence_length_sd: standardDeviation(sentenceLengths),
    sentence_length_cv: coefficientOfVariation(sentenceLengths),
    mattr_50: movingAverageTypeTokenRatio(words, 50),
    hapax_share_first_150: hapaxShare(words.slice(0, 150)),
    repeated_trigram_share: repeatedTrigramShare(words),
    word_length_mean: mean(words.map((word) => word.length)),
    long_word_share: words.filter((word) => word.length >= 7).length / wordCount,
    function_word_share: share(FUNCTION_WORDS),
    the_rate: words.filter((word) => word === 'the').length / wordCount,
    first_person_rate: share(FIRST_PERSON),
    second_person_rate: share(SECOND_PERSON),
    demonstrative_rate: share(DEMONSTRATIVES),
    modal_rate: share(MODALS),
    comma_per_sentence: countOf(text, /,/g) / sentenceCount,
    em_dash_per_1000: perThousand(countOf(text, /—/g)),
    spaced_dash_per_1000: perThousand(countOf(text, /–| - | -- /g)),
    colon_semicolon_per_1000: perThousand(countOf(text, /[:;]/g)),
    quote_per_1000: perThousand(countOf(text, /["“”]/g)),
    parenthesis_per_1000: perThousand(countOf(text, /\(/g)),
    digit_per_1000: perThousand(countOf(text, /\d+/g)),
    contraction_rate: words.filter((word) => CONTRACTION.test(word)).length / wordCount,
    capitalised_inner_rate: capitalisedInner / wordCount,
    stock_phrase_per_1000: perThousand(stockPhrases.length - openers),
    connective_opener_share: openers / sentenceCount,
    negative_parallelism_per_1000: perThousand(countOf(text, NEGATIVE_PARALLELISM)),
    triad_per_1000: perThousand(countOf(text, TRIAD)),
    lowercase_sentence_start_share: units.sentences.filter((sentence) => /^\p{Ll}/u.test(text[sentence.words[0]!.start]!)).length / sentenceCount,
    informal_punctuation_per_1000: perThousand(countOf(text, /[!?]{2,}|\.{3,}|…/g)),
    markdown_emphasis_per_1000: perThousand(countOf(text, /\*\*[^*\n]+\*\*|__[^_\n]+__|^#{1,6} /gm)),
    heading_line_share: units.lines.filter((line) => isHeading(text.slice(line.start, line.end))).length / Math.max(units.lines.length, 1),
  };
  return { features, stockPhrases };
}
