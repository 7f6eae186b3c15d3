import type { ConfirmedMatch } from './confirm.ts';

/**
 * What a set of confirmed matches adds up to: the share of the document's words inside any match, its
 * band, the sources ordered by the words they share, and a headline.
 */

/**
 * Bands of `overlap_ratio` for a document with at least one match, lowest bound first; `none` is a document
 * with no match. Under 5% is what quotations, set phrases and a shared template give an original text;
 * from a fifth of the words on, whole sections read as another page's.
 */
export const OVERLAP_BANDS = [
  { band: 'low', from: 0, meaning: 'under 5% of the words' },
  { band: 'moderate', from: 0.05, meaning: '5% to under 20% of the words' },
  { band: 'high', from: 0.2, meaning: '20% to under 50% of the words' },
  { band: 'very_high', from: 0.5, meaning: '50% of the words or more' },
] as const;

export type OverlapBand = 'none' | (typeof OVERLAP_BANDS)[number]['band'];

export interface SourcedMatch extends ConfirmedMatch {
  source_url: string;
}

export interface SourceSummary {
  url: string;
  host: string;
  title: string | null;
  /** Words of the document inside this source's matches (each word once). */
  tokens_matched: number;
  /** Those words as a share of the document's words. */
  share: number;
  matches: number;
}

/** Top sources listed in a reply. */
export const TOP_SOURCES = 5;

/** Number of distinct document words inside the matches (token spans may overlap between sources). */
export function wordsCovered(matches: readonly { passage_span: { start_char: number; end_char: number } }[], tokenStarts: readonly number[]): number {
  const spans = matches.map((match) => [match.passage_span.start_char, match.passage_span.end_char] as const).sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let token = 0;
  for (const [start, end] of spans) {
    // Tokens are in order, so a single pass over them counts each once, whatever the spans' overlap.
    while (token < tokenStarts.length && tokenStarts[token]! < start) token++;
    while (token < tokenStarts.length && tokenStarts[token]! < end) {
      covered++;
      token++;
    }
  }
  return covered;
}

export function overlapBand(wordsMatched: number, words: number): OverlapBand {
  if (wordsMatched === 0) return 'none';
  let band: OverlapBand = 'low';
  for (const entry of OVERLAP_BANDS) if (wordsMatched / words >= entry.from) band = entry.band;
  return band;
}

function round(share: number): number {
  return Math.round(share * 1000) / 1000;
}

export function topSources(matches: readonly SourcedMatch[], tokenStarts: readonly number[], titles: ReadonlyMap<string, string | null>): SourceSummary[] {
  const byUrl = new Map<string, SourcedMatch[]>();
  for (const match of matches) byUrl.set(match.source_url, [...(byUrl.get(match.source_url) ?? []), match]);
  return [...byUrl]
    .map(([url, own]) => {
      const words = wordsCovered(own, tokenStarts);
      return { url, host: new URL(url).host, title: titles.get(url) ?? null, tokens_matched: words, share: round(words / tokenStarts.length), matches: own.length };
    })
    .sort((a, b) => b.tokens_matched - a.tokens_matched || a.url.localeCompare(b.url))
    .slice(0, TOP_SOURCES);
}

export interface OverlapFigures {
  overlap_ratio: number;
  overlap_band: OverlapBand;
  top_sources: SourceSummary[];
  headline: string;
}

/** The figures of an assessed document: its matches against every page compared. */
export function overlapFigures(matches: readonly SourcedMatch[], tokenStarts: readonly number[], titles: ReadonlyMap<string, string | null>, pagesCompared: number): OverlapFigures {
  const covered = wordsCovered(matches, tokenStarts);
  const ratio = round(covered / tokenStarts.length);
  const band = overlapBand(covered, tokenStarts.length);
  const sources = topSources(matches, tokenStarts, titles);
  const pages = `${pagesCompared} web page${pagesCompared === 1 ? '' : 's'}`;
  const headline =
    matches.length === 0
      ? `No passage of ten or more words was found word for word on the ${pages} compared.`
      : `${percent(covered / tokenStarts.length)} of the document's words (${covered} of ${tokenStarts.length}, in ${matches.length} passage${matches.length === 1 ? '' : 's'}) ` +
        `appear word for word on ${new Set(matches.map((match) => match.source_url)).size} of the ${pages} compared; most on ${sources[0]!.host}.`;
  return { overlap_ratio: ratio, overlap_band: band, top_sources: sources, headline };
}

function percent(share: number): string {
  const value = share * 100;
  return value > 0 && value < 1 ? 'Under 1%' : `${Math.round(value)}%`;
}
