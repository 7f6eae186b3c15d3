import PQueue from 'p-queue';
import type { Services } from '../../providers/index.ts';
import type { ReadTextDocument, ReadTextResult } from '../read-text.ts';
import { checkConsistency } from './consistency.ts';
import { claimOf, judgeClaim } from './deep.ts';
import { checkCitation, checkDoi } from './dois.ts';
import { findReferences, type FindOptions, type FoundReference } from './find.ts';
import type { ConsistencyItem, FactCheckClaim, FactCheckReference, FactCheckResult } from './result.ts';
import { sentenceSpans, spanAt } from './text.ts';
import { checkLink, type CheckedLink } from './urls.ts';

/**
 * The judging step of POST /v1/verify-references (DESIGN §10): the documents' text (read in a pool thread)
 * in, the fact-check result out, every outside call through `services`. References are checked a few at a
 * time (per-host pacing is the providers' own); a call checks at most `MAX_CHECKED` references of each kind
 * and reports the rest as `not_checked`, so one document cannot turn into thousands of outside calls.
 */

export const MAX_CHECKED = { url: 60, doi: 60, citation: 40 } as const;
/** Deep mode reads at most this many cited pages, and judges at most this many sentences per page. */
export const MAX_DEEP_PAGES = 25;
const MAX_CLAIMS_PER_REFERENCE = 3;
const CONCURRENCY = 4;

export interface ReferencesOptions {
  deep: boolean;
  /**
   * Aborts when the call's time is up (the route gives `TIME_BUDGET_MS`): references not yet started are then
   * reported `not_checked`, and deep mode reads no further pages, so a document full of slow links still
   * answers. Checks already under way finish within their own time limits.
   */
  budget?: AbortSignal;
}

/** How long one call may spend asking the outside world before the rest is reported as not checked. */
export const TIME_BUDGET_MS = 90_000;

export interface JudgedReferences {
  result: Omit<FactCheckResult, 'check_id' | 'permalink'>;
  /**
   * Whether the call uses the caller's unit (spec, Limits: abstentions, outages and engine failures do not
   * count): true when it produced a real result, a reference answered by an outside service (live, dead,
   * archived, a Crossref verdict) or a calculation recomputed. A page whose links are all its own and whose
   * numbers are all markers, dates or page numbers yields neither (nothing is invented to check), nor does a
   * call whose every outside check went unanswered.
   */
  counts: boolean;
}

/** One document as the checker reads it: its pages joined, and what it is (so its own links are not citations). */
export interface DocumentText {
  index: number;
  filename: string | null;
  text: string;
  identity: FindOptions;
  /** Where each page starts in `text` (pages joined by a blank line). */
  pageStarts: { page: number; start: number }[];
}

/** Each document's pages joined by a blank line, with where each page starts and what the document is. */
export function documentTexts(read: ReadTextResult): DocumentText[] {
  return read.documents.map((document, index): DocumentText => {
    let offset = 0;
    const pageStarts = document.pages.map((page) => {
      const start = offset;
      offset += page.text.length + 2;
      return { page: page.page, start };
    });
    return { index, filename: document.filename, text: document.pages.map((page) => page.text).join('\n\n'), identity: identityOf(document), pageStarts };
  });
}

export async function judgeReferences(read: ReadTextResult, options: ReferencesOptions, services: Services, context: { now: Date; progress: (stage: string) => void }): Promise<JudgedReferences> {
  const documents = documentTexts(read);

  const found = documents.flatMap((document) => findReferences(document.text, document.identity).map((reference) => ({ document, reference })));
  const queue = new PQueue({ concurrency: CONCURRENCY });
  const taken = { url: 0, doi: 0, citation: 0 };
  const links = new Map<number, CheckedLink>();
  context.progress('checking references');
  const references = await Promise.all(
    found.map(({ document, reference }, position) => {
      const withinLimit = taken[reference.kind]++ < MAX_CHECKED[reference.kind];
      return queue.add(async () => {
        const item = options.budget?.aborted === true ? outOfTime(reference) : await checkReference(reference, withinLimit, services);
        if (item.link !== undefined) links.set(position, item.link);
        return { ...item.fields, reference_id: `ref_${position + 1}`, location: locate(document, reference.start, reference.end) } satisfies FactCheckReference;
      });
    }),
  );

  const claims: FactCheckClaim[] = [];
  if (options.deep) {
    context.progress('reading cited pages');
    let pagesRead = 0;
    for (const [position, { document, reference }] of found.entries()) {
      const link = links.get(position);
      if (link === undefined || pagesRead >= MAX_DEEP_PAGES || options.budget?.aborted === true) continue;
      const citing = citingSentences(document.text, reference).slice(0, MAX_CLAIMS_PER_REFERENCE);
      if (citing.length === 0) continue;
      const source = await pageForClaims(link, services);
      if (source === null) continue;
      pagesRead++;
      for (const sentence of citing) {
        claims.push({ reference_id: `ref_${position + 1}`, sentence: sentence.text, location: locate(document, sentence.start, sentence.end), source_url: source.url, ...judgeClaim(sentence.text, source.text) });
      }
    }
  }

  context.progress('recomputing figures');
  const consistency: ConsistencyItem[] = documents.flatMap((document) =>
    checkConsistency(document.text).map(({ start_char, end_char, ...finding }) => ({ ...finding, location: locate(document, start_char, end_char) })),
  );

  const summary = summarise(references, claims, consistency);
  const answered = references.some((reference) => reference.status !== 'not_checked' && reference.status !== 'unreachable_now');
  const checkedSomething = answered || consistency.length > 0;
  return {
    result: { summary, references, claims, internal_consistency: consistency, deep: options.deep, checked_at: context.now.toISOString(), limitations: limitations(options.deep) },
    counts: checkedSomething,
  };
}

