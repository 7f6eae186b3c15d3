import { FUNCTION_WORDS } from './function-words.ts';
import type { Token } from './tokens.ts';
import { KGRAM_WORDS, kgramHashes } from './winnow.ts';

/**
 * The web searches an overlap check sends: exact-phrase queries of the document's most distinctive
 * passages. A copied passage is found by a search engine only through words that few other pages share,
 * so each passage is scored by its words that are not English function words, with long words and words
 * holding digits (names, figures, terms of art) counting more and words the document repeats counting
 * less. The document is cut into as many equal parts as queries, and each part gives its best passage,
 * so the queries cover the whole document rather than its densest page.
 */

/** Words per query: long enough to be specific as a quoted phrase, well inside the Brave API's 50 words and 400 characters. */
export const QUERY_WORDS = 12;
/**
 * Queries per check: one per 50 words of the document, between these bounds. Each costs one search call,
 * and a copied passage is found only when a query falls inside it: measured on the labelled set
 * (test/overlap-accuracy.test.ts), one per 300 words found 37% of copied runs, one per 100 words 47%,
 * one per 50 words 70% (and all 17 copies of 60 words or more). With a real search engine it can only be lower.
 */
export const MIN_QUERIES = 3;
export const MAX_QUERIES = 20;
const WORDS_PER_QUERY = 50;
const MAX_QUERY_CHARACTERS = 400;

export interface PlannedQuery {
  /** The phrase sent, in double quotes. */
  query: string;
  /** The passage's first token and its length in tokens. */
  firstToken: number;
  words: number;
}

/** How distinctive each token is, as a query word (0 for function words). */
function tokenWeights(tokens: readonly Token[]): Float64Array {
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token.norm, (counts.get(token.norm) ?? 0) + 1);
  return Float64Array.from(tokens, (token) => {
    if (FUNCTION_WORDS.has(token.norm) || token.norm.length < 2) return 0;
    const shape = 1 + (token.norm.length >= 8 ? 0.5 : 0) + (/\d/.test(token.norm) ? 0.5 : 0);
    return shape / (1 + Math.log(counts.get(token.norm)!));
  });
}

export function queryCount(tokenCount: number): number {
  return Math.min(MAX_QUERIES, Math.max(MIN_QUERIES, Math.round(tokenCount / WORDS_PER_QUERY)));
}

/**
 * Up to `queryCount` phrase queries for the document, in document order, none overlapping another. A
 * passage whose opening words occur more than once in the document (a running header, a repeated clause)
 * is never chosen: it would find the document's own boilerplate.
 */
export function planQueries(text: string, tokens: readonly Token[]): PlannedQuery[] {
  const windows = tokens.length - QUERY_WORDS + 1;
  if (windows <= 0) return [];
  const weights = tokenWeights(tokens);
  const kgrams = kgramHashes(tokens, KGRAM_WORDS);
  const kgramCounts = new Map<number, number>();
  for (const hash of kgrams) kgramCounts.set(hash, (kgramCounts.get(hash) ?? 0) + 1);

  // Sliding sum of weights over each window of QUERY_WORDS tokens.
  const scores = new Float64Array(windows);
  let sum = 0;
  for (let i = 0; i < tokens.length; i++) {
    sum += weights[i]!;
    if (i >= QUERY_WORDS) sum -= weights[i - QUERY_WORDS]!;
    if (i >= QUERY_WORDS - 1) scores[i - QUERY_WORDS + 1] = sum;
  }

  const parts = Math.min(queryCount(tokens.length), Math.floor(tokens.length / QUERY_WORDS));
  const queries: PlannedQuery[] = [];
  for (let part = 0; part < parts; part++) {
    const from = Math.floor((part * tokens.length) / parts);
    const to = Math.min(windows, Math.floor(((part + 1) * tokens.length) / parts) - QUERY_WORDS + 1);
    let best = -1;
    for (let start = from; start < to; start++) {
      if (kgramCounts.get(kgrams[start]!)! > 1) continue;
      if (scores[start]! > 0 && (best === -1 || scores[start]! > scores[best]!)) best = start;
    }
    if (best === -1) continue;
    queries.push(phrase(text, tokens, best));
  }
  return queries;
}

/**
 * The passage as the document has it (punctuation kept, whitespace collapsed, double quotes dropped so the
 * phrase stays one phrase), quoted, cut word by word to the provider's query length.
 */
function phrase(text: string, tokens: readonly Token[], first: number): PlannedQuery {
  for (let words = QUERY_WORDS; ; words--) {
    const passage = text.slice(tokens[first]!.start, tokens[first + words - 1]!.end).replace(/["\u201c\u201d]/g, ' ').replace(/\s+/g, ' ');
    const query = `"${passage}"`;
    if (query.length <= MAX_QUERY_CHARACTERS || words === KGRAM_WORDS) return { query, firstToken: first, words };
  }
}
