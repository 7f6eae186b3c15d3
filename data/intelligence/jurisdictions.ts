import { BuyerCohortRow } from './buyers.ts';
import { z } from 'zod';
import type { Jurisdiction } from '../../lib/jurisdictions.ts';
import { addDays, buyerTodaySql, monthEnd, monthsFrom, quarterOf, referenceDay } from './calendar.ts';
import { Attribution, attributions, type Audience, type IntelContext } from './context.ts';
import { JURISDICTION_NAMES, currencyOf } from './places.ts';
import { EndingMonth } from './series.ts';
import { SIGNAL_SELECT, Signal, signalReply, type SignalRow } from './signals.ts';

/** Contracts ending within this many days count as expiring on a jurisdiction page. */
export const EXPIRY_HORIZON_DAYS = 365;
const ROWS = 20;

export const REGION_BASIS =
  'Counts use the buyer\'s jurisdiction as published. No source publishes where a federal contract is delivered, so ' +
  '`federal_by_region` places a federal contract in the state of its supplier\'s business address on the ABN register ' +
  '(contracts whose supplier has no ABN on the register are not placed).';

const RegionCount = z.object({ jurisdiction: z.string(), count: z.number().int() });

/** A cohort row of the buyers table, without the jurisdiction the page is already about. */
export const JurisdictionBuyer = BuyerCohortRow.omit({ jurisdiction: true });

export const JurisdictionIntelligence = z
  .object({
    jurisdiction: z.string(),
    name: z.string(),
    expiring: z.object({
      total: z.number().int().meta({ description: 'Contracts of this jurisdiction\'s buyers ending within the horizon.' }),
      federal_by_region: z.array(RegionCount).meta({
        description: 'Federal contracts ending within the horizon, per state of the supplier\'s business address (see region_basis): every state on the AU page, this state on a state page, none for NZ.',
      }),
      horizon_days: z.number().int(),
      rows: z.array(Signal).meta({ description: 'The soonest-ending contracts (at most 20).' }),
      by_month: z.array(EndingMonth).meta({ description: 'Contracts ending per month, this month and the next eleven.' }),
      value_currency: z.enum(['AUD', 'NZD']),
    }),
    planned: z.object({
      total: z.number().int().meta({ description: 'Planned procurements still to come (window not ended, or none).' }),
      quarter: z.string().meta({ description: 'The current calendar quarter.' }),
      rows: z.array(Signal).meta({ description: 'The soonest (at most 20; undated last).' }),
    }),
    buyers: z.array(JurisdictionBuyer).meta({ description: 'Listed buyers of this jurisdiction with the most contracts (at most 20).' }),
    open_tenders: z.number().int().meta({ description: 'Open tenders (not grants) of this jurisdiction\'s buyers, judged in the buyer\'s day.' }),
    region_basis: z.string(),
    computed_at: z.string(),
    sources: z.array(Attribution),
  })
  .meta({ id: 'JurisdictionIntelligence' });
export type JurisdictionIntelligence = z.infer<typeof JurisdictionIntelligence>;

type Row = Record<string, string | number | boolean | null>;
const present = <T>(row: Row) => Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null)) as T;

