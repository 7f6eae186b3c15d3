import type { Store } from '../store.ts';
import { addDays, buyerTodaySql, monthEnd, monthsFrom, quarterOf, referenceDay } from './calendar.ts';
import type { IntelContext } from './context.ts';
import { SIGNAL_SELECT, type SignalRow } from './signals.ts';

/** Rows of each list a trade page shows. */
export const PAGE_ROWS = 10;
/** Contracts listed per month of the re-tender calendar. */
export const CALENDAR_PER_MONTH = 10;

export type Row = Record<string, string | number | boolean | null>;

/** Everything the trade/state reply shows for one trade × jurisdiction pair, on one day. */
export interface PairFigures {
  open: { count: number; rows: Row[] };
  days90: number;
  days365: number;
  /** Contracts ending per month (`YYYY-MM`), this month and the next eleven. */
  endingByMonth: Map<string, { count: number; value: number }>;
  endingRows: SignalRow[];
  planned: { count: number; thisQuarter: number; rows: SignalRow[] };
  recurring: { count: number; rows: SignalRow[] };
  buyersByCount: Row[];
  buyersByValue: Row[];
  year: { awards: number; suppliers: number; top_supplier_share: number | null; top_five_share: number | null } | null;
  holders: Row[];
}

/** The figures of every pair, read in a few set-based queries, and the days they were judged on. */
export interface TradeIndex {
  today: string;
  months: string[];
  lastMonthEnd: string;
  pairs: Map<string, PairFigures>;
}

export const pairKey = (trade: string, jurisdiction: string) => `${trade}|${jurisdiction}`;

const emptyPair = (): PairFigures => ({
  open: { count: 0, rows: [] }, days90: 0, days365: 0, endingByMonth: new Map(), endingRows: [],
  planned: { count: 0, thisQuarter: 0, rows: [] }, recurring: { count: 0, rows: [] }, buyersByCount: [], buyersByValue: [], year: null, holders: [],
});

// One index per store and day (every buyer's own day: "open" moves with each zone's midnight). A trade page
// then costs no query at all, whichever of the few hundred pairs is asked for, at any number of contracts.
const indexes = new WeakMap<Store, { day: string; index: Promise<TradeIndex> }>();

/** The trade × jurisdiction figures of the context's store on the context's day, built once and shared. */
export function tradeIndex(ctx: IntelContext): Promise<TradeIndex> {
  const day = buyerTodaySql(ctx.now);
  const held = indexes.get(ctx.store);
  if (held && held.day === day) return held.index;
  const index = buildIndex(ctx);
  index.catch(() => indexes.delete(ctx.store));
  indexes.set(ctx.store, { day, index });
  return index;
}

