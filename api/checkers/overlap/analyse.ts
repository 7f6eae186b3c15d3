import type { ProviderFailureReason, ProviderResult } from '../../providers/http.ts';
import type { PageAnswer, PageFetch } from '../../providers/page-fetch.ts';
import type { WebSearch } from '../../providers/web-search.ts';
import { applicability } from './applicability.ts';
import { confirmedMatches } from './confirm.ts';
import { planQueries } from './queries.ts';
import type { OverlapOutcome, OverlapResult } from './result.ts';
import { overlapFigures, type SourcedMatch } from './summary.ts';
import { fingerprintText, GUARANTEED_MATCH_WORDS, type FingerprintedText } from './winnow.ts';

/**
 * The judging step of the source-overlap check (DESIGN §10): the document's text (read in a pool thread)
 * against the public web. Fingerprint the text; abstain when it is too short or not prose; search for its
 * most distinctive passages; read the pages the searches return (not the `url` input's own host); keep the
 * passages each page holds word for word. Every outside call goes through `services`; the CPU-heavy steps
 * are the pure functions of winnow.ts, queries.ts and confirm.ts.
 */

/** Results asked for per query. */
export const RESULTS_PER_QUERY = 10;
/** Candidate pages read per check: those found by the most queries first. */
export const MAX_PAGES = 15;

export const PARAPHRASE_NOTE =
  'Paraphrase comparison is disabled: only passages found word for word (after folding case, accents and punctuation) are reported; reworded or translated copying is not detected.';

export interface OverlapServices {
  webSearch: WebSearch;
  pages: PageFetch;
}

export interface OverlapOptions {
  /** The host of the `url` the document was read from: its pages are not sources of the document. */
  excludedHost: string | null;
}

export interface OverlapContext {
  progress: (stage: string) => void;
}

type Unanswered = { status: 'not configured' | 'unreachable now' | 'refused' | 'not found' | 'not text' | 'excluded'; detail: string };

function unanswered(reason: ProviderFailureReason, detail: string): Unanswered {
  return { status: reason === 'not_configured' ? 'not configured' : reason === 'refused' ? 'refused' : 'unreachable now', detail };
}

/** Hosts compared without a leading `www.`, so `www.example.org` and `example.org` are one site. */
function siteOf(host: string): string {
  return host.toLowerCase().replace(/^www\./, '');
}

/** What any overlap check covers and what a match means, whether or not this one ran. */
const METHOD =
  `Only passages of at least ${GUARANTEED_MATCH_WORDS} words found word for word are reported. Overlap is not plagiarism: quotations, citations, ` +
  'standard clauses, shared templates and the author\u2019s own earlier publications match too, and a person decides what a match means.';

function limitations(provider: string, queries: number): string {
  return (
    `Coverage, not a verdict. Only the pages ${provider} returned for ${queries} exact-phrase searches of the document's most distinctive passages were compared, ` +
    `at most ${MAX_PAGES} of them; a page the search did not return, that could not be read, or whose robots.txt asks bots to stay away is not covered. ${METHOD}`
  );
}

function notAssessed(outcome: Exclude<OverlapOutcome, 'assessed'>, headline: string, coverage: OverlapResult['coverage']): OverlapResult {
  return {
    outcome,
    overlap_band: 'not_assessed',
    overlap_ratio: null,
    matches: [],
    possible_paraphrases: [],
    paraphrase_checked: false,
    note: PARAPHRASE_NOTE,
    top_sources: [],
    headline,
    coverage,
    limitations: `Not assessed: this reply says nothing about overlap either way, and nothing was counted against your allowance. ${METHOD}`,
  };
}

type Coverage = OverlapResult['coverage'];
type Candidate = { hits: number; order: number; title: string };

export async function judgeOverlap(text: string, services: OverlapServices, options: OverlapOptions, context: OverlapContext): Promise<OverlapResult> {
  const provider = services.webSearch.provider;
  const document = fingerprintText(text);
  const coverage: Coverage = {
    words: document.tokens.length,
    search_provider: provider,
    queries_sent: 0,
    queries_answered: 0,
    search_failures: [],
    pages_compared: 0,
    pages_not_read: [],
    excluded_host: options.excludedHost,
  };
  const applicable = applicability(text, document.tokens);
  if (!applicable.applicable) return notAssessed(applicable.outcome, applicable.reason, coverage);

  const queries = planQueries(text, document.tokens);
  if (queries.length === 0) {
    return notAssessed('abstained_not_prose', 'The document has no passage distinctive enough to search for (every run of words is common or repeated).', coverage);
  }
  context.progress('searching the web');
  coverage.queries_sent = queries.length;
  const excluded = options.excludedHost === null ? null : siteOf(options.excludedHost);
  const candidates = await searchCandidates(queries.map((query) => query.query), services.webSearch, excluded, coverage);
  if (coverage.queries_answered === 0) {
    return notAssessed('search_unavailable', `The web could not be searched, so overlap was not assessed: ${coverage.search_failures[0]!.detail}`, coverage);
  }

  // The pages found by the most queries first, then by first appearance.
  const chosen = [...candidates].sort(([, a], [, b]) => b.hits - a.hits || a.order - b.order).slice(0, MAX_PAGES);
  context.progress('reading candidate pages');
  const pages = await Promise.all(chosen.map(([url]) => services.pages.read(url)));
  context.progress('comparing');
  const { matches, titles } = comparePages(document, chosen, pages, excluded, coverage);
  if (coverage.pages_compared === 0 && chosen.length > 0) {
    return notAssessed('sources_unreachable', `None of the ${chosen.length} pages the search returned could be read, so overlap was not assessed.`, coverage);
  }
  return assessed(document, matches, titles, coverage, chosen.length, queries.length);
}

