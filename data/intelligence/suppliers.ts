import { z } from 'zod';
import { AWARD_SELECT, Award, type AwardRow } from './award.ts';
import { awardReply } from './awards.ts';
import { Attribution, attributions, type Audience, type IntelContext } from './context.ts';

const identifiedOnly = 'Only for a caller with an API key or a signed-in session.';
const WITHHELD_REASON = 'A supplier\'s names, identifiers, contracts and buyers need an API key or a signed-in session; anonymous callers get the counts.';
const LIST_LENGTH = 50;

/**
 * What an anonymous caller is not shown of a supplier (spec, Supplier entity: counts, with names and identifiers
 * withheld): its names and identifiers, and the contracts and buyers lists, which would tie it to its awards.
 */
export const SUPPLIER_IDENTIFIED_FIELDS = ['supplier_key', 'identifier', 'name', 'names', 'acn', 'abn_name', 'company_name', 'contracts', 'buyers'] as const;

const ValueTotal = z.object({
  currency: z.string(),
  amount: z.number().meta({ description: 'Summed as published, never converted.' }),
  contracts: z.number().int().meta({ description: 'Contracts stating a value in this currency.' }),
});

export const SupplierEntity = z
  .object({
    entity: z.object({
      supplier_key: z.string().optional().meta({ description: `\`AU-ABN:<abn>\` or \`<scheme>:<id>\`. ${identifiedOnly}` }),
      scheme: z.string().meta({ description: 'The identifier\'s scheme, e.g. `AU-ABN`.' }),
      identifier: z.string().optional().meta({ description: identifiedOnly }),
      name: z.string().optional().meta({ description: `Name published most often. ${identifiedOnly}` }),
      names: z.array(z.string()).optional().meta({ description: `Every name published with the identifier. ${identifiedOnly}` }),
      contract_count: z.number().int(),
      buyer_count: z.number().int(),
      value_totals: z.array(ValueTotal),
      first_awarded: z.iso.date().optional(),
      last_awarded: z.iso.date().optional(),
      jurisdictions: z.array(z.string()),
    }),
    contracts: z.array(Award).meta({ description: `Its contracts, most recent first (at most ${LIST_LENGTH}). Empty for an anonymous caller: \`entity.contract_count\` counts them.` }),
    buyers: z.array(z.object({ buyer_key: z.string(), buyer: z.string(), jurisdiction: z.string(), contracts: z.number().int() }))
      .meta({ description: `Its buyers, most contracts first (at most ${LIST_LENGTH}). Empty for an anonymous caller: \`entity.buyer_count\` counts them.` }),
    categories: z.array(z.object({ code: z.string(), contracts: z.number().int() })).meta({ description: 'UNSPSC codes of its contracts, most used first.' }),
    standing: z.object({
      abn: z.object({
        status: z.string().meta({ description: '`ACT` active or `CAN` cancelled.' }),
        status_from: z.iso.date().optional(),
        entity_type: z.string().optional(),
        gst_status: z.string().optional().meta({ description: '`ACT` registered, `CAN` cancelled, `NON` never registered.' }),
        gst_status_from: z.iso.date().optional(),
        abn_name: z.string().optional().meta({ description: identifiedOnly }),
        as_of: z.iso.date(),
      }).optional().meta({ description: 'The ABN register\'s entry; absent when the register held here does not list it.' }),
      asic: z.object({
        acn: z.string().optional().meta({ description: identifiedOnly }),
        company_name: z.string().optional().meta({ description: identifiedOnly }),
        status: z.string().meta({ description: 'ASIC status code (REGD, DRGD, EXAD, SOFF, NOAC).' }),
        status_meaning: z.string().optional(),
        registered_date: z.iso.date().optional(),
        deregistered_date: z.iso.date().optional(),
        as_of: z.iso.date(),
      }).optional().meta({ description: 'The ASIC company register\'s entry for the company behind it, when one is found.' }),
      caveat: z.string(),
    }),
    computed_at: z.string(),
    sources: z.array(Attribution),
    withheld: z.array(z.enum(SUPPLIER_IDENTIFIED_FIELDS)).meta({ description: 'Fields left out for this caller; empty for a key or session.' }),
    withheld_reason: z.string().nullable(),
  })
  .meta({ id: 'SupplierEntity' });
export type SupplierEntity = z.infer<typeof SupplierEntity>;

const CAVEAT =
  'Standing is the ABN and ASIC registers as held in this release (republished weekly), so it may lag the live registers by up to a week. ' +
  'Contracts are grouped by the identifier published with them; contracts naming the supplier without it are not counted.';

type StoredSupplier = Record<string, unknown> & { sources: string[]; value_totals: { currency: string; amount: string; contracts: number }[] };

function present(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== null && value !== undefined));
}

/**
 * The key of the supplier an identifier names: the identifier itself when a supplier is keyed by it, else the
 * key of the supplier whose contracts publish it as their `supplier_id` (an ACN published beside the ABN the
 * supplier is keyed by), the one with most such contracts should sources disagree; null when none does.
 */