async function buildIndex(ctx: IntelContext): Promise<TradeIndex> {
  const { store } = ctx;
  const today = referenceDay(ctx.now);
  const in90 = addDays(today, 90);
  const in365 = addDays(today, 365);
  const months = monthsFrom(today, 12);
  const lastMonthEnd = monthEnd(`${months[11]}-01`);
  const pairs = new Map<string, PairFigures>();
  const pairOf = (row: Record<string, unknown>) => {
    const key = pairKey(String(row['trade']), String(row['jurisdiction']));
    let figures = pairs.get(key);
    if (!figures) pairs.set(key, (figures = emptyPair()));
    return figures;
  };
  const strip = <T extends Row>(row: Row, ...names: string[]) => {
    const copy = { ...row };
    for (const name of names) delete copy[name];
    return copy as T;
  };

  const openRows = await store.all<Row>(
    `SELECT t.trade, t.jurisdiction, t.tender_key AS page_key, t.title, t.buyer, strftime(t.closing_date, '%Y-%m-%d') AS closing_date,
            count(*) OVER (PARTITION BY t.trade, t.jurisdiction)::INTEGER AS pair_total
     FROM tenders t JOIN ${buyerTodaySql(ctx.now)} USING (jurisdiction)
     WHERE t.kind = 'tender' AND t.trade IS NOT NULL AND (t.closing_date IS NULL OR t.closing_date >= buyer_today.today)
     QUALIFY row_number() OVER (PARTITION BY t.trade, t.jurisdiction ORDER BY t.closing_date NULLS LAST, t.title, t.tender_key) <= ${PAGE_ROWS}
     ORDER BY t.trade, t.jurisdiction, t.closing_date NULLS LAST, t.title, t.tender_key`,
  );
  for (const row of openRows) {
    const figures = pairOf(row);
    figures.open.count = Number(row.pair_total);
    figures.open.rows.push(strip(row, 'trade', 'jurisdiction', 'pair_total'));
  }

  // A month's value adds up the contracts stating one in the jurisdiction's currency (NZD for New Zealand).
  const monthCounts = await store.all<{ trade: string; jurisdiction: string; month: string; days_90: number; days_365: number; in_months: number; in_months_value: number }>(
    `SELECT trade, jurisdiction, strftime(window_start, '%Y-%m') AS month,
            count(*) FILTER (WHERE window_start <= ?::DATE)::INTEGER AS days_90, count(*) FILTER (WHERE window_start <= ?::DATE)::INTEGER AS days_365,
            count(*) FILTER (WHERE window_start <= ?::DATE)::INTEGER AS in_months,
            coalesce(sum(value_amount) FILTER (WHERE window_start <= ?::DATE AND value_currency = CASE WHEN jurisdiction = 'NZ' THEN 'NZD' ELSE 'AUD' END), 0)::DOUBLE AS in_months_value
     FROM signals WHERE kind = 'contract_expiry' AND trade IS NOT NULL AND window_start BETWEEN ?::DATE AND ?::DATE GROUP BY ALL`,
    [in90, in365, lastMonthEnd, lastMonthEnd, today, in365 > lastMonthEnd ? in365 : lastMonthEnd],
  );
  for (const row of monthCounts) {
    const figures = pairOf(row);
    figures.days90 += row.days_90;
    figures.days365 += row.days_365;
    if (row.in_months > 0) figures.endingByMonth.set(row.month, { count: row.in_months, value: row.in_months_value });
  }

  // The soonest-ending contracts of each pair, and the first few of each calendar month, in one pass.
  // Ranks are taken over narrow rows; only the few rows kept are then read whole (wide sorts and conversions cost).
  const endingRows = await store.all<Row>(
    `WITH ranked AS (
       SELECT signal_id FROM signals WHERE kind = 'contract_expiry' AND trade IS NOT NULL AND window_start >= ?::DATE
       QUALIFY row_number() OVER (PARTITION BY trade, jurisdiction ORDER BY window_start, subject, signal_id) <= ${PAGE_ROWS})
     SELECT ${SIGNAL_SELECT} FROM signals SEMI JOIN ranked USING (signal_id)
     ORDER BY trade, jurisdiction, signals.window_start, subject, signal_id`,
    [today],
  );
  for (const row of endingRows) pairOf(row).endingRows.push(row as SignalRow);

  // Planned and recurring signals still to come (window not ended, or none); planned also counts this quarter's.
  const ahead = await store.all<Row>(
    `WITH ranked AS (
       SELECT signal_id, count(*) OVER pair AS pair_total, count(*) FILTER (WHERE quarter = ?) OVER pair AS pair_quarter
       FROM signals WHERE kind IN ('planned_procurement', 'recurring_tender') AND trade IS NOT NULL AND (window_end IS NULL OR window_end >= ?::DATE)
       WINDOW pair AS (PARTITION BY kind, trade, jurisdiction)
       QUALIFY row_number() OVER (PARTITION BY kind, trade, jurisdiction ORDER BY window_start NULLS LAST, subject, signal_id) <= ${PAGE_ROWS})
     SELECT ${SIGNAL_SELECT}, ranked.pair_total::INTEGER AS pair_total, ranked.pair_quarter::INTEGER AS pair_quarter
     FROM signals JOIN ranked USING (signal_id)
     ORDER BY kind, trade, jurisdiction, signals.window_start NULLS LAST, subject, signal_id`,
    [quarterOf(today), today],
  );
  for (const row of ahead) {
    const figures = pairOf(row);
    const signal = strip<SignalRow>(row, 'pair_total', 'pair_quarter');
    if (row.kind === 'planned_procurement') {
      figures.planned.count = Number(row.pair_total);
      figures.planned.thisQuarter = Number(row.pair_quarter);
      figures.planned.rows.push(signal);
    } else {
      figures.recurring.count = Number(row.pair_total);
      figures.recurring.rows.push(signal);
    }
  }

  const buyers = await store.all<Row>(
    `SELECT trade, jurisdiction, buyer, buyer_key, awards, value_total::DOUBLE AS value_total, value_currency,
            row_number() OVER (PARTITION BY trade, jurisdiction ORDER BY awards DESC, buyer, value_currency) AS by_count,
            row_number() OVER (PARTITION BY trade, jurisdiction ORDER BY value_total DESC NULLS LAST, buyer, value_currency) AS by_value
     FROM trade_buyers
     QUALIFY by_count <= ${PAGE_ROWS} OR (by_value <= ${PAGE_ROWS} AND value_total IS NOT NULL)
     ORDER BY trade, jurisdiction`,
  );
  for (const row of buyers) {
    const figures = pairOf(row);
    const buyer = strip(row, 'trade', 'jurisdiction', 'by_count', 'by_value');
    if (Number(row.by_count) <= PAGE_ROWS) figures.buyersByCount[Number(row.by_count) - 1] = buyer;
    if (row.value_total !== null && Number(row.by_value) <= PAGE_ROWS) figures.buyersByValue[Number(row.by_value) - 1] = buyer;
  }

  for (const row of await store.all<Row>('SELECT trade, jurisdiction, year_awards, suppliers, top_supplier_share, top_five_share FROM trade_pairs')) {
    pairOf(row).year = {
      awards: Number(row.year_awards), suppliers: Number(row.suppliers),
      top_supplier_share: row.top_supplier_share === null ? null : Number(row.top_supplier_share),
      top_five_share: row.top_five_share === null ? null : Number(row.top_five_share),
    };
  }
  for (const row of await store.all<Row>('SELECT trade, jurisdiction, supplier, supplier_key, awards, share FROM trade_suppliers ORDER BY trade, jurisdiction, rank')) {
    pairOf(row).holders.push(strip(row, 'trade', 'jurisdiction'));
  }
  return { today, months, lastMonthEnd, pairs };
}

