import { z } from 'zod';
import { JURISDICTIONS, TIERS } from '../../lib/jurisdictions.ts';
import { BUYER_KEY_PATTERN } from '../../lib/keys.ts';
import { TRADES } from '../../lib/trades.ts';
import { MATCH_EXAMPLES } from '../intelligence/match-examples.ts';
import { SIGNAL_KINDS } from '../intelligence/signals.ts';
import { TENDER_KINDS, type TenderFilters } from '../search/tender-index.ts';

/**
 * What each kind of watch saves (spec, Endpoints: POST /v1/tenders/watch). Search filters carry the names
 * and rules of GET /v1/tenders' query parameters, typed as JSON; the nightly run applies them with the same
 * index the API searches with. Paging, `first_seen_after` and `include_closed` are not saved: a watch
 * lists the open tenders that are new since its last email.
 */

export const WATCH_KINDS = ['search', 'company', 'buyer', 'signals', 'grants', 'tender'] as const;
export type WatchKind = (typeof WATCH_KINDS)[number];

/** Spec, Limits: five of each kind per person. */
export const WATCHES_PER_KIND = 5;

const TRADE_IDS = TRADES.map((trade) => trade.id) as [string, ...string[]];
const wholeDays = (min: number, max: number, description: string) =>
  z.number({ error: `must be a whole number from ${min} to ${max}` }).int({ error: `must be a whole number from ${min} to ${max}` })
    .min(min, { error: `must be a whole number from ${min} to ${max}` }).max(max, { error: `must be a whole number from ${min} to ${max}` })
    .meta({ description });

const tenderFilterFields = {
  q: z.string().trim().min(1, { error: 'must not be empty' }).max(200, { error: 'must be at most 200 characters' }).optional()
    .meta({ description: 'Free text over title, summary and buyer, as GET /v1/tenders reads it.' }),
  jurisdiction: z.enum(JURISDICTIONS, { error: `must be one of ${JURISDICTIONS.join(', ')}` }).optional()
    .meta({ description: '`AU` matches every Australian state too; New Zealand tenders only with `NZ`.' }),
  tier: z.enum(TIERS, { error: `must be one of ${TIERS.join(', ')}` }).optional(),
  source: z.string().regex(/^[a-z]+(_[a-z0-9]+)+$/, { error: 'must be a registry id such as au_nsw_buy_nsw (GET /v1/tenders/sources lists them)' }).optional()
    .meta({ description: 'Registry id of one source.' }),
  category: z.string().regex(/^(\d\d){1,4}$/, { error: 'must be a UNSPSC code of 2, 4, 6 or 8 digits' }).optional()
    .meta({ description: 'UNSPSC code; a parent matches every code beneath it.' }),
  trade: z.enum(TRADE_IDS, { error: `must be one of ${TRADE_IDS.join(', ')}` }).optional(),
  buyer: z.string().trim().min(1, { error: 'must not be empty' }).max(300, { error: 'must be at most 300 characters' }).optional()
    .meta({ description: 'Organisation name as published: exact, ignoring case and runs of spaces.' }),
  closing_before: z.iso.date({ error: 'must be an ISO date such as 2026-10-31' }).optional(),
  closing_within_days: wholeDays(0, 366, "Closing from the night's day to N days later, in the buyer's day.").optional(),
  changed_within_days: wholeDays(1, 31, 'Closing or published date changed in the last N days.').optional(),
};

const notSaved = 'limit, offset, first_seen_after and include_closed are not saved: a watch lists open tenders new since its last email';
const strictFields = <T extends z.core.$ZodLooseShape>(shape: T, description: string) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `takes only ${Object.keys(shape).join(', ')} (${notSaved})` : undefined),
  }).meta({ description });

export const SearchCriteria = strictFields(
  { ...tenderFilterFields, kind: z.enum(TENDER_KINDS, { error: 'must be tender or grant' }).optional().meta({ description: 'Omit for both.' }) },
  'The query parameters of GET /v1/tenders, as JSON.',
).meta({ id: 'WatchSearchCriteria' });

export const GrantsCriteria = strictFields(tenderFilterFields, 'The query parameters of GET /v1/tenders for grant rounds (kind is always grant).')
  .meta({ id: 'WatchGrantsCriteria' });