async function supplierKeyOf(ctx: IntelContext, key: string): Promise<string | null> {
  const [own] = await ctx.store.all<{ supplier_key: string }>('SELECT supplier_key FROM suppliers WHERE supplier_key = ?', [key]);
  if (own) return own.supplier_key;
  // Sources write an org-id either way: `AU-ACN-607067925` or `AU-ACN:607067925` (data/models/awards.sql).
  const colon = key.indexOf(':');
  const [published] = await ctx.store.all<{ supplier_key: string }>(
    `SELECT supplier_key FROM awards WHERE supplier_id IN (?, ?) AND supplier_key IS NOT NULL
     GROUP BY supplier_key ORDER BY count(*) DESC, supplier_key LIMIT 1`,
    [key, `${key.slice(0, colon)}-${key.slice(colon + 1)}`],
  );
  return published?.supplier_key ?? null;
}

/**
 * GET /v1/awards/suppliers/{identifier}: a supplier by its key or by any `<scheme>:<id>` its contracts carry,
 * or null when no contract carries it. An anonymous caller gets the counts, with names, identifiers and the
 * contracts and buyers lists withheld.
 */
export async function supplierEntity(ctx: IntelContext, identifier: string, audience: Audience): Promise<SupplierEntity | null> {
  const key = await supplierKeyOf(ctx, identifier);
  if (key === null) return null;
  const shown = audience.identified;
  const [row] = await ctx.store.all<StoredSupplier>(
    `SELECT *, strftime(first_awarded, '%Y-%m-%d') AS first_awarded, strftime(last_awarded, '%Y-%m-%d') AS last_awarded,
       strftime(abn_status_from, '%Y-%m-%d') AS abn_status_from, strftime(gst_status_from, '%Y-%m-%d') AS gst_status_from,
       strftime(abn_as_of, '%Y-%m-%d') AS abn_as_of, strftime(company_registered_date, '%Y-%m-%d') AS company_registered_date,
       strftime(company_deregistered_date, '%Y-%m-%d') AS company_deregistered_date, strftime(company_as_of, '%Y-%m-%d') AS company_as_of
     FROM suppliers WHERE supplier_key = ?`,
    [key],
  );
  if (!row) return null;
  const [contracts, buyers, categories] = await Promise.all([
    shown ? ctx.store.all<AwardRow>(`SELECT ${AWARD_SELECT} FROM awards WHERE supplier_key = ? ORDER BY award_day DESC, contract_id LIMIT ${LIST_LENGTH}`, [key]) : [],
    shown
      ? ctx.store.all<{ buyer_key: string; buyer: string; jurisdiction: string; contracts: number }>(
        `SELECT buyer_key, mode(buyer) AS buyer, any_value(jurisdiction) AS jurisdiction, count(*)::INTEGER AS contracts
         FROM awards WHERE supplier_key = ? AND buyer_key IS NOT NULL GROUP BY buyer_key ORDER BY contracts DESC, buyer LIMIT ${LIST_LENGTH}`,
        [key],
      )
      : [],
    ctx.store.all<{ code: string; contracts: number }>(
      `SELECT code, count(*)::INTEGER AS contracts FROM (SELECT unnest(categories) AS code FROM awards WHERE supplier_key = ?)
       GROUP BY code ORDER BY contracts DESC, code`,
      [key],
    ),
  ]);
  const entity = present({
    supplier_key: shown ? row.supplier_key : null,
    scheme: row.scheme,
    identifier: shown ? row.identifier : null,
    name: shown ? row.name : null,
    names: shown ? row.names : null,
    contract_count: row.contract_count,
    buyer_count: row.buyer_count,
    value_totals: row.value_totals.map((total) => ({ currency: total.currency, amount: Number(total.amount), contracts: total.contracts })),
    first_awarded: row.first_awarded,
    last_awarded: row.last_awarded,
    jurisdictions: row.jurisdictions,
  });
  const abn = row.abn_status === null ? undefined : present({
    status: row.abn_status, status_from: row.abn_status_from, entity_type: row.entity_type, gst_status: row.gst_status,
    gst_status_from: row.gst_status_from, abn_name: shown ? row.abn_name : null, as_of: row.abn_as_of,
  });
  const asic = row.company_status === null ? undefined : present({
    acn: shown ? row.acn : null, company_name: shown ? row.company_name : null, status: row.company_status, status_meaning: row.company_status_meaning,
    registered_date: row.company_registered_date, deregistered_date: row.company_deregistered_date, as_of: row.company_as_of,
  });
  return {
    entity: entity as SupplierEntity['entity'],
    contracts: contracts.map((award) => awardReply(award, audience)),
    buyers,
    categories,
    standing: { ...(abn ? { abn: abn as NonNullable<SupplierEntity['standing']['abn']> } : {}), ...(asic ? { asic: asic as NonNullable<SupplierEntity['standing']['asic']> } : {}), caveat: CAVEAT },
    computed_at: ctx.computedAt,
    sources: attributions(row.sources, ctx.registry),
    ...(shown ? { withheld: [], withheld_reason: null } : { withheld: [...SUPPLIER_IDENTIFIED_FIELDS], withheld_reason: WITHHELD_REASON }),
  };
}