/**
 * What the document is, so its own links and DOIs are not taken for citations: an HTML page's site and DOIs
 * as its reader found them, and for a paged document the DOIs printed on most of its pages (a journal's
 * running header carries the article's own DOI on every page).
 */
export function identityOf(document: ReadTextDocument): FindOptions {
  const selfDois = new Set(document.page_identity?.self_dois ?? []);
  if (document.pages.length >= 3) {
    const pagesWith = new Map<string, number>();
    for (const page of document.pages) {
      for (const doi of new Set([...page.text.matchAll(/\b10\.\d{4,9}\/[-._;()/:a-z0-9]+[a-z0-9]/gi)].map((match) => match[0].toLowerCase()))) pagesWith.set(doi, (pagesWith.get(doi) ?? 0) + 1);
    }
    for (const [doi, count] of pagesWith) if (count >= 3 && count > document.pages.length / 2) selfDois.add(doi);
  }
  return { site: document.page_identity?.site ?? null, selfDois: [...selfDois] };
}

type ReferenceFields = Omit<FactCheckReference, 'reference_id' | 'location'>;

function unchecked(reference: FoundReference): ReferenceFields {
  return {
    kind: reference.kind,
    as_written: reference.text.slice(0, 500),
    url: reference.url,
    doi: reference.doi,
    claimed_title: reference.claimedTitle,
    year: reference.year,
    status: 'not_checked',
    evidence: [],
    http_status: null,
    final_url: null,
    archived_copy: null,
    registered: null,
    title_similarity: null,
    cited_in_text: reference.entry === null ? null : reference.citedAt.length,
  };
}

function outOfTime(reference: FoundReference): { fields: ReferenceFields; link?: CheckedLink } {
  return { fields: { ...unchecked(reference), evidence: [`Not checked: the call's ${TIME_BUDGET_MS / 1000} s for asking outside services ran out before this reference's turn.`] } };
}

async function checkReference(reference: FoundReference, withinLimit: boolean, services: Services): Promise<{ fields: ReferenceFields; link?: CheckedLink }> {
  const base = unchecked(reference);
  if (!withinLimit) return { fields: { ...base, evidence: [`Not checked: a call checks at most ${MAX_CHECKED[reference.kind]} references of this kind.`] } };
  if (reference.kind === 'url') {
    const link = await checkLink(reference.url!, services);
    return { fields: { ...base, ...link.check }, link };
  }
  if (reference.kind === 'doi') {
    const doi = await checkDoi(reference.doi!, reference.claimedTitle, services.crossref);
    return { fields: { ...base, ...doi } };
  }
  if (reference.claimedTitle === null) return { fields: { ...base, evidence: ['Not checked: no title could be read from this entry to look it up (a note, or a reference in a style the checker does not read).'] } };
  const citation = await checkCitation(reference.entry!, reference.claimedTitle, reference.year, services.crossref);
  return { fields: { ...base, status: citation.status, evidence: citation.evidence, registered: citation.matched, title_similarity: citation.title_similarity } };
}

/**
 * The sentences of the document that make the claim a reference supports: the sentence a URL is written
 * in, or, for a reference-list entry, the body sentences citing it (its markers, `[3]`, `[2, 3]`, `[4–7]`,
 * or its first author and year, `(Smith, 2020)`, `Smith et al. (2020)`: the finder's `citedAt`).
 */
function citingSentences(text: string, reference: FoundReference): { text: string; start: number; end: number }[] {
  const sentences = sentenceSpans(text);
  if (reference.entrySpan === null) return sentences.filter((sentence) => sentence.start <= reference.start && reference.start < sentence.end).filter((sentence) => claimOf(sentence.text).split(' ').length >= 4);
  const cited = new Set(reference.citedAt.map((offset) => spanAt(sentences, offset)).filter((sentence) => sentence !== undefined));
  return sentences.filter((sentence) => cited.has(sentence));
}

/** The text claims are judged against: the live page, or the archived copy of a dead one (read through the same polite fetcher). */
async function pageForClaims(link: CheckedLink, services: Services): Promise<{ url: string; text: string } | null> {
  if (link.page?.text) return { url: link.page.finalUrl, text: link.page.text };
  if (link.check.status !== 'archived' || link.check.archived_copy === null) return null;
  const archived = await services.pages.read(link.check.archived_copy.url);
  return archived.ok && archived.value.text ? { url: archived.value.finalUrl, text: archived.value.text } : null;
}

