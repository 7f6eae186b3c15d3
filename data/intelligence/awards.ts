import { z } from 'zod';
import { JURISDICTIONS, type Jurisdiction } from '../../lib/jurisdictions.ts';
import { buyerKey } from '../../lib/keys.ts';
import { awardIndexOf, type AwardIndexQuery } from '../search/award-index.ts';
import { Attribution, attributions, type Audience, type IntelContext } from './context.ts';

const identifiedOnly = 'Only for a caller with an API key or a signed-in session.';

/** The fields an anonymous caller is not shown (spec, Contract award; Authentication 7). */
export const AWARD_IDENTIFIED_FIELDS = ['url', 'supplier', 'supplier_id', 'supplier_key'] as const;
const WITHHELD_REASON = 'Supplier names and identifiers and links to source notices need an API key or a signed-in session.';

/** One contract on the wire (spec, Contract award). A value the release does not hold is absent, never null. */
export const Award = z
  .object({
    contract_id: z.string().meta({ description: 'Contract notice id; an amendment chain is one contract, at its latest value.' }),
    buyer: z.string().meta({ description: 'Buying organisation as published.' }),
    buyer_key: z.string().optional().meta({ description: 'The buyer\'s key, e.g. `au-nsw-6ef7e680ac1d`.' }),
    jurisdiction: z.string(),
    title: z.string(),
    value_amount: z.number().optional().meta({ description: 'Value as published, never converted.' }),
    value_currency: z.string().optional().meta({ description: 'ISO 4217 currency as published.' }),
    awarded_date: z.iso.date().optional(),
    start_date: z.iso.date().optional(),
    end_date: z.iso.date().optional(),
    categories: z.array(z.string()).meta({ description: 'UNSPSC codes.' }),
    trade: z.string().optional().meta({ description: 'Trade id (lib/trades.ts).' }),
    source: z.string().meta({ description: 'Registry id of the source.' }),
    url: z.string().optional().meta({ description: `The source notice. ${identifiedOnly}` }),
    supplier: z.string().optional().meta({ description: `Supplier as published. ${identifiedOnly}` }),
    supplier_id: z.string().optional().meta({ description: `The source's id for the supplier. ${identifiedOnly}` }),
    supplier_key: z.string().optional().meta({ description: `\`AU-ABN:<abn>\`, or \`<scheme>:<id>\`. ${identifiedOnly}` }),
  })
  .meta({ id: 'Award' });
export type Award = z.infer<typeof Award>;

export const AwardList = z
  .object({
    total: z.number().int(),
    results: z.array(Award),
    computed_at: z.string().meta({ description: 'The night the figures are true for.' }),
    sources: z.array(Attribution),
    withheld: z.array(z.enum(AWARD_IDENTIFIED_FIELDS)).meta({ description: 'Fields left out of every result for this caller; empty for a key or session.' }),
    withheld_reason: z.string().nullable().meta({ description: 'Why they were left out; null when nothing was.' }),
  })
  .meta({ id: 'AwardList' });
export type AwardList = z.infer<typeof AwardList>;

/** Filters of GET /v1/awards, already validated. */
export interface AwardFilters {
  /** Buyer name as published: exact, ignoring case and runs of spaces. */
  buyer?: string;
  buyer_key?: string;
  /** Supplier name as published: exact, ignoring case and runs of spaces. */
  supplier?: string;
  /** `AU-ABN:<abn>` or `<scheme>:<id>`, normalised (see parseSupplierKey). */
  supplier_key?: string;
  q?: string;
  jurisdiction?: Jurisdiction;
  /** ISO date: awards dated on or after it. */
  since?: string;
}

export interface AwardPage {
  limit: number;
  offset: number;
}

export const AWARD_SELECT = `contract_id, buyer, buyer_key, jurisdiction, title, value_amount::DOUBLE AS value_amount, value_currency,
  strftime(awarded_date, '%Y-%m-%d') AS awarded_date, strftime(start_date, '%Y-%m-%d') AS start_date, strftime(end_date, '%Y-%m-%d') AS end_date,
  categories, trade, source, url, supplier, supplier_id, supplier_key`;

export type AwardRow = { [K in keyof Award]-?: Award[K] | null };

/** A stored award as the caller may see it: identified-only fields and empty values left out. */
export function awardReply(row: AwardRow, audience: Audience): Award {
  const reply: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    if (value === null) continue;
    if (!audience.identified && (AWARD_IDENTIFIED_FIELDS as readonly string[]).includes(name)) continue;
    reply[name] = value;
  }
  return reply as Award;
}

/** What an award list tells this caller it left out. */
export function withheldFor(audience: Audience): Pick<AwardList, 'withheld' | 'withheld_reason'> {
  return audience.identified ? { withheld: [], withheld_reason: null } : { withheld: [...AWARD_IDENTIFIED_FIELDS], withheld_reason: WITHHELD_REASON };
}

/**
 * A supplier identifier as given (`53004085616`, `53 004 085 616`, `AU-ABN:53004085616`, `AU-ACN:004085616`,
 * `NZ-NZBN:9429…`) as a supplier key, or null when it is none of those.
 */
export function parseSupplierKey(identifier: string): string | null {
  const compact = identifier.trim();
  const digits = compact.replace(/[\s]/g, '');
  if (/^\d{11}$/.test(digits)) return `AU-ABN:${digits}`;
  const scheme = /^([A-Za-z]{2}-[A-Za-z]{2,8})[:-](.+)$/.exec(compact);
  if (!scheme) return null;
  const code = scheme[1]!.toUpperCase();
  const id = scheme[2]!.replace(/\s/g, '');
  if (code === 'AU-ABN') return /^\d{11}$/.test(id) ? `AU-ABN:${id}` : null;
  if (code === 'AU-ACN') return /^\d{9}$/.test(id) ? `AU-ACN:${id}` : null;
  return /^[A-Za-z0-9]{1,40}$/.test(id) ? `${code}:${id}` : null;
}

/** The index's reading of a filter set. A buyer name becomes the keys it could have, one per jurisdiction. */
function indexQuery(filters: AwardFilters, audience: Audience): AwardIndexQuery {
  const { buyer, buyer_key: buyerKeyWanted, supplier, supplier_key: supplierKey, jurisdiction, since, q } = filters;
  return {
    ...(buyer === undefined ? {} : { buyerKeys: JURISDICTIONS.map((j) => buyerKey(j, buyer)).filter((key): key is string => key !== null) }),
    ...(buyerKeyWanted === undefined ? {} : { buyerKey: buyerKeyWanted }),
    ...(supplier === undefined ? {} : { supplier }),
    ...(supplierKey === undefined ? {} : { supplierKey }),
    ...(jurisdiction === undefined ? {} : { jurisdiction }),
    ...(since === undefined ? {} : { since }),
    // an anonymous caller's words never search the supplier, whose name it may not see
    ...(q === undefined ? {} : { q, supplierWords: audience.identified }),
  };
}

/**
 * GET /v1/awards: contracts matching the filters, most recent first, one page, with the total. The release's
 * award index filters, counts, orders and renders the page, with no query.
 */
export async function listAwards(ctx: IntelContext, filters: AwardFilters, page: AwardPage, audience: Audience): Promise<AwardList> {
  const { total, rows } = (await awardIndexOf(ctx.store)).find(indexQuery(filters, audience), page);
  const results = rows.map((row) => awardReply(row, audience));
  return {
    total,
    results,
    computed_at: ctx.computedAt,
    sources: attributions(results.map((award) => award.source), ctx.registry),
    ...withheldFor(audience),
  };
}
