import type { Token } from './tokens.ts';
import { GUARANTEED_MATCH_WORDS, KGRAM_WORDS, type Fingerprint, type FingerprintedText } from './winnow.ts';

/**
 * Exact passages shared by the document and one fetched page. A fingerprint the two share is only a
 * candidate (hashes collide, and a k-gram is short): each is checked word by word against the page's own
 * text and grown left and right to the longest run of equal words, and only runs of at least
 * `GUARANTEED_MATCH_WORDS` words are kept (Turnitin's guidance is to drop matches under 10 to 16 words,
 * checkers-research §4). What is reported is therefore a passage that occurs word for word, after
 * folding case, accents and punctuation, in the fetched page.
 */

/**
 * A fingerprint either text holds more than this many times is not used as a seed. A 5-word sequence
 * repeated that often is filler or boilerplate (a chorus, a running header, "la la la"), and seeding from it
 * costs time in the product of its repeats in the two texts: a page built to repeat one phrase a hundred
 * thousand times would otherwise hold the server's main thread for minutes.
 */
export const MAX_SEED_REPEATS = 4;

export interface SharedRun {
  /** Index of the run's first token in the document, and in the page. */
  documentToken: number;
  pageToken: number;
  /** Words in the run. */
  words: number;
}

export interface ConfirmedMatch {
  tier: 'exact';
  /** Character span of the passage in the document's text. */
  passage_span: { start_char: number; end_char: number };
  tokens_matched: number;
  /** The passage as the document has it. */
  matched_quote: string;
  /** The passage as the page has it. */
  source_quote: string;
  /** Character span of the passage in the page's text. */
  source_span: { start_char: number; end_char: number };
}

function sameWords(document: readonly Token[], documentStart: number, page: readonly Token[], pageStart: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (document[documentStart + i]!.norm !== page[pageStart + i]!.norm) return false;
  return true;
}

function positionsByHash(prints: readonly Fingerprint[]): Map<number, number[]> {
  const byHash = new Map<number, number[]>();
  for (const print of prints) {
    const positions = byHash.get(print.hash);
    if (positions) positions.push(print.position);
    else byHash.set(print.hash, [print.position]);
  }
  return byHash;
}

/**
 * The longest runs of equal words seeded by shared fingerprints, at least `minimumWords` long, no run
 * inside a longer one of the document, in document order.
 */
export function sharedRuns(
  document: readonly Token[],
  documentPrints: readonly Fingerprint[],
  page: readonly Token[],
  pagePrints: readonly Fingerprint[],
  minimumWords = GUARANTEED_MATCH_WORDS,
): SharedRun[] {
  const pageByHash = positionsByHash(pagePrints);
  const documentByHash = positionsByHash(documentPrints);
  const runs: SharedRun[] = [];
  // A run already grown covers every other seed on its diagonal (same document - page offset) inside it.
  const grown = new Map<number, { from: number; to: number }[]>();
  for (const print of documentPrints) {
    const pagePositions = pageByHash.get(print.hash);
    if (pagePositions === undefined || pagePositions.length > MAX_SEED_REPEATS || documentByHash.get(print.hash)!.length > MAX_SEED_REPEATS) continue;
    for (const pagePosition of pagePositions) {
      const diagonal = print.position - pagePosition;
      const covered = grown.get(diagonal);
      if (covered?.some((run) => print.position >= run.from && print.position < run.to)) continue;
      if (!sameWords(document, print.position, page, pagePosition, KGRAM_WORDS)) continue;
      let start = print.position;
      let pageStart = pagePosition;
      while (start > 0 && pageStart > 0 && document[start - 1]!.norm === page[pageStart - 1]!.norm) {
        start--;
        pageStart--;
      }
      let end = print.position + KGRAM_WORDS;
      let pageEnd = pagePosition + KGRAM_WORDS;
      while (end < document.length && pageEnd < page.length && document[end]!.norm === page[pageEnd]!.norm) {
        end++;
        pageEnd++;
      }
      if (covered) covered.push({ from: start, to: end });
      else grown.set(diagonal, [{ from: start, to: end }]);
      if (end - start >= minimumWords) runs.push({ documentToken: start, pageToken: pageStart, words: end - start });
    }
  }
  // A page that repeats a passage gives the same document run more than once: the longest is kept.
  runs.sort((a, b) => b.words - a.words || a.documentToken - b.documentToken);
  const kept: SharedRun[] = [];
  for (const run of runs) {
    const inside = kept.some((other) => run.documentToken >= other.documentToken && run.documentToken + run.words <= other.documentToken + other.words);
    if (!inside) kept.push(run);
  }
  return kept.sort((a, b) => a.documentToken - b.documentToken);
}

/** A shared run as the reply shows it: the passage's span and words in the document and in the page. */
export function describeRun(documentText: string, document: readonly Token[], pageText: string, page: readonly Token[], run: SharedRun): ConfirmedMatch {
  const last = run.words - 1;
  const documentSpan = { start_char: document[run.documentToken]!.start, end_char: document[run.documentToken + last]!.end };
  const sourceSpan = { start_char: page[run.pageToken]!.start, end_char: page[run.pageToken + last]!.end };
  return {
    tier: 'exact',
    passage_span: documentSpan,
    tokens_matched: run.words,
    matched_quote: documentText.slice(documentSpan.start_char, documentSpan.end_char),
    source_quote: pageText.slice(sourceSpan.start_char, sourceSpan.end_char),
    source_span: sourceSpan,
  };
}

/** Every exact passage of at least `GUARANTEED_MATCH_WORDS` words the document shares with the page, in document order. */
export function confirmedMatches(document: FingerprintedText, page: FingerprintedText): ConfirmedMatch[] {
  return sharedRuns(document.tokens, document.prints, page.tokens, page.prints).map((run) => describeRun(document.text, document.tokens, page.text, page.tokens, run));
}