function locate(document: DocumentText, start: number, end: number): FactCheckReference['location'] {
  const page = [...document.pageStarts].reverse().find((entry) => entry.start <= start) ?? document.pageStarts[0] ?? { page: 1, start: 0 };
  return { document: document.index, filename: document.filename, page: page.page, start_char: start - page.start, end_char: end - page.start };
}

function tally<T extends string>(values: T[]): Record<string, number> {
  const counted: Record<string, number> = {};
  for (const value of values) counted[value] = (counted[value] ?? 0) + 1;
  return counted;
}

const STATUS_WORDS: Record<string, string> = {
  live: 'live',
  archived: 'archived',
  dead: 'dead',
  unreachable_now: 'unreachable now',
  not_checked: 'not checked',
  verified: 'verified',
  partial_title_match: 'with a partly matching title',
  title_mismatch: 'with a different registered title',
  registered: 'registered',
  registered_elsewhere: 'registered outside Crossref',
  not_found: 'not found',
  found: 'found on Crossref',
  possible_match: 'possibly matched',
};

function summarise(references: FactCheckReference[], claims: FactCheckClaim[], consistency: ConsistencyItem[]): FactCheckResult['summary'] {
  const byKind = (kind: FactCheckReference['kind']) => tally(references.filter((reference) => reference.kind === kind).map((reference) => reference.status));
  const urls = byKind('url');
  const dois = byKind('doi');
  const citations = byKind('citation');
  const inconsistent = consistency.filter((item) => !item.consistent).length;
  const phrase = (counted: Record<string, number>, noun: string) => {
    const total = Object.values(counted).reduce((sum, value) => sum + value, 0);
    if (total === 0) return null;
    return `${total} ${noun}${total === 1 ? '' : 's'} (${Object.entries(counted).map(([status, count]) => `${count} ${STATUS_WORDS[status] ?? status}`).join(', ')})`;
  };
  const parts = [phrase(urls, 'link'), phrase(dois, 'DOI'), phrase(citations, 'citation without a DOI')].filter((part) => part !== null);
  const claimTally = tally(claims.map((claim) => claim.verdict));
  const claimPart = claims.length === 0 ? [] : [`${claims.length} citing sentence${claims.length === 1 ? '' : 's'} judged (${Object.entries(claimTally).map(([verdict, count]) => `${count} ${verdict}`).join(', ')})`];
  const arithmetic = consistency.length === 0 ? 'no calculations found to recompute' : `${inconsistent} of ${consistency.length} calculation${consistency.length === 1 ? '' : 's'} do${inconsistent === 1 && consistency.length === 1 ? 'es' : ''} not add up`;
  const headline = `${parts.length === 0 ? 'No references found' : parts.join('; ')}; ${[...claimPart, arithmetic].join('; ')}.`;
  return { headline: headline.charAt(0).toUpperCase() + headline.slice(1), references: references.length, urls, dois, citations, claims: claimTally, internal_consistency: { checked: consistency.length, inconsistent } };
}

function limitations(deep: boolean): string {
  return [
    'Each link was tried once (HEAD, then GET) through a fetcher that reads only public addresses and honours robots.txt; a link that did not answer is "unreachable now", not dead, since a site can be down for an hour. Pages behind logins, scripts or bot protection may be reported unreachable although a person can open them.',
    'Soft 404s are recognised by a redirect to the site root or to an error page, or an English "not found" title or heading; other soft 404s pass as live.',
    'DOIs are resolved on Crossref only: DOIs of other agencies (DataCite, mEDRA) are named but not compared. Titles are compared by normalised edit distance (match at 0.90, partial at 0.70); a citation without a DOI is looked up on Crossref, which does not index most reports, books and web pages.',
    deep
      ? `Deep mode judges each citing sentence against the single closest sentence of the cited HTML or text page (the archived copy for an archived link) by shared content words, negation, direction words and figures; it does not understand paraphrase, hedging or context, and says unclear rather than guess. It reads links only, at most ${MAX_DEEP_PAGES} pages a call: PDF sources, DOI landing pages and citations without a link are not compared.`
      : 'Deep mode was off: cited pages were not compared with the sentences citing them.',
    'Arithmetic is recomputed where the document writes it out: sums, table columns with a Total row, "a total of" sentences, shares, changes and year spans; tolerance is the rounding the document shows. Figures in images, charts or scanned tables read by OCR may be misread.',
    `References are found in text; a reference list broken across pages or columns may be split or joined wrongly. A call checks at most ${MAX_CHECKED.url} links, ${MAX_CHECKED.doi} DOIs and ${MAX_CHECKED.citation} citations and spends at most ${TIME_BUDGET_MS / 1000} s asking outside services; the rest are listed as not checked.`,
  ].join(' ');
}