export const CompanyCriteria = z
  .union([
    z.strictObject({ url: z.string().trim().min(3).max(2000).meta({ description: "The company's website; a bare domain is accepted." }) }),
    z.strictObject({ example: z.enum(MATCH_EXAMPLES, { error: `must be one of ${MATCH_EXAMPLES.join(', ')}` }).meta({ description: 'A built-in example profile.' }) }),
  ], { error: 'must be {url} (the company website) or {example} (civil, it or facilities)' })
  .meta({ id: 'WatchCompanyCriteria', description: 'As the body of POST /v1/tenders/match: a website or an example profile.' });

export const BuyerCriteria = z
  .strictObject({
    buyer_key: z.string().regex(BUYER_KEY_PATTERN, { error: 'must be a buyer key such as au-nsw-3f2a9c1b7d4e (GET /v1/awards/buyers lists them)' }),
  })
  .meta({ id: 'WatchBuyerCriteria', description: 'One buyer: its new awards, contracts newly within 12 months of ending, new plans and new open tenders.' });

export const SignalCriteria = z
  .strictObject({
    kind: z.enum(SIGNAL_KINDS, { error: `must be one of ${SIGNAL_KINDS.join(', ')}` }).optional(),
    jurisdiction: z.enum(JURISDICTIONS, { error: `must be one of ${JURISDICTIONS.join(', ')}` }).optional()
      .meta({ description: 'A country matches every state within it.' }),
    buyer: z.string().trim().min(1).max(300).optional().meta({ description: 'Buyer name as published, ignoring case.' }),
    q: z.string().trim().min(1).max(200).optional().meta({ description: 'Words in the subject, buyer or incumbent.' }),
    window_before: z.iso.date({ error: 'must be an ISO date' }).optional().meta({ description: 'Window starts on or before this date.' }),
    window_after: z.iso.date({ error: 'must be an ISO date' }).optional().meta({ description: 'Window not ended by this date; windows without an end are kept.' }),
  }, { error: (issue) => (issue.code === 'unrecognized_keys' ? 'takes only kind, jurisdiction, buyer, q, window_before, window_after (the filters of GET /v1/signals)' : undefined) })
  .meta({ id: 'WatchSignalCriteria', description: 'The filters of GET /v1/signals.' });

export const TenderCriteria = z
  .strictObject({
    page_key: z.string().regex(/^f?[0-9a-f]{32}$/, { error: 'must be a tender key: 32 lowercase hex characters, or f and 32 (GET /v1/tenders gives each tender\'s page_key)' }),
  })
  .meta({ id: 'WatchTenderCriteria', description: 'One tender: its closing date or time changing, and its closing.' });

export type SearchCriteria = z.infer<typeof SearchCriteria>;
export type TenderCriteria = z.infer<typeof TenderCriteria>;
export type GrantsCriteria = z.infer<typeof GrantsCriteria>;
export type CompanyCriteria = z.infer<typeof CompanyCriteria>;
export type BuyerCriteria = z.infer<typeof BuyerCriteria>;
export type SignalCriteria = z.infer<typeof SignalCriteria>;

/** A watch as the body of POST /v1/tenders/watch names it: the kind, and that kind's criteria. */
export const WatchRequest = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('search'), criteria: SearchCriteria }),
    z.strictObject({ kind: z.literal('company'), criteria: CompanyCriteria }),
    z.strictObject({ kind: z.literal('buyer'), criteria: BuyerCriteria }),
    z.strictObject({ kind: z.literal('signals'), criteria: SignalCriteria }),
    z.strictObject({ kind: z.literal('grants'), criteria: GrantsCriteria }),
    z.strictObject({ kind: z.literal('tender'), criteria: TenderCriteria }),
  ], { error: `kind must be one of ${WATCH_KINDS.join(', ')}` })
  .meta({ id: 'WatchRequest' });
export type WatchRequest = z.infer<typeof WatchRequest>;

/** The tender search a search or grants watch stands for, as TenderIndex.search takes it. */
export function tenderFiltersOf(request: Extract<WatchRequest, { kind: 'search' | 'grants' }>): TenderFilters {
  return request.kind === 'grants' ? { ...request.criteria, kind: 'grant' } : request.criteria;
}
