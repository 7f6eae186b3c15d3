import { z } from 'zod';
import { JURISDICTIONS, TIERS } from '../../lib/jurisdictions.ts';
import { TRADES } from '../../lib/trades.ts';
import { Attribution } from '../intelligence/context.ts';
import type { IndexedTender } from './tender-index.ts';
import { TENDER_KINDS } from './tender-index.ts';

/**
 * One tender as GET /v1/tenders/{key} and the search replies give it, built here so the API and the static
 * site's tender pages (whose JSON twins are this reply) share one builder. A value the release does not hold
 * is absent, never null; links to other sites only for an audience allowed them (spec, Authentication 7).
 */

/** What the caller may be shown. */
export interface TenderAudience {
  /** Original-portal and source links: callers with an API key or a signed-in session only. */
  links: boolean;
}

const isoDate = z.iso.date();
const isoInstant = z.iso.datetime({ offset: true });
const TRADE_IDS = TRADES.map((trade) => trade.id) as [string, ...string[]];
type TradeId = (typeof TRADE_IDS)[number];
const linkNote = 'Only for a caller with an API key or a signed-in session.';

export const TenderSchema = z
  .object({
    page_key: z.string().meta({ description: 'Permanent key: 32 hex characters, or `f` plus 32 hex.', example: '3f2a9c0d5e6b7a8190a1b2c3d4e5f607' }),
    tender_key: z.string().meta({ description: 'Same as `page_key`.' }),
    kind: z.enum(TENDER_KINDS),
    title: z.string(),
    buyer: z.string().optional(),
    reference: z.string().optional().meta({ description: "The buyer's own reference, as published." }),
    jurisdiction: z.enum(JURISDICTIONS),
    tier: z.enum(TIERS),
    source: z.string().meta({ description: 'Registry id of the source (see GET /v1/tenders/sources).' }),
    source_tag: z.string().meta({ description: 'Compact source tag.' }),
    summary: z.string().optional(),
    category: z.string().optional().meta({ description: 'UNSPSC code (8 digits).' }),
    category_name: z.string().optional(),
    trade: z.enum(TRADE_IDS).optional().meta({ description: 'The trade the tender falls under, when one fits.' }),
    notice_type: z.string().optional(),
    published_date: isoDate.optional(),
    closing_date: isoDate.optional().meta({ description: "Closing date in the buyer's time zone; absent when none is published." }),
    closing_at: isoInstant.optional().meta({ description: 'Closing instant, when the source publishes a time.' }),
    value_text: z.string().optional().meta({ description: 'Value as published, never converted.' }),
    first_seen: isoInstant.meta({ description: 'When the nightly run first saw the tender.' }),
    last_seen: isoInstant,
    dates_changed_at: isoInstant.optional().meta({ description: 'When the closing or published date last changed.' }),
    stale: z.boolean().meta({ description: 'True when the source failed on the last run and this row was carried forward.' }),
    open: z.boolean().meta({ description: "No closing date, or a closing date of today or later in the buyer's time zone." }),
    link: z.url().optional().meta({ description: `Where to read the tender on its original portal. ${linkNote}` }),
    url: z.url().optional().meta({ description: `The notice page on the original portal. ${linkNote}` }),
    listing_url: z.url().optional().meta({ description: `The list the tender appeared on. ${linkNote}` }),
    source_url: z.url().optional().meta({ description: `Homepage of the source. ${linkNote}` }),
  })
  .meta({ id: 'Tender' });
export type TenderReply = z.infer<typeof TenderSchema>;

// Built from the shape rather than with extend(), which OpenAPI would render as allOf instead of one object.
export const TenderReadSchema = z
  .object({
    ...TenderSchema.shape,
    sources: z.array(Attribution).meta({ description: 'Licence and attribution of the source the tender comes from.' }),
  })
  .meta({ id: 'TenderRead' });

/**
 * The reply for one tender. Values the release does not hold are left undefined, which JSON leaves out.
 */
export function tenderReply(tender: IndexedTender, open: boolean, audience: TenderAudience): TenderReply {
  const row = tender.row;
  const links = audience.links;
  const link = links && row.url !== '' ? row.url : undefined;
  return {
    page_key: row.tender_key,
    tender_key: row.tender_key,
    kind: tender.kind,
    title: row.title,
    buyer: row.buyer ?? undefined,
    reference: row.reference ?? undefined,
    jurisdiction: tender.jurisdiction,
    tier: tender.tier,
    source: row.source,
    source_tag: row.source_tag,
    summary: row.summary ?? undefined,
    category: row.category ?? undefined,
    category_name: row.category_name ?? undefined,
    trade: (row.trade as TradeId | null) ?? undefined,
    notice_type: row.notice_type ?? undefined,
    published_date: row.published_date ?? undefined,
    closing_date: tender.closingDate ?? undefined,
    closing_at: row.closing_at ?? undefined,
    value_text: row.value_text ?? undefined,
    first_seen: row.first_seen,
    last_seen: row.last_seen,
    dates_changed_at: row.dates_changed_at ?? undefined,
    stale: row.stale,
    open,
    link,
    url: link,
    listing_url: links ? (row.listing_url ?? undefined) : undefined,
    source_url: links ? (row.source_homepage ?? undefined) : undefined,
  };
}
