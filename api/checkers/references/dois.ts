import type { Crossref, CrossrefWork } from '../../providers/crossref.ts';
import { normaliseTitle, significantWords, similarityRatio } from './text.ts';

/**
 * DOIs resolved on Crossref with the claimed title compared to the registered one, and citations without a
 * DOI looked up with `query.bibliographic`.
 *
 * The title rule: both titles are normalised (accents, case and punctuation removed, white space folded)
 * and compared by 1 − Levenshtein distance ÷ the longer length. The registered title is tried alone, with
 * its subtitle and without anything after its first colon, and the claimed title also without anything
 * after its first colon; the best ratio counts, so a citation that drops or keeps a subtitle is not
 * penalised. The titles match when that ratio is at least `TITLE_MATCH` (0.90) and every content word of
 * the compared registered form has a counterpart in the claimed title (the same word, or one within a
 * 0.75 ratio: a typo or a spelling variant); a title that differs by one meaningful word ("findings are
 * true" for "findings are false") is therefore only a partial match. From `TITLE_PARTIAL` (0.70) they
 * partly match (a person should look), below they do not. Crossref's relevance `score` is not normalised,
 * so it is never thresholded (CrossRef/rest-api-doc); the "Hallucinator" checker uses 95% fuzzy title
 * matching for "verified". `test/references-accuracy.test.ts` measures the rule on the labelled set.
 */

export const TITLE_MATCH = 0.9;
export const TITLE_PARTIAL = 0.7;

export type DoiStatus = 'verified' | 'partial_title_match' | 'title_mismatch' | 'registered' | 'registered_elsewhere' | 'not_found' | 'unreachable_now' | 'not_checked';
export type CitationStatus = 'found' | 'possible_match' | 'not_found' | 'unreachable_now' | 'not_checked';

export interface RegisteredWork {
  doi: string;
  title: string | null;
  year: number | null;
  container: string | null;
  first_author: string | null;
}

export interface DoiCheck {
  status: DoiStatus;
  evidence: string[];
  registered: RegisteredWork | null;
  /** The title similarity (0..1, two decimals) when both a claimed and a registered title exist. */
  title_similarity: number | null;
}

export interface CitationCheck {
  status: CitationStatus;
  evidence: string[];
  /** The best Crossref record, when one was considered. */
  matched: RegisteredWork | null;
  title_similarity: number | null;
}

export interface TitleComparison {
  /** The best ratio over the titles' forms, two decimals. */
  similarity: number;
  /** Content words of the best registered form with no counterpart in the claimed title. */
  missing: string[];
  /** The rule above: `match`, `partial` or `different`. */
  verdict: 'match' | 'partial' | 'different';
}

export function compareTitles(claimed: string, registered: Pick<CrossrefWork, 'title' | 'subtitle'>): TitleComparison {
  if (registered.title === null) return { similarity: 0, missing: [], verdict: 'different' };
  const claims = [claimed, claimed.split(':')[0]!].map(normaliseTitle).filter((form) => form !== '');
  const forms = [registered.title, registered.title.split(':')[0]!, registered.subtitle === null ? null : `${registered.title}: ${registered.subtitle}`].filter((form) => form !== null).map(normaliseTitle);
  let best = { ratio: 0, claim: '', form: '' };
  for (const claim of claims) {
    for (const form of forms) {
      const ratio = similarityRatio(claim, form);
      if (ratio > best.ratio) best = { ratio, claim, form };
    }
  }
  const claimedWords = significantWords(best.claim);
  const missing = significantWords(best.form).filter((word) => !claimedWords.some((candidate) => candidate === word || similarityRatio(candidate, word) >= 0.75));
  const similarity = Math.round(best.ratio * 100) / 100;
  const verdict = similarity >= TITLE_MATCH && missing.length === 0 ? 'match' : similarity >= TITLE_PARTIAL ? 'partial' : 'different';
  return { similarity, missing, verdict };
}

