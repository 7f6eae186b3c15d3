import { z } from 'zod';
import type { Jurisdiction } from '../../lib/jurisdictions.ts';
import { TRADES, type Trade } from '../../lib/trades.ts';
import { addDays, buyerTodaySql, monthEnd, monthsFrom, quarterOf, referenceDay } from './calendar.ts';
import { Attribution, attributions, type Audience, type IntelContext } from './context.ts';
import { Covers, covers } from './covers.ts';
import { JURISDICTION_NAMES } from './places.ts';
import { SIGNAL_SELECT, Signal, signalReply, type SignalRow } from './signals.ts';

/** A trade × jurisdiction pair is eligible for a page when its volume reaches this. */
export const PAIR_MINIMUM = 5;
const ROWS = 10;
const CALENDAR_PER_MONTH = 20;

/** How trades are assigned (lib/trades.ts), measured on fixtures/trades/labelled-titles.json. */
export const TRADE_MATCH = {
  method: 'heuristic',
  rule: 'unspsc_then_title_keyword',
  measured: { titles: 221, precision: 0.93, recall: 0.93 },
} as const;

const TradeMatch = z.object({
  method: z.literal('heuristic'),
  rule: z.literal('unspsc_then_title_keyword').meta({ description: 'The UNSPSC code decides when published, else words of the title (and weakly the summary).' }),
  measured: z.object({ titles: z.number().int(), precision: z.number(), recall: z.number() }),
});

export const TradePair = z.object({
  trade: z.string(),
  jurisdiction: z.string(),
  open_now: z.number().int().meta({ description: 'Open tenders of the trade, judged in the buyer\'s day.' }),
  ending_12m: z.number().int().meta({ description: 'Contracts of the trade ending within 365 days.' }),
  planned_quarter: z.number().int().meta({ description: 'Planned procurements whose window starts this quarter.' }),
  year_awards: z.number().int().meta({ description: 'Contracts signed in the year (see `year`).' }),
  volume: z.number().int().meta({ description: 'The sum of the four counts; pairs are ordered by it.' }),
  eligible: z.boolean().meta({ description: 'True when `volume` reaches `minimum`: the pair has a page.' }),
});

export const TradePairs = z
  .object({
    pairs: z.array(TradePair),
    minimum: z.number().int(),
    year: z.object({ from: z.iso.date(), to: z.iso.date() }).meta({ description: 'The days `year_awards` counts over: the 365 days to the run.' }),
    match: TradeMatch,
    computed_at: z.string(),
  })
  .meta({ id: 'TradePairs' });
export type TradePairs = z.infer<typeof TradePairs>;

function yearOf(ctx: IntelContext): { from: string; to: string } {
  const runDay = referenceDay(new Date(ctx.computedAt));
  return { from: addDays(runDay, -364), to: runDay };
}

