import MiniSearch from 'minisearch';

/**
 * Retrieval for drafts: the organisation's own words (its profile, library documents and earlier bids'
 * drafts) cut into passages, ranked against a requirement's text by BM25+ (MiniSearch), each passage
 * carrying where it came from so a draft can cite it.
 */

/** Where a passage came from: a document (a library file, the profile, an earlier bid) and its page when it has pages. */
export interface Citation {
  source: 'profile' | 'library' | 'bid';
  /** The document's name as a person knows it: a library file's name, "Organisation profile", an earlier bid's title. */
  document: string;
  /** 1-based page of a library document; null for the profile and earlier bids' drafts. */
  page: number | null;
  /** The library document (source `library`). */
  doc_id?: string;
  /** The earlier bid and requirement whose draft this is (source `bid`). */
  bid_id?: string;
  requirement_id?: string;
}

export interface Passage {
  text: string;
  citation: Citation;
}

export interface RetrievedPassage extends Passage {
  score: number;
}

/** Passages a draft cites at most. */
export const MOST_PASSAGES = 3;
/** A passage scoring under this share of the best one is left out: it matched on a side word. */
const RELATIVE_SCORE_FLOOR = 0.35;
/** Passages are paragraphs, joined while shorter than this and cut at sentence ends when longer than twice it. */
const PASSAGE_CHARACTERS = 500;

/**
 * Words every requirement and most passages carry, which say nothing about what is asked: English function
 * words and tender boilerplate ("the tenderer must provide"). Without them a passage ranks by its subject.
 */
const STOP_WORDS = new Set(
  ('a an and are as at be been by can could do does for from has have if in into is it its may must of on or our shall should ' +
    'such than that the their them there these they this those to was we were which who will with would you your all any each ' +
    'tenderer tenderers respondent respondents supplier suppliers contractor bidder provide provides provided include including ' +
    'requirement requirements required details detail evidence demonstrate describe response submit submitted please').split(' '),
);

/** Lower case, accents folded, stop words and one-letter words dropped (as MiniSearch's `processTerm`). */
function searchTerm(term: string): string | null {
  const folded = term.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  return folded.length < 2 || STOP_WORDS.has(folded) ? null : folded;
}

/** A page's text cut into passages of about `PASSAGE_CHARACTERS`: paragraphs, short ones joined, long ones cut at sentence ends. */
export function splitPassages(text: string): string[] {
  const paragraphs = text
    .split(/\n\s*\n|\n(?=\s*(?:\d+(?:\.\d+)*[.)]?\s|[-•*]\s))/)
    .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
    .filter((paragraph) => paragraph.length > 0);
  const passages: string[] = [];
  let current = '';
  for (const paragraph of paragraphs.flatMap(cutLong)) {
    if (current && current.length + paragraph.length + 1 > PASSAGE_CHARACTERS) {
      passages.push(current);
      current = paragraph;
    } else {
      current = current ? `${current} ${paragraph}` : paragraph;
    }
  }
  if (current) passages.push(current);
  return passages;
}

function cutLong(paragraph: string): string[] {
  if (paragraph.length <= PASSAGE_CHARACTERS * 2) return [paragraph];
  const sentences = paragraph.match(/[^.!?]+(?:[.!?]+|$)\s*/g) ?? [paragraph];
  const pieces: string[] = [];
  let current = '';
  for (const sentence of sentences) {
    if (current && current.length + sentence.length > PASSAGE_CHARACTERS) {
      pieces.push(current.trim());
      current = '';
    }
    current += sentence;
  }
  if (current.trim()) pieces.push(current.trim());
  return pieces;
}

/** The passages that answer `query`, best first: at most `MOST_PASSAGES`, none far below the best. */
export function rankPassages(passages: readonly Passage[], query: string): RetrievedPassage[] {
  if (passages.length === 0) return [];
  const index = new MiniSearch<{ id: number; text: string }>({ fields: ['text'], processTerm: searchTerm });
  index.addAll(passages.map((passage, id) => ({ id, text: passage.text })));
  const results = index.search(query, { combineWith: 'OR', prefix: (term) => term.length >= 5 });
  const best = results[0]?.score ?? 0;
  return results
    .filter((result) => result.score >= best * RELATIVE_SCORE_FLOOR)
    .slice(0, MOST_PASSAGES)
    .map((result) => ({ ...passages[result.id as number]!, score: Number(result.score.toFixed(3)) }));
}

/** "Capability statement.pdf, page 3", "Organisation profile", "Earlier bid: Road maintenance panel". */
export function citationLabel(citation: Citation): string {
  if (citation.source === 'bid') return `earlier bid "${citation.document}"`;
  return citation.page === null ? citation.document : `${citation.document}, page ${citation.page}`;
}
