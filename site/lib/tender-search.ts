// The search page's tender search, kept apart from the page so it can be tested: what a search is (read from
// and written to the page's URL, so a search can be bookmarked and shared), the GET /v1/tenders query and the
// saved-search criteria it stands for, the reply as the page reads it, and the reply in words.
import * as z from 'zod/mini';
import { JURISDICTIONS, TIERS, isJurisdiction } from '../../lib/jurisdictions.ts';
import { TRADES } from '../../lib/trades.ts';
import { countdown, daysToClose } from './closing.ts';
import { count, day, instant, plural, publishedValue } from './format.ts';
import { jurisdictionName, tradeName } from './places.ts';
import { wasRead, type CoverageScope } from '../../lib/coverage.ts';
import { sourceStatusWhy } from '../../lib/glossary.ts';
import { coverageLine, coverageSentence, type NamedSource } from './coverage-words.ts';

// The API's vocabularies (GET /v1/tenders); the index module that owns them is server code.
export const KINDS = ['tender', 'grant'] as const;
export const SORTS = ['relevance', 'closing'] as const;
export const PAGE_SIZE = 20;
const MOST_DAYS = 366;
const MOST_WORDS = 200;

/** A search as the page's URL holds it. Absent means "any". */
export interface TenderSearch {
  q?: string;
  jurisdiction?: (typeof JURISDICTIONS)[number];
  kind?: (typeof KINDS)[number];
  trade?: string;
  tier?: (typeof TIERS)[number];
  closing_within_days?: number;
  include_closed?: true;
  /** Only matters with words: without them results always come by closing date. */
  sort?: (typeof SORTS)[number];
  /** 1-based. */
  page?: number;
}

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;

const wholeNumberIn = (value: string | null, min: number, max: number): number | undefined => {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  const n = Number(value);
  return n >= min && n <= max ? n : undefined;
};

const TRADE_IDS = TRADES.map((trade) => trade.id);

/**
 * The search a URL query asks for. Values the API would refuse are dropped rather than shown as an error:
 * a shared link keeps working for what it says correctly. `AU` is the default scope (every Australian
 * state and federal), so it reads as no jurisdiction.
 */
export function searchFromQuery(query: URLSearchParams): TenderSearch {
  const search: TenderSearch = {};
  const q = query.get('q')?.trim().slice(0, MOST_WORDS);
  if (q) search.q = q;
  const jurisdiction = oneOf(JURISDICTIONS, query.get('jurisdiction'));
  if (jurisdiction && jurisdiction !== 'AU') search.jurisdiction = jurisdiction;
  const kind = oneOf(KINDS, query.get('kind'));
  if (kind) search.kind = kind;
  const trade = oneOf(TRADE_IDS, query.get('trade'));
  if (trade) search.trade = trade;
  const tier = oneOf(TIERS, query.get('tier'));
  if (tier) search.tier = tier;
  const within = wholeNumberIn(query.get('closing_within_days'), 0, MOST_DAYS);
  if (within !== undefined) search.closing_within_days = within;
  if (query.get('include_closed') === 'true') search.include_closed = true;
  const sort = oneOf(SORTS, query.get('sort'));
  if (sort) search.sort = sort;
  const page = wholeNumberIn(query.get('page'), 1, Number.MAX_SAFE_INTEGER);
  if (page !== undefined && page > 1) search.page = page;
  return search;
}

/** The page's URL query for a search (the inverse of searchFromQuery), in a fixed order. */
export function queryOf(search: TenderSearch): URLSearchParams {
  const query = new URLSearchParams();
  if (search.q) query.set('q', search.q);
  if (search.jurisdiction) query.set('jurisdiction', search.jurisdiction);
  if (search.kind) query.set('kind', search.kind);
  if (search.trade) query.set('trade', search.trade);
  if (search.tier) query.set('tier', search.tier);
  if (search.closing_within_days !== undefined) query.set('closing_within_days', String(search.closing_within_days));
  if (search.include_closed) query.set('include_closed', 'true');
  if (search.sort) query.set('sort', search.sort);
  if (search.page !== undefined && search.page > 1) query.set('page', String(search.page));
  return query;
}

