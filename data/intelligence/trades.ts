import { z } from 'zod';
import measuredTrades from '../../measured/trades.json' with { type: 'json' };
import type { Jurisdiction } from '../../lib/jurisdictions.ts';
import { TRADES, type Trade } from '../../lib/trades.ts';
import { addDays, referenceDay } from './calendar.ts';
import { Attribution, attributions, type Audience, type IntelContext } from './context.ts';
import { Covers, covers, type CoveredTable } from './covers.ts';
import { JURISDICTION_NAMES, currencyOf } from './places.ts';
import { EndingMonth } from './series.ts';
import { Signal, signalReply, type SignalRow } from './signals.ts';
import { CALENDAR_PER_MONTH, PAGE_ROWS, pairKey, retenderCalendars, tradeIndex, type Row } from './trade-index.ts';

/** A trade × jurisdiction pair is eligible for a page when its volume reaches this: four things to show (open, ending, planned or signed in the year) make a page worth reading. */
export const PAIR_MINIMUM = 4;

/** How trades are assigned (lib/trades.ts), with the figures lib/trades-corpus.test.ts measured (measured/trades.json). */
export const TRADE_MATCH = {
  method: 'statistical',
  rule: 'naive_bayes_over_words_unspsc_and_keywords',
  measured: { titles: measuredTrades.figures.titles, precision: measuredTrades.figures.precision, recall: measuredTrades.figures.recall },
} as const;

const TradeMatch = z.object({
  method: z.literal('statistical'),
  rule: z.literal('naive_bayes_over_words_unspsc_and_keywords').meta({ description: 'A model fitted on hand-labelled real titles weighs the title and summary words, the UNSPSC code and the trade keywords; a tender it cannot place confidently has no trade.' }),
  measured: z.object({ titles: z.number().int(), precision: z.number(), recall: z.number() }).meta({ description: 'Cross-validated on real notice titles (Australian, New Zealand, UK and Irish) the model was not fitted on.' }),
});