/** Per pair and month, the first contracts ending and their holders: the re-tender calendar identified callers see. */
export type RetenderCalendars = Map<string, Map<string, Row[]>>;

// Built apart from the index, and only when an identified caller first asks: most trade pages are read anonymously.
const calendars = new WeakMap<Store, { day: string; calendars: Promise<RetenderCalendars> }>();

/** The re-tender calendars of every pair on the context's day, built once per store and day. */
export function retenderCalendars(ctx: IntelContext): Promise<RetenderCalendars> {
  const day = referenceDay(ctx.now);
  const held = calendars.get(ctx.store);
  if (held && held.day === day) return held.calendars;
  const built = buildCalendars(ctx, day);
  built.catch(() => calendars.delete(ctx.store));
  calendars.set(ctx.store, { day, calendars: built });
  return built;
}

async function buildCalendars(ctx: IntelContext, today: string): Promise<RetenderCalendars> {
  const lastMonthEnd = monthEnd(`${monthsFrom(today, 12)[11]}-01`);
  const rows = await ctx.store.all<Row>(
    `SELECT trade, jurisdiction, strftime(window_start, '%Y-%m') AS month, evidence_ref, subject, buyer, buyer_key,
            strftime(window_start, '%Y-%m-%d') AS end_date, incumbent AS holder, value_text
     FROM signals WHERE kind = 'contract_expiry' AND trade IS NOT NULL AND window_start BETWEEN ?::DATE AND ?::DATE
     QUALIFY row_number() OVER (PARTITION BY trade, jurisdiction, strftime(window_start, '%Y-%m') ORDER BY window_start, evidence_ref) <= ${CALENDAR_PER_MONTH}
     ORDER BY trade, jurisdiction, window_start, evidence_ref`,
    [today, lastMonthEnd],
  );
  const byPair: RetenderCalendars = new Map();
  for (const { trade, jurisdiction, month, ...contract } of rows) {
    const key = pairKey(String(trade), String(jurisdiction));
    let months = byPair.get(key);
    if (!months) byPair.set(key, (months = new Map()));
    const list = months.get(String(month)) ?? [];
    list.push(contract);
    months.set(String(month), list);
  }
  return byPair;
}