/** The path of the search page showing `search`. */
export function searchPath(search: TenderSearch): string {
  const query = queryOf(search).toString();
  return query ? `/search/?${query}` : '/search/';
}

/** The GET /v1/tenders address for one page of a search. */
export function apiPathOf(search: TenderSearch): string {
  const { page, sort, ...filters } = search;
  const query = queryOf(filters);
  if (search.q && sort) query.set('sort', sort);
  query.set('limit', String(PAGE_SIZE));
  query.set('offset', String(((page ?? 1) - 1) * PAGE_SIZE));
  return `/v1/tenders?${query}`;
}

/** The body of POST /v1/tenders/watch saving this search: its filters (a watch emails open tenders new since the last email, so paging, order and closed tenders are not saved). */
export function watchRequestOf(search: TenderSearch): { kind: 'search'; criteria: Record<string, string | number> } {
  const { page: _page, sort: _sort, include_closed: _closed, ...criteria } = search;
  return { kind: 'search', criteria };
}

/** The parts of a GET /v1/tenders reply the page reads. */
export const SearchReply = z.object({
  total: z.number(),
  results: z.array(z.object({
    page_key: z.string(),
    title: z.string(),
    buyer: z.optional(z.string()),
    jurisdiction: z.string(),
    kind: z.string(),
    trade: z.optional(z.string()),
    value_text: z.optional(z.string()),
    closing_date: z.optional(z.string()),
    closing_at: z.optional(z.string()),
    open: z.boolean(),
  })),
  coverage: z.object({
    sources_total: z.number(),
    sources_empty: z.array(z.object({ source: z.string(), status: z.string(), why: z.string() })),
    last_run: z.string(),
  }),
});
export type SearchReply = z.infer<typeof SearchReply>;
export type FoundTender = SearchReply['results'][number];

/** One result as the page shows it. */
export interface ResultView {
  href: string;
  title: string;
  /** Buyer, place, kind or trade, and the value where one is published, in words. */
  about: string;
  /** The closing time in the buyer's time zone, or the date alone; empty when none was published. */
  closes: string;
  /** ISO value for the <time> element, when there is a closing date. */
  closesAt: string | undefined;
  countdown: string;
  open: boolean;
}

export function resultView(tender: FoundTender, asOf: string): ResultView {
  const place = jurisdictionName(tender.jurisdiction);
  const what = tender.kind === 'grant' ? 'Grant round' : tender.trade ? tradeName(tender.trade) : 'Tender';
  const closes = tender.closing_at
    ? instant(tender.closing_at, tender.jurisdiction)
    : tender.closing_date ? `${day(tender.closing_date)} (no time published)` : '';
  const daysLeft = tender.closing_date && isJurisdiction(tender.jurisdiction) ? daysToClose(tender.closing_date, asOf, tender.jurisdiction) : undefined;
  return {
    href: `/tenders/${tender.page_key}/`,
    title: tender.title,
    about: [tender.buyer ?? 'Buyer not published', place, what, ...(tender.value_text ? [publishedValue(tender.value_text)] : [])].join(' · '),
    closes,
    closesAt: tender.closing_at ?? tender.closing_date,
    countdown: countdown(tender.open, daysLeft),
    open: tender.open,
  };
}