function registeredWork(work: CrossrefWork): RegisteredWork {
  return { doi: work.doi, title: work.title, year: work.year, container: work.container, first_author: work.authors[0] ?? null };
}

const quoted = (title: string | null) => (title === null ? 'no title' : `“${title}”`);

export async function checkDoi(doi: string, claimedTitle: string | null, crossref: Crossref): Promise<DoiCheck> {
  const reply = await crossref.work(doi);
  if (!reply.ok) {
    const status = reply.reason === 'not_configured' ? 'not_checked' : 'unreachable_now';
    return { status, evidence: [reply.detail], registered: null, title_similarity: null };
  }
  if (reply.value === null) {
    const agency = await crossref.agency(doi);
    if (agency.ok && agency.value !== null && agency.value !== 'crossref') {
      return { status: 'registered_elsewhere', evidence: [`Crossref does not hold ${doi}; it is registered with ${agency.value}, whose records this check does not read.`], registered: null, title_similarity: null };
    }
    return { status: 'not_found', evidence: [`Crossref answered that ${doi} is not a DOI it holds${agency.ok ? ', and no registration agency knows it' : ''}.`], registered: null, title_similarity: null };
  }
  const work = reply.value;
  const registered = registeredWork(work);
  if (claimedTitle === null) return { status: 'registered', evidence: [`Crossref holds ${doi}: ${quoted(work.title)}. The document gives no title to compare.`], registered, title_similarity: null };
  const comparison = compareTitles(claimedTitle, work);
  const words = comparison.missing.length === 0 || comparison.verdict === 'different' ? '' : `; the citation lacks “${comparison.missing.join('”, “')}”`;
  const compared = `The document cites ${quoted(claimedTitle)}; Crossref registers ${doi} as ${quoted(work.title)} (title similarity ${comparison.similarity.toFixed(2)}${words}).`;
  const status = comparison.verdict === 'match' ? 'verified' : comparison.verdict === 'partial' ? 'partial_title_match' : 'title_mismatch';
  return { status, evidence: [compared], registered, title_similarity: comparison.similarity };
}

/** A citation without a DOI: Crossref's best records for the entry, judged by the title rule and the year (±1, for online-first dates). */
export async function checkCitation(entry: string, claimedTitle: string, year: number | null, crossref: Crossref): Promise<CitationCheck> {
  const reply = await crossref.searchBibliographic(entry, 5);
  if (!reply.ok) {
    const status = reply.reason === 'not_configured' ? 'not_checked' : 'unreachable_now';
    return { status, evidence: [reply.detail], matched: null, title_similarity: null };
  }
  const ranked = reply.value
    .map((work) => ({ work, ...compareTitles(claimedTitle, work), yearFits: year === null || work.year === null || Math.abs(work.year - year) <= 1 }))
    .sort((a, b) => Number(b.yearFits) - Number(a.yearFits) || b.similarity - a.similarity);
  const best = ranked[0];
  if (best === undefined || best.verdict === 'different') {
    return {
      status: 'not_found',
      evidence: [`Crossref has no record whose title is close to ${quoted(claimedTitle)}${best === undefined ? '' : ` (closest: ${quoted(best.work.title)}, similarity ${best.similarity.toFixed(2)})`}. Crossref does not index every work (most reports, books and web pages have no DOI), so this is not proof the work does not exist.`],
      matched: null,
      title_similarity: best?.similarity ?? null,
    };
  }
  const found = best.verdict === 'match' && best.yearFits;
  const yearNote = best.yearFits ? '' : ` but its year ${best.work.year} differs from the cited ${year}`;
  return {
    status: found ? 'found' : 'possible_match',
    evidence: [`Crossref's closest record is ${best.work.doi}, ${quoted(best.work.title)} (${best.work.year ?? 'no year'}), title similarity ${best.similarity.toFixed(2)}${yearNote}.`],
    matched: registeredWork(best.work),
    title_similarity: best.similarity,
  };
}