/** GET /v1/intelligence/trades: every trade × jurisdiction pair with anything to show, largest first. */
export async function tradePairs(ctx: IntelContext): Promise<TradePairs> {
  const today = referenceDay(ctx.now);
  const rows = await ctx.store.all<z.infer<typeof TradePair>>(
    `WITH open AS (
       SELECT t.trade, t.jurisdiction, count(*) AS n FROM tenders t JOIN ${buyerTodaySql(ctx.now)} USING (jurisdiction)
       WHERE t.kind = 'tender' AND t.trade IS NOT NULL AND (t.closing_date IS NULL OR t.closing_date >= buyer_today.today) GROUP BY ALL),
     ending AS (
       SELECT trade, jurisdiction, count(*) AS n FROM signals
       WHERE kind = 'contract_expiry' AND trade IS NOT NULL AND window_start BETWEEN ?::DATE AND ?::DATE GROUP BY ALL),
     planned AS (
       SELECT trade, jurisdiction, count(*) AS n FROM signals WHERE kind = 'planned_procurement' AND trade IS NOT NULL AND quarter = ? GROUP BY ALL),
     pairs AS (SELECT trade, jurisdiction FROM open UNION SELECT trade, jurisdiction FROM ending
               UNION SELECT trade, jurisdiction FROM planned UNION SELECT trade, jurisdiction FROM trade_pairs)
     SELECT p.trade, p.jurisdiction, coalesce(o.n, 0)::INTEGER AS open_now, coalesce(e.n, 0)::INTEGER AS ending_12m,
            coalesce(pl.n, 0)::INTEGER AS planned_quarter, coalesce(y.year_awards, 0)::INTEGER AS year_awards,
            (coalesce(o.n, 0) + coalesce(e.n, 0) + coalesce(pl.n, 0) + coalesce(y.year_awards, 0))::INTEGER AS volume
     FROM pairs p
     LEFT JOIN open o USING (trade, jurisdiction) LEFT JOIN ending e USING (trade, jurisdiction)
     LEFT JOIN planned pl USING (trade, jurisdiction) LEFT JOIN trade_pairs y USING (trade, jurisdiction)
     ORDER BY volume DESC, p.trade, p.jurisdiction`,
    [today, addDays(today, 365), quarterOf(today)],
  );
  return {
    pairs: rows.map((row) => ({ ...row, eligible: row.volume >= PAIR_MINIMUM })),
    minimum: PAIR_MINIMUM,
    year: yearOf(ctx),
    match: { ...TRADE_MATCH, measured: { ...TRADE_MATCH.measured } },
    computed_at: ctx.computedAt,
  };
}

const OpenTender = z.object({ page_key: z.string(), title: z.string(), buyer: z.string().optional(), closing_date: z.iso.date().optional() });
const Counted = <T extends z.ZodType>(rows: T) => z.object({ count: z.number().int(), covers: Covers, rows: z.array(rows) });
const BuyerFigure = z.object({ buyer: z.string(), buyer_key: z.string().optional(), awards: z.number().int(), value_total: z.number().optional(), value_currency: z.string().optional() });
const CalendarContract = z.object({
  evidence_ref: z.string(), subject: z.string(), buyer: z.string().optional(), buyer_key: z.string().optional(),
  end_date: z.iso.date(), holder: z.string().optional(), value_text: z.string().optional(),
});

export const TradeStateIntelligence = z
  .object({
    trade: z.object({ id: z.string(), name: z.string() }),
    jurisdiction: z.string(),
    name: z.string().meta({ description: 'The jurisdiction\'s name.' }),
    open: Counted(OpenTender).meta({ description: 'Open tenders of the trade (soonest closing first, at most 10 rows).' }),
    ending: z.object({
      days_90: z.number().int().meta({ description: 'Contracts ending within 90 days.' }),
      covers_90: Covers,
      days_365: z.number().int().meta({ description: 'Contracts ending within 365 days.' }),
      covers: Covers,
      by_month: z.array(z.object({ month: z.string(), count: z.number().int() })).meta({ description: 'Contracts ending per month, this month and the next eleven.' }),
      covers_by_month: Covers,
      chart: z.object({
        type: z.literal('bar'),
        title: z.string(),
        x: z.array(z.string()).meta({ description: 'Months (YYYY-MM).' }),
        series: z.array(z.object({ name: z.string(), values: z.array(z.number().int()) })),
        y_label: z.string(),
      }).meta({ description: 'Chart-ready data for the by-month counts (data, not markup).' }),
      rows: z.array(Signal).meta({ description: 'The soonest-ending contracts (at most 10).' }),
      calendar: z.array(z.object({ month: z.string(), count: z.number().int(), contracts: z.array(CalendarContract) })).optional()
        .meta({ description: 'The re-tender calendar: per month, the contracts ending and their holders (at most 20 a month). Only for a caller with an API key or a signed-in session.' }),
    }),
    planned: Counted(Signal).meta({ description: 'Planned procurements still to come (window not ended, or none).' }),
    recurring: Counted(Signal).meta({ description: 'Recurring tenders predicted (confidence derived).' }),
    buyers: z.object({
      rows: z.array(BuyerFigure).meta({ description: 'The buyers with most contracts in the year (at most 10).' }),
      by_value: z.array(BuyerFigure).meta({ description: 'The buyers by summed value in the year (at most 10; each in its own currency).' }),
      covers: Covers,
    }),
    concentration: z.object({
      suppliers: z.number().int().meta({ description: 'Distinct holders of the year\'s contracts.' }),
      top_supplier_share: z.number().optional().meta({ description: 'The biggest holder\'s share of the contracts naming a supplier (0–1).' }),
      top_five_share: z.number().optional().meta({ description: 'The five biggest holders\' share (0–1).' }),
      covers: Covers,
      holders: z.array(z.object({ supplier: z.string(), supplier_key: z.string().optional(), awards: z.number().int(), share: z.number() })).optional()
        .meta({ description: 'The ten biggest holders. Only for a caller with an API key or a signed-in session.' }),
    }),
    eligible: z.boolean().meta({ description: 'True when the pair\'s volume reaches the minimum of GET /v1/intelligence/trades.' }),
    computed_at: z.string(),
    sources: z.array(Attribution),
  })
  .meta({ id: 'TradeStateIntelligence' });
