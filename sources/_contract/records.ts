import { z } from 'zod';
import { JURISDICTIONS, TIERS } from '../../lib/jurisdictions.ts';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'an ISO date (YYYY-MM-DD)');
const isoInstant = z.iso.datetime({ offset: true });
const nonEmpty = z.string().trim().min(1);

/** A tender or grant round as a source publishes it. The pipeline adds key, source and first/last seen. */
export const TenderRecord = z.object({
  record_type: z.literal('tender'),
  kind: z.enum(['tender', 'grant']),
  title: nonEmpty,
  buyer: nonEmpty.nullable(),
  reference: nonEmpty.nullable(),
  jurisdiction: z.enum(JURISDICTIONS),
  tier: z.enum(TIERS),
  summary: z.string().nullable(),
  category: z.string().regex(/^\d{8}$/, 'an 8-digit UNSPSC code').nullable(),
  category_name: z.string().nullable(),
  notice_type: z.string().nullable(),
  published_date: isoDate.nullable(),
  closing_date: isoDate.nullable(),
  closing_at: isoInstant.nullable(),
  value_text: z.string().nullable(),
  url: z.url(),
  listing_url: z.url().nullable(),
});
export type TenderRecord = z.infer<typeof TenderRecord>;

/**
 * One OCDS-style contract release (original or amendment). `contract_id` is the base contract id (a trailing
 * `-A<n>` is tolerated); `amendment_id` names the amendment a release carries and `amends_release_id` the
 * release it amends. The award model keeps one row per chain, at the latest value.
 *
 * Award registers that are not OCDS (HTML, CSV, Socrata) publish one current state per contract. They map
 * it as: `ocid` = `<source id>:<contract id>`; `release_id` = `<ocid>:<16 hex of SHA-256 over the published
 * fields>` (so a changed value or end date becomes a new release of the same chain); `release_date` = the
 * notice's published or awarded instant, or the run clock when the register gives none; `release_tag` =
 * `contract`; `amendment_id` and `amends_release_id` null; `value_amount` the published amount as a plain
 * decimal ("$176,385.00 (Estimate)" → "176385.00"); `url` the contract's own page.
 */
export const AwardRecord = z.object({
  record_type: z.literal('award'),
  ocid: nonEmpty,
  release_id: nonEmpty,
  release_date: isoInstant,
  release_tag: nonEmpty,
  contract_id: nonEmpty,
  amendment_id: nonEmpty.nullable(),
  amends_release_id: nonEmpty.nullable(),
  jurisdiction: z.enum(JURISDICTIONS),
  buyer: nonEmpty,
  buyer_id: z.string().nullable(),
  supplier: z.string().nullable(),
  supplier_abn: z.string().regex(/^\d{11}$/, '11 digits').nullable(),
  supplier_id: z.string().nullable(),
  title: nonEmpty,
  description: z.string().nullable(),
  value_amount: z.string().regex(/^-?\d+(\.\d+)?$/, 'a decimal amount as published').nullable(),
  value_currency: z.string().regex(/^[A-Z]{3}$/).nullable(),
  awarded_date: isoDate.nullable(),
  start_date: isoDate.nullable(),
  end_date: isoDate.nullable(),
  categories: z.array(z.string().regex(/^\d{8}$/)),
  procurement_method: z.string().nullable(),
  url: z.url(),
});
export type AwardRecord = z.infer<typeof AwardRecord>;

/**
 * A planned procurement: an annual procurement plan entry or a forward procurement notice. The window is
 * taken only from a period the source states in a form that can be read (a quarter, a month, a financial
 * year); otherwise both ends are null and `expected_period_text` keeps what was published. Never invented.
 */
export const PlanRecord = z.object({
  record_type: z.literal('plan'),
  plan_id: nonEmpty,
  title: nonEmpty,
  buyer: nonEmpty,
  jurisdiction: z.enum(JURISDICTIONS),
  tier: z.enum(TIERS),
  description: z.string().nullable(),
  category: z.string().regex(/^\d{8}$/, 'an 8-digit UNSPSC code').nullable(),
  category_name: z.string().nullable(),
  expected_period_text: z.string().nullable(),
  window_start: isoDate.nullable(),
  window_end: isoDate.nullable(),
  value_text: z.string().nullable(),
  /** The source's own word for the plan's state, e.g. "Current", "Released"; null when it prints none. */
  status: z.string().nullable(),
  /** True when the source marks the plan as released to market. */
  released: z.boolean(),
  /** True when the agency withdrew it: kept in the store, never returned as a signal. */
  withdrawn: z.boolean(),
  published_date: isoDate.nullable(),
  url: z.url(),
});
export type PlanRecord = z.infer<typeof PlanRecord>;

export const SourceRecord = z.discriminatedUnion('record_type', [TenderRecord, AwardRecord, PlanRecord]);
export type SourceRecord = z.infer<typeof SourceRecord>;