/** GET /v1/intelligence/{jurisdiction}: one jurisdiction's expiring contracts, planned procurements, buyers and open tenders. */
export async function jurisdictionIntelligence(ctx: IntelContext, jurisdiction: Jurisdiction, audience: Audience): Promise<JurisdictionIntelligence> {
  const today = referenceDay(ctx.now);
  const horizonEnd = addDays(today, EXPIRY_HORIZON_DAYS);
  const { store } = ctx;

  const expiringWhere = `kind = 'contract_expiry' AND jurisdiction = ? AND window_start BETWEEN ?::DATE AND ?::DATE`;
  const [expiring] = await store.all<{ total: number }>(`SELECT count(*)::INTEGER AS total FROM signals WHERE ${expiringWhere}`, [jurisdiction, today, horizonEnd]);
  const expiringRows = await store.all<Row>(
    `SELECT ${SIGNAL_SELECT} FROM signals WHERE ${expiringWhere} ORDER BY window_start, subject, signal_id LIMIT ${ROWS}`,
    [jurisdiction, today, horizonEnd],
  );
  const months = monthsFrom(today, 12);
  const currency = currencyOf(jurisdiction);
  const endingMonths = await store.all<EndingMonth>(
    `SELECT strftime(window_start, '%Y-%m') AS month, count(*)::INTEGER AS count,
       coalesce(sum(value_amount) FILTER (WHERE value_currency = ?), 0)::DOUBLE AS value
     FROM signals WHERE kind = 'contract_expiry' AND jurisdiction = ? AND window_start BETWEEN ?::DATE AND ?::DATE GROUP BY 1`,
    [currency, jurisdiction, today, monthEnd(`${months.at(-1)}-01`)],
  );
  const endingIn = new Map(endingMonths.map((row) => [row.month, row]));
  const federalByRegion = jurisdiction === 'NZ' ? [] : await store.all<{ jurisdiction: string; count: number }>(
    `SELECT 'AU-' || e.state AS jurisdiction, count(*)::INTEGER AS count
     FROM signals s
     JOIN awards a ON a.source = s.source AND a.contract_id = s.evidence_ref
     JOIN abn_entities e ON e.abn = a.supplier_abn
     WHERE s.kind = 'contract_expiry' AND s.jurisdiction = 'AU' AND s.window_start BETWEEN ?::DATE AND ?::DATE AND e.state IS NOT NULL
       ${jurisdiction === 'AU' ? '' : `AND 'AU-' || e.state = ?`}
     GROUP BY 1 ORDER BY count DESC, 1`,
    jurisdiction === 'AU' ? [today, horizonEnd] : [today, horizonEnd, jurisdiction],
  );

  const plannedWhere = `kind = 'planned_procurement' AND jurisdiction = ? AND (window_end IS NULL OR window_end >= ?::DATE)`;
  const [planned] = await store.all<{ total: number }>(`SELECT count(*)::INTEGER AS total FROM signals WHERE ${plannedWhere}`, [jurisdiction, today]);
  const plannedRows = await store.all<Row>(
    `SELECT ${SIGNAL_SELECT} FROM signals WHERE ${plannedWhere} ORDER BY window_start NULLS LAST, subject, signal_id LIMIT ${ROWS}`,
    [jurisdiction, today],
  );

  const buyers = await store.all<Row>(
    `SELECT buyer_key, name, slug, award_count::INTEGER AS award_count, open_tenders::INTEGER AS open_tenders, expiring_12m::INTEGER AS expiring_12m,
            planned_12m::INTEGER AS planned_12m, median_value::DOUBLE AS median_value, value_total::DOUBLE AS value_total, value_currency
     FROM buyers WHERE jurisdiction = ? AND listed ORDER BY award_count DESC, name LIMIT ${ROWS}`,
    [jurisdiction],
  );
  const [open] = await store.all<{ count: number }>(
    `SELECT count(*)::INTEGER AS count FROM tenders t JOIN ${buyerTodaySql(ctx.now)} USING (jurisdiction)
     WHERE t.kind = 'tender' AND t.jurisdiction = ? AND (t.closing_date IS NULL OR t.closing_date >= buyer_today.today)`,
    [jurisdiction],
  );
  const [publishing] = await store.all<{ sources: string[] }>(
    `SELECT list(DISTINCT source) AS sources FROM (
       SELECT source FROM tenders WHERE jurisdiction = ? UNION SELECT source FROM signals WHERE jurisdiction = ?)`,
    [jurisdiction, jurisdiction],
  );

  return {
    jurisdiction,
    name: JURISDICTION_NAMES[jurisdiction],
    expiring: {
      total: expiring?.total ?? 0,
      federal_by_region: federalByRegion,
      horizon_days: EXPIRY_HORIZON_DAYS,
      rows: expiringRows.map((row) => signalReply(row as SignalRow, audience)),
      by_month: months.map((month) => endingIn.get(month) ?? { month, count: 0, value: 0 }),
      value_currency: currency,
    },
    planned: {
      total: planned?.total ?? 0,
      quarter: quarterOf(today),
      rows: plannedRows.map((row) => signalReply(row as SignalRow, audience)),
    },
    buyers: buyers.map((row) => present<z.infer<typeof JurisdictionBuyer>>(row)),
    open_tenders: open?.count ?? 0,
    region_basis: REGION_BASIS,
    computed_at: ctx.computedAt,
    sources: attributions(publishing?.sources ?? [], ctx.registry),
  };
}
