import { z } from 'zod';
import { JURISDICTIONS } from '../../lib/jurisdictions.ts';
import { addDays, buyerTodaySql, quarterOf, referenceDay } from './calendar.ts';
import { ANONYMOUS, type IntelContext } from './context.ts';
import { JURISDICTION_NAMES } from './places.ts';
import { SIGNAL_SELECT, Signal, signalReply, type SignalRow } from './signals.ts';

const PREVIEW_ROWS = 5;

export const IntelligenceSummary = z
  .object({
    open_now: z.number().int().meta({ description: 'Open tenders (not grants), judged in each buyer\'s day.' }),
    new_this_week: z.number().int().meta({ description: 'Tenders first seen in the last 7 days.' }),
    expiring_12m: z.number().int().meta({ description: 'Contracts ending within 365 days.' }),
    planned_quarter: z.number().int().meta({ description: 'Planned procurements whose window starts this quarter.' }),
    buyers_month: z.number().int().meta({ description: 'Buyers that published a tender or signed a contract in the last 30 days.' }),
    grants_open: z.number().int().meta({ description: 'Open grant rounds.' }),
    sources_total: z.number().int().meta({ description: 'Sources in the registry.' }),
    countries: z.array(z.object({ country: z.enum(['AU', 'NZ']), open_now: z.number().int(), grants_open: z.number().int() })),
    by_jurisdiction: z.array(z.object({
      jurisdiction: z.string(), name: z.string(), open_now: z.number().int(), expiring_12m: z.number().int(), planned_quarter: z.number().int(),
    })),
    previews: z.object({
      expiring: z.array(Signal).meta({ description: 'The five soonest-ending contracts.' }),
      planned: z.array(Signal).meta({ description: 'Five planned procurements starting soonest (from today).' }),
      recurring: z.array(Signal).meta({ description: 'Five predicted re-tenders, soonest first.' }),
    }).meta({ description: 'A few rows of each kind, without identified-only fields.' }),
    quarter: z.string().meta({ description: 'The current calendar quarter.' }),
    computed_at: z.string(),
  })
  .meta({ id: 'IntelligenceSummary' });
export type IntelligenceSummary = z.infer<typeof IntelligenceSummary>;

/** GET /v1/intelligence/summary: headline counts and short previews; the same for every caller. */
export async function intelligenceSummary(ctx: IntelContext): Promise<IntelligenceSummary> {
  const { store } = ctx;
  const today = referenceDay(ctx.now);
  const in365 = addDays(today, 365);
  const quarter = quarterOf(today);
  const weekAgo = new Date(ctx.now.getTime() - 7 * 86_400_000).toISOString();
  const monthAgo = addDays(today, -30);

  const perJurisdiction = await store.all<{ jurisdiction: string; open_now: number; grants_open: number; expiring_12m: number; planned_quarter: number }>(
    `WITH open AS (
       SELECT t.jurisdiction, count(*) FILTER (WHERE t.kind = 'tender') AS open_now, count(*) FILTER (WHERE t.kind = 'grant') AS grants_open
       FROM tenders t JOIN ${buyerTodaySql(ctx.now)} USING (jurisdiction)
       WHERE t.closing_date IS NULL OR t.closing_date >= buyer_today.today GROUP BY 1),
     ahead AS (
       SELECT jurisdiction,
              count(*) FILTER (WHERE kind = 'contract_expiry' AND window_start BETWEEN ?::DATE AND ?::DATE) AS expiring_12m,
              count(*) FILTER (WHERE kind = 'planned_procurement' AND quarter = ?) AS planned_quarter
       FROM signals GROUP BY 1)
     SELECT j.jurisdiction, coalesce(o.open_now, 0)::INTEGER AS open_now, coalesce(o.grants_open, 0)::INTEGER AS grants_open,
            coalesce(a.expiring_12m, 0)::INTEGER AS expiring_12m, coalesce(a.planned_quarter, 0)::INTEGER AS planned_quarter
     FROM (VALUES ${JURISDICTIONS.map((j) => `('${j}')`).join(', ')}) AS j(jurisdiction) LEFT JOIN open o USING (jurisdiction) LEFT JOIN ahead a USING (jurisdiction)`,
    [today, in365, quarter],
  );
  const [recent] = await store.all<{ new_this_week: number; buyers_month: number }>(
    `SELECT (SELECT count(*) FROM tenders WHERE kind = 'tender' AND first_seen > ?::TIMESTAMPTZ)::INTEGER AS new_this_week,
            (SELECT count(DISTINCT buyer_key) FROM (
               SELECT buyer_key FROM tenders WHERE first_seen::DATE >= ?::DATE
               UNION ALL SELECT buyer_key FROM awards WHERE award_day >= ?::DATE) WHERE buyer_key IS NOT NULL)::INTEGER AS buyers_month`,
    [weekAgo, monthAgo, monthAgo],
  );
  const preview = async (kind: string) =>
    (await store.all<SignalRow>(
      `SELECT ${SIGNAL_SELECT} FROM signals WHERE kind = ? AND window_start >= ?::DATE ORDER BY window_start, subject, signal_id LIMIT ${PREVIEW_ROWS}`,
      [kind, today],
    )).map((row) => signalReply(row, ANONYMOUS));

  const sum = (pick: (row: (typeof perJurisdiction)[number]) => number, rows = perJurisdiction) => rows.reduce((total, row) => total + pick(row), 0);
  const byCode = new Map(perJurisdiction.map((row) => [row.jurisdiction, row]));
  return {
    open_now: sum((row) => row.open_now),
    new_this_week: recent?.new_this_week ?? 0,
    expiring_12m: sum((row) => row.expiring_12m),
    planned_quarter: sum((row) => row.planned_quarter),
    buyers_month: recent?.buyers_month ?? 0,
    grants_open: sum((row) => row.grants_open),
    sources_total: ctx.registry.length,
    countries: (['AU', 'NZ'] as const).map((country) => {
      const within = perJurisdiction.filter((row) => row.jurisdiction === country || row.jurisdiction.startsWith(`${country}-`));
      return { country, open_now: sum((row) => row.open_now, within), grants_open: sum((row) => row.grants_open, within) };
    }),
    by_jurisdiction: JURISDICTIONS.map((jurisdiction) => {
      const row = byCode.get(jurisdiction);
      return { jurisdiction, name: JURISDICTION_NAMES[jurisdiction], open_now: row?.open_now ?? 0, expiring_12m: row?.expiring_12m ?? 0, planned_quarter: row?.planned_quarter ?? 0 };
    }),
    previews: {
      expiring: await preview('contract_expiry'),
      planned: await preview('planned_procurement'),
      recurring: await preview('recurring_tender'),
    },
    quarter,
    computed_at: ctx.computedAt,
  };
}