/** "12 open tenders and grant rounds match “cleaning”, best match first. Showing 1–12." */
export function statusLine(search: TenderSearch, total: number): string {
  const open = search.include_closed ? '' : 'open ';
  const [one, many] = search.kind === 'grant' ? ['grant round', 'grant rounds'] : search.kind === 'tender' ? ['tender', 'tenders'] : ['tender or grant round', 'tenders and grant rounds'];
  const what = search.q ? `“${search.q}”` : 'these filters';
  if (total === 0) return `No ${open}${many} match ${what}.`;
  const order = search.q && search.sort !== 'closing' ? 'best match first' : 'closing soonest first';
  const first = ((search.page ?? 1) - 1) * PAGE_SIZE + 1;
  const shown = first > total ? 'This page is past the last of them.' : `Showing ${first}–${Math.min(first + PAGE_SIZE - 1, total)}.`;
  return `${plural(total, open + one, open + many)} ${total === 1 ? 'matches' : 'match'} ${what}, ${order}. ${shown}`;
}

/** What to try when nothing matched: each filter set, and the words. */
export function suggestions(search: TenderSearch): string[] {
  const tips: string[] = [];
  if (search.q && search.q.split(/\s+/).length > 1) tips.push('Use fewer words: every word must appear in a tender (or its trade\'s name).');
  else if (search.q) tips.push('Try another word for the same thing, or a shorter one: "clean" also finds "cleaning" and "cleaners".');
  if (search.jurisdiction) tips.push(`Search every state, not only ${jurisdictionName(search.jurisdiction)}.`);
  if (search.trade) tips.push(`Drop the trade (${tradeName(search.trade)}): a tender's trade is judged from its category or words and can miss.`);
  if (search.tier || search.kind) tips.push('Allow any kind and any government.');
  if (search.closing_within_days !== undefined) tips.push(`Allow a later closing date than within ${plural(search.closing_within_days, 'day')}.`);
  if (!search.include_closed) tips.push('Include closed tenders, to see what was asked for before.');
  return tips;
}

/** The sources a search looked at, in words: which were searched, which could not be read and why, and which held nothing. */
export interface CoverageView {
  summary: string;
  /** Sources in scope that were not read on the last run, or held nothing. */
  empty: { source: string; name: string; words: string }[];
}

/** The coverage scope of a search: the rule GET /v1/tenders applies to its `coverage` (lib/coverage.ts). */
export function searchScope(search: TenderSearch): CoverageScope {
  return { jurisdictions: search.jurisdiction ? [search.jurisdiction] : undefined, kinds: search.kind ? [search.kind] : KINDS };
}

const KIND_WORDS: Record<(typeof KINDS)[number], string> = { tender: 'tenders', grant: 'grant rounds' };

/**
 * The coverage of a search reply in words, naming the sources from the registry by the same rule the API
 * counted them with. Should the two ever disagree (a page built from an older registry than the API's), the
 * API's count is said instead of names.
 */
export function coverageView(coverage: SearchReply['coverage'], registry: readonly NamedSource[], search: TenderSearch): CoverageView {
  const line = coverageLine(registry, searchScope(search));
  const names = new Map(registry.map((source) => [source.id, source.name]));
  const place = search.jurisdiction ? jurisdictionName(search.jurisdiction) : 'Australia';
  const what = search.kind ? KIND_WORDS[search.kind] : 'tenders or grant rounds';
  const none = `No registered source publishes ${what} in ${place}, so there was nothing to search.`;
  const agrees = line.read.length + line.unread.length === coverage.sources_total;
  const notRead = coverage.sources_empty.filter((source) => !wasRead(source.status)).length;
  const summary = agrees
    ? coverageSentence(line, 'Searched', none)
    : `Searched ${plural(coverage.sources_total - notRead, 'source')}${notRead > 0 ? `; ${count(notRead)} could not be read` : ''}.`;
  return {
    summary: coverage.sources_total === 0 ? none : `${summary} Read on the last run, ${instant(coverage.last_run)}. A search finds only what these sources publish.`,
    empty: coverage.sources_empty.map((source) => ({
      source: source.source,
      name: names.get(source.source) ?? 'A registered source',
      words: wasRead(source.status) ? 'read, but it listed nothing open' : sourceStatusWhy(source.status),
    })),
  };
}