export const TradePair = z.object({
  trade: z.string(),
  jurisdiction: z.string(),
  open_now: z.number().int().meta({ description: 'Open tenders of the trade, judged in the buyer\'s day.' }),
  ending_12m: z.number().int().meta({ description: 'Contracts of the trade ending within 365 days.' }),
  planned_quarter: z.number().int().meta({ description: 'Planned procurements whose window starts this quarter.' }),
  year_awards: z.number().int().meta({ description: 'Contracts dated in the year (see `year`): awarded, else started, else first collected in it.' }),
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
  const index = await tradeIndex(ctx);
  const pairs = [...index.pairs].map(([key, figures]) => {
    const [trade, jurisdiction] = key.split('|') as [string, string];
    const counts = { open_now: figures.open.count, ending_12m: figures.days365, planned_quarter: figures.planned.thisQuarter, year_awards: figures.year?.awards ?? 0 };
    const volume = counts.open_now + counts.ending_12m + counts.planned_quarter + counts.year_awards;
    return { trade, jurisdiction, ...counts, volume, eligible: volume >= PAIR_MINIMUM };
  });
  // Pairs holding only recurring signals or buyers without counts have nothing to rank.
  const shown = pairs.filter((pair) => pair.volume > 0);
  shown.sort((a, b) => b.volume - a.volume || a.trade.localeCompare(b.trade) || a.jurisdiction.localeCompare(b.jurisdiction));
  return {
    pairs: shown,
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
    open: Counted(OpenTender).meta({ description: `Open tenders of the trade (soonest closing first, at most ${PAGE_ROWS} rows).` }),
    ending: z.object({
      days_90: z.number().int().meta({ description: 'Contracts ending within 90 days.' }),
      covers_90: Covers,
      days_365: z.number().int().meta({ description: 'Contracts ending within 365 days.' }),
      covers: Covers,
      by_month: z.array(EndingMonth).meta({ description: 'Contracts ending per month, this month and the next eleven, with their value in `value_currency`.' }),
      value_currency: z.enum(['AUD', 'NZD']),
      covers_by_month: Covers,
      chart: z.object({
        type: z.literal('bar'),
        title: z.string(),
        x: z.array(z.string()).meta({ description: 'Months (YYYY-MM).' }),
        series: z.array(z.object({ name: z.string(), values: z.array(z.number().int()) })),
        y_label: z.string(),
      }).meta({ description: 'Chart-ready data for the by-month counts (data, not markup).' }),
      rows: z.array(Signal).meta({ description: `The soonest-ending contracts (at most ${PAGE_ROWS}).` }),
      calendar: z.array(z.object({ month: z.string(), count: z.number().int(), contracts: z.array(CalendarContract) })).optional()
        .meta({ description: `The re-tender calendar: per month, the contracts ending and their holders (at most ${CALENDAR_PER_MONTH} a month). Only for a caller with an API key or a signed-in session.` }),
    }),
    planned: Counted(Signal).meta({ description: 'Planned procurements still to come (window not ended, or none).' }),
    recurring: Counted(Signal).meta({ description: 'Recurring tenders predicted (confidence derived).' }),
    buyers: z.object({
      rows: z.array(BuyerFigure).meta({ description: `The buyers with most contracts in the year (at most ${PAGE_ROWS}).` }),
      by_value: z.array(BuyerFigure).meta({ description: `The buyers by summed value in the year (at most ${PAGE_ROWS}; each in its own currency).` }),
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

const present = <T>(row: Row) => Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null)) as T;

/**
 * GET /v1/intelligence/trades/{trade}/{state}: one trade in one jurisdiction, assembled from the trade index
 * (data/intelligence/trade-index.ts), which reads every pair's figures once per store and day.
 */
export async function tradeStateIntelligence(ctx: IntelContext, trade: Trade, jurisdiction: Jurisdiction, audience: Audience): Promise<TradeStateIntelligence> {
  const index = await tradeIndex(ctx);
  const { today, months, lastMonthEnd } = index;
  const figures = index.pairs.get(pairKey(trade.id, jurisdiction));
  const pair = figures ?? { open: { count: 0, rows: [] }, days90: 0, days365: 0, endingByMonth: new Map<string, { count: number; value: number }>(), endingRows: [],
    planned: { count: 0, thisQuarter: 0, rows: [] }, recurring: { count: 0, rows: [] }, buyersByCount: [], buyersByValue: [], year: null, holders: [] };
  const in90 = addDays(today, 90);
  const in365 = addDays(today, 365);
  const year = yearOf(ctx);
  const tradeName = trade.name.toLowerCase();
  const place = JURISDICTION_NAMES[jurisdiction];
  const byMonth = months.map((month) => ({ month, count: pair.endingByMonth.get(month)?.count ?? 0, value: pair.endingByMonth.get(month)?.value ?? 0 }));
  const volume = pair.open.count + pair.days365 + pair.planned.thisQuarter + (pair.year?.awards ?? 0);

  const scope = [jurisdiction];
  const sourceIds = new Set<string>();
  const coverOf = async (table: CoveredTable, counts: string, days: { from?: string; to?: string }) => {
    const made = await covers(ctx, table, scope, counts, days);
    made.sources.forEach((id) => sourceIds.add(id));
    return made;
  };
  const signals = (rows: SignalRow[]) => rows.map((row) => signalReply(row, audience));
  const calendar = audience.identified ? (await retenderCalendars(ctx)).get(pairKey(trade.id, jurisdiction)) ?? new Map<string, Row[]>() : null;

  return {
    trade: { id: trade.id, name: trade.name },
    jurisdiction,
    name: place,
    open: {
      count: pair.open.count,
      covers: await coverOf('tenders', `open ${tradeName} tenders of ${place} buyers, closing today or later in the buyer's day or with no closing date`, { from: today }),
      rows: pair.open.rows.map((row) => present<z.infer<typeof OpenTender>>(row)),
    },
    ending: {
      days_90: pair.days90,
      covers_90: await coverOf('awards', `${tradeName} contracts of ${place} buyers ending within 90 days`, { from: today, to: in90 }),
      days_365: pair.days365,
      covers: await coverOf('awards', `${tradeName} contracts of ${place} buyers ending within 365 days`, { from: today, to: in365 }),
      by_month: byMonth,
      value_currency: currencyOf(jurisdiction),
      covers_by_month: await coverOf('awards', `${tradeName} contracts of ${place} buyers ending per month`, { from: today, to: lastMonthEnd }),
      chart: { type: 'bar', title: `${trade.name} contracts ending per month, ${place}`, x: months, series: [{ name: 'contracts_ending', values: byMonth.map((m) => m.count) }], y_label: 'contracts' },
      rows: signals(pair.endingRows),
      ...(calendar
        ? { calendar: byMonth.map(({ month, count }) => ({ month, count, contracts: (calendar.get(month) ?? []).map((row) => present<z.infer<typeof CalendarContract>>(row)) })) }
        : {}),
    },
    planned: {
      count: pair.planned.count,
      covers: await coverOf('plans', `${tradeName} planned procurements of ${place} buyers still to come, with or without a window`, { from: today }),
      rows: signals(pair.planned.rows),
    },
    recurring: {
      count: pair.recurring.count,
      covers: await coverOf('awards', `${tradeName} re-tenders predicted from ${place} buyers' contract history (derived)`, { from: today }),
      rows: signals(pair.recurring.rows),
    },
    buyers: {
      rows: pair.buyersByCount.map((row) => present<z.infer<typeof BuyerFigure>>(row)),
      by_value: pair.buyersByValue.map((row) => present<z.infer<typeof BuyerFigure>>(row)),
      covers: await coverOf('awards', `${tradeName} contracts of ${place} buyers dated in the year`, year),
    },
    concentration: {
      suppliers: pair.year?.suppliers ?? 0,
      ...(pair.year?.top_supplier_share != null ? { top_supplier_share: pair.year.top_supplier_share } : {}),
      ...(pair.year?.top_five_share != null ? { top_five_share: pair.year.top_five_share } : {}),
      covers: await coverOf('awards', `holders of ${tradeName} contracts of ${place} buyers dated in the year, by number of contracts`, year),
      ...(audience.identified ? { holders: pair.holders.map((row) => present<{ supplier: string; supplier_key?: string; awards: number; share: number }>(row)) } : {}),
    },
    eligible: volume >= PAIR_MINIMUM,
    computed_at: ctx.computedAt,
    sources: attributions(sourceIds, ctx.registry),
  };
}
