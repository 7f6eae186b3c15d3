import { z } from 'zod';
import { JURISDICTIONS, type Jurisdiction } from '../../lib/jurisdictions.ts';
import { buyerKey } from '../../lib/keys.ts';
import { awardIndexOf, type AwardIndexQuery } from '../search/award-index.ts';
import { Award, AWARD_IDENTIFIED_FIELDS, type AwardRow } from './award.ts';
import { Attribution, attributions, type Audience, type IntelContext } from './context.ts';

const WITHHELD_REASON = 'Supplier names and identifiers and links to source notices need an API key or a signed-in session.';

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