/** Candidate pages by URL with how many queries found each and in what order they first came; failed searches go to `coverage`. */
async function searchCandidates(queries: string[], webSearch: WebSearch, excluded: string | null, coverage: Coverage): Promise<Map<string, Candidate>> {
  const answers = await Promise.all(queries.map((query) => webSearch.search(query, { count: RESULTS_PER_QUERY })));
  const candidates = new Map<string, Candidate>();
  answers.forEach((answer, index) => {
    if (!answer.ok) {
      coverage.search_failures.push({ query: queries[index]!, ...unanswered(answer.reason, answer.detail) });
      return;
    }
    coverage.queries_answered++;
    for (const hit of answer.value) {
      let host: string;
      try {
        host = siteOf(new URL(hit.url).hostname);
      } catch {
        continue;
      }
      if (host === excluded) continue;
      const known = candidates.get(hit.url);
      if (known) known.hits++;
      else candidates.set(hit.url, { hits: 1, order: candidates.size, title: hit.title });
    }
  });
  return candidates;
}

/** The passages each readable page holds word for word, and the pages' titles; pages not compared go to `coverage` with why. */
function comparePages(document: FingerprintedText, chosen: [string, Candidate][], pages: ProviderResult<PageAnswer>[], excluded: string | null, coverage: Coverage): { matches: SourcedMatch[]; titles: Map<string, string | null> } {
  const matches: SourcedMatch[] = [];
  const titles = new Map<string, string | null>();
  pages.forEach((page, index) => {
    const [url, candidate] = chosen[index]!;
    if (!page.ok) {
      coverage.pages_not_read.push({ url, ...unanswered(page.reason, page.detail) });
      return;
    }
    const answer = page.value;
    if (answer.status < 200 || answer.status >= 300) {
      const status = answer.status === 404 || answer.status === 410 ? 'not found' : answer.status >= 500 ? 'unreachable now' : 'refused';
      coverage.pages_not_read.push({ url, status, detail: `The page answered HTTP ${answer.status}.` });
      return;
    }
    if (excluded !== null && siteOf(new URL(answer.finalUrl).hostname) === excluded) {
      coverage.pages_not_read.push({ url, status: 'excluded', detail: `The page redirects to ${new URL(answer.finalUrl).host}, the document's own site, which is never a source.` });
      return;
    }
    if (answer.text === null) {
      coverage.pages_not_read.push({ url, status: 'not text', detail: `The page is ${answer.contentType ?? 'of an unstated type'}, not HTML or plain text, so it was not compared.` });
      return;
    }
    coverage.pages_compared++;
    titles.set(url, answer.title ?? candidate.title);
    for (const match of confirmedMatches(document, fingerprintText(answer.text))) matches.push({ ...match, source_url: url });
  });
  return { matches, titles };
}

/** The assessed reply: matches in document order, the overlap figures, and what the search covered. */
function assessed(document: FingerprintedText, matches: SourcedMatch[], titles: Map<string, string | null>, coverage: Coverage, pagesChosen: number, queries: number): OverlapResult {
  matches.sort((a, b) => a.passage_span.start_char - b.passage_span.start_char || b.tokens_matched - a.tokens_matched || a.source_url.localeCompare(b.source_url));
  const figures = overlapFigures(matches, document.tokens.map((token) => token.start), titles, coverage.pages_compared);
  const partial = coverage.search_failures.length > 0 ? ` ${coverage.search_failures.length} of ${queries} searches got no answer, so part of the document was not searched for.` : '';
  return {
    outcome: 'assessed',
    overlap_band: figures.overlap_band,
    overlap_ratio: figures.overlap_ratio,
    matches,
    possible_paraphrases: [],
    paraphrase_checked: false,
    note: PARAPHRASE_NOTE,
    top_sources: figures.top_sources,
    headline: pagesChosen === 0 ? `The search found no page holding any of the ${queries} passages searched for; no overlap was found.` : figures.headline,
    coverage,
    limitations: limitations(coverage.search_provider, queries) + partial,
  };
}
