import { z } from 'zod';
import { TRADES } from '../../lib/trades.ts';
import { Attribution, attributions, type Audience, type IntelContext } from './context.ts';
import { quartersFrom, referenceDay } from './calendar.ts';
import { querySignals, signalConditions, Signal, type SignalFilters, type SignalPage } from './signals.ts';

/** How many quarters the planned view spans: the current one and the next four (spec: "the current five"). */
export const PLANNED_QUARTERS = 5;

const TRADE_NAMES = new Map(TRADES.map((trade) => [trade.id, trade.name]));

export const PlannedIntelligence = z
  .object({
    total: z.number().int().meta({ description: 'Planned procurements matching the filters.' }),
    results: z.array(Signal),
    by_jurisdiction: z.array(z.object({ jurisdiction: z.string(), count: z.number().int() }))
      .meta({ description: 'Matching planned procurements per jurisdiction (respects the filters).' }),
    figures: z.object({
      total: z.number().int().meta({ description: 'Planned procurements still to come: window not ended, or no window.' }),
      with_window: z.number().int().meta({ description: 'Of those, how many have a window.' }),
      released: z.number().int().meta({ description: 'Of those, how many are marked released to market.' }),
      current_quarter: z.number().int().meta({ description: 'Of those, how many have a window starting this quarter.' }),
    }).meta({ description: 'Headline counts over every planned procurement to come; ignores the row filters.' }),
    by_quarter: z.array(z.object({ quarter: z.string(), count: z.number().int() }))
      .meta({ description: 'Planned procurements per quarter over the current five quarters; ignores the row filters.' }),
    top_buyers: z.array(z.object({ buyer: z.string(), buyer_key: z.string().optional(), jurisdiction: z.string(), count: z.number().int() }))
      .meta({ description: 'The ten buyers planning most; ignores the row filters.' }),
    top_categories: z.array(z.object({ trade: z.string(), name: z.string(), count: z.number().int() }))
      .meta({ description: 'The ten trades with most planned; ignores the row filters.' }),
    quarters: z.array(z.string()).meta({ description: 'The current five quarters, the ones `quarter` may name with results (besides `later` and `ended`).' }),
    computed_at: z.string(),
    sources: z.array(Attribution),
  })
  .meta({ id: 'PlannedIntelligence' });
export type PlannedIntelligence = z.infer<typeof PlannedIntelligence>;

export interface PlannedParams extends Omit<SignalFilters, 'kinds' | 'quarter' | 'quarter_after' | 'ended_before'>, SignalPage {
  /** A quarter id such as `2026Q4`, `later` (after the current five quarters) or `ended`. */
  quarter?: string;
}

/**
 * GET /v1/intelligence/planned: planned procurements (plans and forward notices, never withdrawn ones),
 * filtered and paged, plus facets over all of them. Without a window filter only plans still to come are
 * listed (window not ended, or none). `quarter` narrows them: a quarter id to the plans whose window starts
 * in it (one outside the current five gives an empty list), `later` to those starting after the current five,
 * and `ended` to the plans whose window has ended instead.
 */
export async function plannedIntelligence(ctx: IntelContext, params: PlannedParams, audience: Audience): Promise<PlannedIntelligence> {
  const today = referenceDay(ctx.now);
  const quarters = quartersFrom(today, PLANNED_QUARTERS);
  const { limit, offset, sort, quarter, ...rowFilters } = params;
  const toCome = { window_after: today, ...rowFilters };
  const byQuarter: Omit<SignalFilters, 'kinds'> =
    quarter === 'ended' ? { ...rowFilters, ended_before: today }
      : quarter === 'later' ? { ...toCome, quarter_after: quarters.at(-1)! }
        : quarter === undefined ? toCome : { ...toCome, quarter };
  const filters: SignalFilters = { ...byQuarter, kinds: ['planned_procurement'] };
  const outOfRange = filters.quarter !== undefined && !quarters.includes(filters.quarter);

  const page = outOfRange ? { total: 0, results: [] } : await querySignals(ctx, filters, { limit, offset, ...(sort ? { sort } : {}) }, audience);
  const byJurisdiction = outOfRange ? [] : await countBy(ctx, filters, audience, 'jurisdiction');

  // Facets: every planned procurement still to come, whatever the row filters say.
  const live = signalConditions({ kinds: ['planned_procurement'], window_after: today }, audience);
  const [figures] = await ctx.store.all<PlannedIntelligence['figures']>(
    `SELECT count(*)::INTEGER AS total, count(window_start)::INTEGER AS with_window, count(*) FILTER (WHERE released)::INTEGER AS released,
            count(*) FILTER (WHERE quarter = ?)::INTEGER AS current_quarter
     FROM signals ${live.where}`,
    [quarters[0]!, ...live.params],
  );
  const quarterCounts = await ctx.store.all<{ quarter: string; count: number }>(
    `SELECT quarter, count(*)::INTEGER AS count FROM signals ${live.where} AND quarter IN (${quarters.map(() => '?').join(', ')}) GROUP BY quarter`,
    [...live.params, ...quarters],
  );
  const topBuyers = await ctx.store.all<{ buyer: string; buyer_key: string | null; jurisdiction: string; count: number }>(
    `SELECT any_value(buyer) AS buyer, buyer_key, any_value(jurisdiction) AS jurisdiction, count(*)::INTEGER AS count
     FROM signals ${live.where} AND buyer IS NOT NULL GROUP BY buyer_key ORDER BY count DESC, buyer LIMIT 10`,
    live.params,
  );
  const topTrades = await ctx.store.all<{ trade: string; count: number }>(
    `SELECT trade, count(*)::INTEGER AS count FROM signals ${live.where} AND trade IS NOT NULL GROUP BY trade ORDER BY count DESC, trade LIMIT 10`,
    live.params,
  );
  const perQuarter = new Map(quarterCounts.map((row) => [row.quarter, row.count]));
  return {
    total: page.total,
    results: page.results,
    by_jurisdiction: byJurisdiction,
    figures: figures ?? { total: 0, with_window: 0, released: 0, current_quarter: 0 },
    by_quarter: quarters.map((quarter) => ({ quarter, count: perQuarter.get(quarter) ?? 0 })),
    top_buyers: topBuyers.map(({ buyer_key: key, ...row }) => ({ ...row, ...(key ? { buyer_key: key } : {}) })),
    top_categories: topTrades.map((row) => ({ trade: row.trade, name: TRADE_NAMES.get(row.trade) ?? row.trade, count: row.count })),
    quarters,
    computed_at: ctx.computedAt,
    sources: attributions(page.results.map((s) => s.source), ctx.registry),
  };
}

async function countBy(ctx: IntelContext, filters: SignalFilters, audience: Audience, column: 'jurisdiction'): Promise<{ jurisdiction: string; count: number }[]> {
  const { where, params } = signalConditions(filters, audience);
  return ctx.store.all<{ jurisdiction: string; count: number }>(
    `SELECT ${column} AS jurisdiction, count(*)::INTEGER AS count FROM signals ${where} GROUP BY ${column} ORDER BY count DESC, ${column}`,
    params,
  );
}