export type TradeStateIntelligence = z.infer<typeof TradeStateIntelligence>;

export function tradeById(id: string): Trade | null {
  return TRADES.find((trade) => trade.id === id) ?? null;
}

type Row = Record<string, string | number | boolean | null>;
const present = <T>(row: Row) => Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null)) as T;

/**
 * GET /v1/intelligence/trades/{trade}/{state}: one trade in one jurisdiction. Reads the signals table (sorted
 * by kind, trade, jurisdiction, window) and the year rollups, so a reply reads few rows at any scale.
 */
export async function tradeStateIntelligence(ctx: IntelContext, trade: Trade, jurisdiction: Jurisdiction, audience: Audience): Promise<TradeStateIntelligence> {
  const { store } = ctx;
  const today = referenceDay(ctx.now);
  const in90 = addDays(today, 90);
  const in365 = addDays(today, 365);
  const months = monthsFrom(today, 12);
  const lastMonthEnd = monthEnd(`${months[11]}-01`);
  const year = yearOf(ctx);
  const pair = [trade.id, jurisdiction];
  const tradeName = trade.name.toLowerCase();
  const place = JURISDICTION_NAMES[jurisdiction];

  const [openCount] = await store.all<{ count: number }>(
    `SELECT count(*)::INTEGER AS count FROM tenders t JOIN ${buyerTodaySql(ctx.now)} USING (jurisdiction)
     WHERE t.kind = 'tender' AND t.trade = ? AND t.jurisdiction = ? AND (t.closing_date IS NULL OR t.closing_date >= buyer_today.today)`,
    pair,
  );
  const openRows = await store.all<Row>(
    `SELECT t.tender_key AS page_key, t.title, t.buyer, strftime(t.closing_date, '%Y-%m-%d') AS closing_date
     FROM tenders t JOIN ${buyerTodaySql(ctx.now)} USING (jurisdiction)
     WHERE t.kind = 'tender' AND t.trade = ? AND t.jurisdiction = ? AND (t.closing_date IS NULL OR t.closing_date >= buyer_today.today)
     ORDER BY t.closing_date NULLS LAST, t.title, t.tender_key LIMIT ${ROWS}`,
    pair,
  );

  const expiry = `kind = 'contract_expiry' AND trade = ? AND jurisdiction = ?`;
  const [ending] = await store.all<{ days_90: number; days_365: number }>(
    `SELECT count(*) FILTER (WHERE window_start <= ?::DATE)::INTEGER AS days_90, count(*)::INTEGER AS days_365
     FROM signals WHERE ${expiry} AND window_start BETWEEN ?::DATE AND ?::DATE`,
    [in90, ...pair, today, in365],
  );
  const monthCounts = await store.all<{ month: string; count: number }>(
    `SELECT strftime(window_start, '%Y-%m') AS month, count(*)::INTEGER AS count
     FROM signals WHERE ${expiry} AND window_start BETWEEN ?::DATE AND ?::DATE GROUP BY 1`,
    [...pair, today, lastMonthEnd],
  );
  const perMonth = new Map(monthCounts.map((row) => [row.month, row.count]));
  const byMonth = months.map((month) => ({ month, count: perMonth.get(month) ?? 0 }));
  const endingRows = await store.all<SignalRow>(
    `SELECT ${SIGNAL_SELECT} FROM signals WHERE ${expiry} AND window_start >= ?::DATE ORDER BY window_start, subject, signal_id LIMIT ${ROWS}`,
    [...pair, today],
  );

  const live = `trade = ? AND jurisdiction = ? AND (window_end IS NULL OR window_end >= ?::DATE)`;
  const signalsOf = async (kind: string) => {
    const [counted] = await store.all<{ count: number }>(`SELECT count(*)::INTEGER AS count FROM signals WHERE kind = ? AND ${live}`, [kind, ...pair, today]);
    const rows = await store.all<SignalRow>(
      `SELECT ${SIGNAL_SELECT} FROM signals WHERE kind = ? AND ${live} ORDER BY window_start NULLS LAST, subject, signal_id LIMIT ${ROWS}`,
      [kind, ...pair, today],
    );
    return { count: counted?.count ?? 0, rows: rows.map((row) => signalReply(row, audience)) };
  };
  const planned = await signalsOf('planned_procurement');
  const recurring = await signalsOf('recurring_tender');

  const buyerSelect = `SELECT buyer, buyer_key, awards, value_total::DOUBLE AS value_total, value_currency FROM trade_buyers WHERE trade = ? AND jurisdiction = ?`;
  const buyersByCount = await store.all<Row>(`${buyerSelect} ORDER BY awards DESC, buyer LIMIT ${ROWS}`, pair);
  const buyersByValue = await store.all<Row>(`${buyerSelect} AND value_total IS NOT NULL ORDER BY value_total DESC, buyer LIMIT ${ROWS}`, pair);
  const [pairRow] = await store.all<{ suppliers: number; top_supplier_share: number | null; top_five_share: number | null; year_awards: number }>(
    'SELECT suppliers, top_supplier_share, top_five_share, year_awards FROM trade_pairs WHERE trade = ? AND jurisdiction = ?',
    pair,
  );

  const identified = audience.identified;
  const calendar = identified ? await retenderCalendar(ctx, trade.id, jurisdiction, today, lastMonthEnd, byMonth) : undefined;
  const holders = identified
    ? (await store.all<Row>('SELECT supplier, supplier_key, awards, share FROM trade_suppliers WHERE trade = ? AND jurisdiction = ? ORDER BY rank', pair))
      .map((row) => present<{ supplier: string; supplier_key?: string; awards: number; share: number }>(row))
    : undefined;

  const scope = [jurisdiction];
  const volume = (openCount?.count ?? 0) + (ending?.days_365 ?? 0) + (pairRow?.year_awards ?? 0) +
    (await store.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM signals WHERE kind = 'planned_procurement' AND trade = ? AND jurisdiction = ? AND quarter = ?`, [...pair, quarterOf(today)]))[0]!.n;
  const sourceIds = new Set<string>();
  const coverOf = async (...args: Parameters<typeof covers>) => {
    const made = await covers(...args);
    made.sources.forEach((id) => sourceIds.add(id));
    return made;
  };

  return {
    trade: { id: trade.id, name: trade.name },
    jurisdiction,
    name: place,
    open: {
      count: openCount?.count ?? 0,
      covers: await coverOf(ctx, 'tenders', scope, `open ${tradeName} tenders of ${place} buyers, closing today or later in the buyer's day or with no closing date`, { from: today }),
      rows: openRows.map((row) => present<z.infer<typeof OpenTender>>(row)),
    },
    ending: {
      days_90: ending?.days_90 ?? 0,
      covers_90: await coverOf(ctx, 'awards', scope, `${tradeName} contracts of ${place} buyers ending within 90 days`, { from: today, to: in90 }),
      days_365: ending?.days_365 ?? 0,
      covers: await coverOf(ctx, 'awards', scope, `${tradeName} contracts of ${place} buyers ending within 365 days`, { from: today, to: in365 }),
      by_month: byMonth,
      covers_by_month: await coverOf(ctx, 'awards', scope, `${tradeName} contracts of ${place} buyers ending per month`, { from: today, to: lastMonthEnd }),
      chart: { type: 'bar', title: `${trade.name} contracts ending per month, ${place}`, x: months, series: [{ name: 'contracts_ending', values: byMonth.map((m) => m.count) }], y_label: 'contracts' },
      rows: endingRows.map((row) => signalReply(row, audience)),
      ...(calendar ? { calendar } : {}),
    },
    planned: { ...planned, covers: await coverOf(ctx, 'plans', scope, `${tradeName} planned procurements of ${place} buyers still to come, with or without a window`, { from: today }) },
    recurring: { ...recurring, covers: await coverOf(ctx, 'awards', scope, `${tradeName} re-tenders predicted from ${place} buyers' contract history (derived)`, { from: today }) },
    buyers: {
      rows: buyersByCount.map((row) => present<z.infer<typeof BuyerFigure>>(row)),
      by_value: buyersByValue.map((row) => present<z.infer<typeof BuyerFigure>>(row)),
      covers: await coverOf(ctx, 'awards', scope, `${tradeName} contracts signed by ${place} buyers in the year`, year),
    },
    concentration: {
      suppliers: pairRow?.suppliers ?? 0,
      ...(pairRow?.top_supplier_share != null ? { top_supplier_share: pairRow.top_supplier_share } : {}),
      ...(pairRow?.top_five_share != null ? { top_five_share: pairRow.top_five_share } : {}),
      covers: await coverOf(ctx, 'awards', scope, `holders of ${tradeName} contracts signed by ${place} buyers in the year, by number of contracts`, year),
      ...(holders ? { holders } : {}),
    },
    eligible: volume >= PAIR_MINIMUM,
    computed_at: ctx.computedAt,
    sources: attributions(sourceIds, ctx.registry),
  };
}

/** Per month, the contracts ending and who holds them: when each will be re-tendered. */
async function retenderCalendar(
  ctx: IntelContext, trade: string, jurisdiction: string, today: string, lastDay: string, byMonth: { month: string; count: number }[],
): Promise<NonNullable<TradeStateIntelligence['ending']['calendar']>> {
  const rows = await ctx.store.all<Row>(
    `SELECT strftime(window_start, '%Y-%m') AS month, evidence_ref, subject, buyer, buyer_key, strftime(window_start, '%Y-%m-%d') AS end_date,
            incumbent AS holder, value_text
     FROM signals WHERE kind = 'contract_expiry' AND trade = ? AND jurisdiction = ? AND window_start BETWEEN ?::DATE AND ?::DATE
     QUALIFY row_number() OVER (PARTITION BY month ORDER BY window_start, evidence_ref) <= ${CALENDAR_PER_MONTH}
     ORDER BY window_start, evidence_ref`,
    [trade, jurisdiction, today, lastDay],
  );
  return byMonth.map(({ month, count }) => ({
    month,
    count,
    contracts: rows.filter((row) => row.month === month).map(({ month: _month, ...row }) => present<z.infer<typeof CalendarContract>>(row)),
  }));
}
