import { TRADES } from '../../lib/trades.ts';
import { Attribution, attributions } from '../../data/intelligence/context.ts';
import { z } from '@hono/zod-openapi';
import { strictQuery, wholeNumber } from './common.ts';
import { JURISDICTIONS, TIERS } from '../../lib/jurisdictions.ts';
import { TENDER_KEY_PATTERN } from '../../lib/keys.ts';
import { TENDER_KINDS, TENDER_ORDERS } from '../../data/search/tender-index.ts';
import { TenderReadSchema, TenderSchema, tenderReply, type TenderAudience, type TenderReply } from '../../data/search/tender-reply.ts';

/**
 * Wire schemas of the tender routes. One rule for every reply: a value the release does not hold is
 * absent, never null. Links to other sites appear only when the caller's audience allows them
 * (spec, Authentication 7); `tenderReply` and `sourceReply` apply it.
 */

/** What the caller may be shown. */
export type Audience = TenderAudience;

// One tender's reply and one registry row's are built in data/ (the static site publishes them as its JSON twins).
export { TenderReadSchema, TenderSchema, tenderReply, type TenderReply };
export { SourceRegistryRowSchema, sourcesReply, TenderSourcesSchema } from '../../data/search/source-reply.ts';

export const ErrorSchema = z
  .object({ detail: z.string().openapi({ description: 'A sentence a person can act on.' }) })
  .openapi('Error');

const isoInstant = z.iso.datetime({ offset: true });
const TRADE_IDS = TRADES.map((trade) => trade.id) as [string, ...string[]];

const searchParameters = {
  q: z.string().trim().max(200, { error: 'must be at most 200 characters' }).optional()
    .openapi({ description: 'Free text over title, summary and buyer; results are ranked by relevance.' }),
  jurisdiction: z.enum(JURISDICTIONS, { error: `must be one of ${JURISDICTIONS.join(', ')}` }).optional()
    .openapi({ description: '`AU` matches every Australian state too; New Zealand rows appear only with `NZ`.' }),
  kind: z.enum(TENDER_KINDS, { error: 'must be tender or grant' }).optional().openapi({ description: 'Omit for both.' }),
  tier: z.enum(TIERS, { error: `must be one of ${TIERS.join(', ')}` }).optional(),
  source: z.string().regex(/^[a-z]+(_[a-z0-9]+)+$/, { error: 'must be a registry id such as au_nsw_buy_nsw (GET /v1/tenders/sources lists them)' }).optional()
    .openapi({ description: 'Registry id of one source.' }),
  category: z.string().regex(/^(\d\d){1,4}$/, { error: 'must be a UNSPSC code of 2, 4, 6 or 8 digits' }).optional()
    .openapi({ description: 'UNSPSC code; a parent (`8010` or `80100000`) matches every code beneath it.' }),
  trade: z.enum(TRADE_IDS, { error: `must be one of ${TRADE_IDS.join(', ')}` }).optional()
    .openapi({ description: 'A trade of the taxonomy (lib/trades.ts): from the UNSPSC code where published, else title and summary words.' }),
  buyer: z.string().trim().min(1, { error: 'must not be empty' }).max(300, { error: 'must be at most 300 characters' }).optional()
    .openapi({ description: 'Organisation name as published: exact, ignoring case and runs of spaces.' }),
  closing_before: z.iso.date({ error: 'must be an ISO date such as 2026-10-31' }).optional()
    .openapi({ description: 'Closing on or before this ISO date.' }),
  closing_within_days: wholeNumber("Closing from today to today plus N in the buyer's day; 0 is today. Tenders without a closing date never match.", 0, 366).optional(),
  changed_within_days: wholeNumber('Closing or published date changed in the last N days.', 1, 31).optional(),
  first_seen_after: z.iso.datetime({ offset: true, error: 'must be an ISO-8601 instant with Z or an offset, such as 2026-10-01T00:00:00Z' }).optional()
    .openapi({ description: 'First seen strictly after this instant.' }),
  include_closed: z.enum(['true', 'false'], { error: 'must be true or false' }).transform((value) => value === 'true').default(false)
    .openapi({ description: 'Include tenders whose closing date has passed.', default: 'false' }),
  sort: z.enum(TENDER_ORDERS, { error: `must be one of ${TENDER_ORDERS.join(', ')}` }).optional()
    .openapi({ description: 'With `q`: `relevance` (the default) or `closing` (soonest first). Without `q` results always come by closing date.' }),
  limit: wholeNumber('Page size.', 1, 100).default(20).openapi({ default: 20 }),
  offset: wholeNumber('Results to skip.', 0).default(0).openapi({ default: 0 }),
};

export const TenderSearchQuery = strictQuery(searchParameters);

export const TenderKeyParams = z.object({
  key: z.string().regex(TENDER_KEY_PATTERN, { error: 'must be a page_key: 32 lowercase hex characters, or f and 32 (the page_key of a search result)' }).openapi({
    param: { name: 'key', in: 'path' },
    description: 'The tender\'s `page_key`.',
    pattern: TENDER_KEY_PATTERN.source,
    example: '3f2a9c0d5e6b7a8190a1b2c3d4e5f607',
  }),
});

export const CoverageSchema = z
  .object({
    sources_total: z.number().int().openapi({ description: 'Sources publishing tenders or grants within the search scope.' }),
    sources_empty: z
      .array(
        z.object({
          source: z.string().openapi({ description: 'Registry id.' }),
          status: z.string().openapi({ description: 'Status on the last run, e.g. ok, empty, error, stale, login_walled, robots_refused.' }),
          why: z.string(),
        }),
      )
      .openapi({ description: 'Sources in scope that returned nothing on the last run, and why.' }),
    last_run: isoInstant.openapi({ description: 'When the release being searched was computed.' }),
  })
  .openapi('Coverage');

/** Shared with the intelligence replies, so every reply names its licences one way. */
export const AttributionSchema = Attribution;

export const TenderSearchSchema = z
  .object({
    total: z.number().int().openapi({ description: 'Matches in all, across every page.' }),
    results: z.array(TenderSchema),
    coverage: CoverageSchema,
    sources: z.array(AttributionSchema).openapi({ description: 'Licence and attribution of every source the results on this page come from.' }),
  })
  .openapi('TenderSearch');

/** The attribution each data licence requires, for the sources named (registry order, each once). */
export const attributionsOf = attributions;

export const TenderStripSchema = z
  .object({
    closing_48h: z.number().int().openapi({ description: 'Open tenders closing within the next 48 hours.' }),
    dates_changed_7d: z.number().int().openapi({ description: 'Open tenders whose closing or published date changed in the last 7 days.' }),
    new_7d: z.number().int().openapi({ description: 'Open tenders first seen in the last 7 days.' }),
  })
  .openapi('TenderStrip');

export const PortalSchema = z
  .object({
    url: z.url().openapi({ description: 'Where to read the tender on its original portal.' }),
    portal_name: z.string().openapi({ description: 'The name of the source the link belongs to.' }),
    link_is_listing: z.boolean().openapi({
      description: 'True when the link opens the list the tender appeared on (the portal gives it no page of its own), not the tender itself.',
    }),
  })
  .openapi('PortalLink');
