import { BuyerCohortRow } from './buyers.ts';
import { z } from 'zod';
import { addDays, referenceDay } from './calendar.ts';
import { Attribution, attributions, type Audience, type IntelContext } from './context.ts';
import { SIGNAL_SELECT, Signal, signalReply, type SignalRow } from './signals.ts';

export const PlanBuyer = z
  .object({
    ...BuyerCohortRow.shape,
    window_from: z.iso.date().optional().meta({ description: 'First day of the window the buyer\'s figures count over.' }),
  })
  .meta({ id: 'PlanBuyer', description: 'The buyer\'s nightly summary (the buyers table).' });

export const PlanContext = z
  .object({
    plan: Signal,
    buyer: PlanBuyer.nullable().meta({ description: 'Null when the release holds no summary for the plan\'s buyer.' }),
    similar: z
      .object({
        count: z.number().int().meta({ description: 'The buyer\'s contracts for similar work signed inside the summary window.' }),
        ending_12m: z.number().int().meta({ description: 'Of those, how many end within 12 months.' }),
        from: z.iso.date(),
        to: z.iso.date(),
        match: z.object({ method: z.literal('heuristic'), rule: z.literal('same_buyer_same_trade') })
          .meta({ description: 'Similar work is a heuristic: contracts of the same buyer key classified in the plan\'s trade.' }),
      })
      .nullable()
      .meta({ description: 'Counts only. Null when the plan has no trade or the buyer has no summary.' }),
    computed_at: z.string(),
    sources: z.array(Attribution),
  })
  .meta({ id: 'PlanContext' });
export type PlanContext = z.infer<typeof PlanContext>;

type BuyerRow = Record<string, string | number | null>;

/**
 * GET /v1/intelligence/planned/{plan_id}/context: the plan, its buyer's nightly summary, and how many of
 * that buyer's contracts for similar work fall inside the summary window (and how many end within 12
 * months). Null when no plan (withdrawn ones included) has the id.
 */
export async function planContext(ctx: IntelContext, planId: string, audience: Audience): Promise<PlanContext | null> {
  const [plan] = await ctx.store.all<SignalRow>(
    `SELECT ${SIGNAL_SELECT} FROM signals WHERE kind = 'planned_procurement' AND evidence_ref = ? ORDER BY source, signal_id LIMIT 1`,
    [planId],
  );
  if (!plan) return null;
  const today = referenceDay(ctx.now);
  const [buyerRow] = plan.buyer_key === null ? [] : await ctx.store.all<BuyerRow>(
    `SELECT buyer_key, name, slug, jurisdiction, award_count::INTEGER AS award_count, strftime(window_from, '%Y-%m-%d') AS window_from,
            open_tenders::INTEGER AS open_tenders, expiring_12m::INTEGER AS expiring_12m, planned_12m::INTEGER AS planned_12m,
            median_value::DOUBLE AS median_value, value_total::DOUBLE AS value_total, value_currency
     FROM buyers WHERE buyer_key = ?`,
    [String(plan.buyer_key)],
  );
  const buyer = buyerRow ? (Object.fromEntries(Object.entries(buyerRow).filter(([, v]) => v !== null)) as z.infer<typeof PlanBuyer>) : null;

  let similar: PlanContext['similar'] = null;
  const awardSources: string[] = [];
  if (buyer && plan.trade !== null) {
    const from = buyer.window_from ?? addDays(today, -365 * 5);
    const [counts] = await ctx.store.all<{ count: number; ending_12m: number; sources: string[] }>(
      `SELECT count(*)::INTEGER AS count, count(*) FILTER (WHERE end_date BETWEEN ?::DATE AND ?::DATE)::INTEGER AS ending_12m,
              list(DISTINCT source) AS sources
       FROM awards WHERE buyer_key = ? AND trade = ? AND award_day BETWEEN ?::DATE AND ?::DATE`,
      [today, addDays(today, 365), buyer.buyer_key, String(plan.trade), from, today],
    );
    similar = { count: counts?.count ?? 0, ending_12m: counts?.ending_12m ?? 0, from, to: today, match: { method: 'heuristic', rule: 'same_buyer_same_trade' } };
    awardSources.push(...(counts?.sources ?? []));
  }
  return {
    plan: signalReply(plan, audience),
    buyer,
    similar,
    computed_at: ctx.computedAt,
    sources: attributions([String(plan.source), ...awardSources], ctx.registry),
  };
}
