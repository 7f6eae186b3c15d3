import { z } from 'zod';
import { isJurisdiction, localDate, timeZoneOf, type Jurisdiction } from '../../lib/jurisdictions.ts';
import { buyerKey } from '../../lib/keys.ts';
import { AWARD_SELECT, Award, type AwardRow } from './award.ts';
import { awardReply } from './awards.ts';
import { monthEnd, monthsFrom } from './calendar.ts';
import { Attribution, attributions, type Audience, type IntelContext } from './context.ts';
import { EndingMonth, SpendYear } from './series.ts';

const identifiedOnly = 'Only for a caller with an API key or a signed-in session.';
const LIST_LENGTH = 20;
const RECENT_AWARDS = 10;
const TOP_SUPPLIERS = 5;

/** A buyer's nightly figures (the `buyers` table; spec, Buyer). Absent, never null, when the release holds no value. */
export const Buyer = z
  .object({
    buyer_key: z.string(),
    name: z.string().meta({ description: 'As published; one row per published spelling (no alias merging).' }),
    slug: z.string().meta({ description: 'Path segment of the buyer\'s static page, `/buyers/<slug>/`.' }),
    jurisdiction: z.string(),
    country: z.enum(['AU', 'NZ']),
    award_count: z.number().int().meta({ description: 'Contracts dated in the award window (the three years to the run day).' }),
    window_from: z.iso.date().meta({ description: 'First day of the award window.' }),
    open_tenders: z.number().int(),
    expiring_12m: z.number().int().meta({ description: 'Contracts ending within 12 months.' }),
    planned_12m: z.number().int().meta({ description: 'Plans (not withdrawn) whose window overlaps the next 12 months.' }),
    median_value: z.number().optional().meta({ description: 'Median value of the window\'s awards in `value_currency`.' }),
    p25_value: z.number().optional(),
    p75_value: z.number().optional(),
    value_total: z.number().optional(),
    value_currency: z.string().optional().meta({ description: 'The currency most of the window\'s valued awards are in; values are never converted.' }),
    value_count: z.number().int().meta({ description: 'Awards behind the value figures.' }),
    median_response_days: z.number().optional().meta({ description: 'Median days from publication to close over its tenders.' }),
    listed: z.boolean().meta({ description: 'At least 20 awards in the window or at least 5 open tenders.' }),
    first_seen: z.string().meta({ description: 'When any of its awards, tenders or plans was first collected (ISO instant).' }),
  })
  .meta({ id: 'Buyer' });
export type Buyer = z.infer<typeof Buyer>;

/** A cohort row of GET /v1/awards/buyers (spec, Buyer: cohort row). */
export const BuyerCohortRow = Buyer.pick({
  buyer_key: true, name: true, slug: true, jurisdiction: true, award_count: true, open_tenders: true, expiring_12m: true, planned_12m: true,
  median_value: true, value_total: true, value_currency: true,
}).meta({ id: 'BuyerCohortRow' });
export type BuyerCohortRow = z.infer<typeof BuyerCohortRow>;

export const BuyerCohort = z
  .object({
    country: z.enum(['AU', 'NZ']),
    total: z.number().int(),
    buyers: z.array(BuyerCohortRow),
    computed_at: z.string(),
    sources: z.array(Attribution),
  })
  .meta({ id: 'BuyerCohort' });
export type BuyerCohort = z.infer<typeof BuyerCohort>;

export const NewBuyers = z
  .object({
    since: z.iso.date(),
    count: z.number().int().meta({ description: 'Buyers of the country first seen on or after `since`.' }),
    computed_at: z.string(),
  })
  .meta({ id: 'NewBuyers' });
export type NewBuyers = z.infer<typeof NewBuyers>;

export const PlannedItem = z
  .object({
    plan_id: z.string(),
    title: z.string(),
    window_start: z.iso.date().optional().meta({ description: 'Never invented: absent when the plan\'s period cannot be read.' }),
    window_end: z.iso.date().optional(),
    expected_period_text: z.string().optional(),
    value_text: z.string().optional(),
    status: z.string().meta({ description: 'The source\'s own word; empty when none.' }),
    released: z.boolean(),
    category: z.string().optional(),
    trade: z.string().optional(),
    source: z.string(),
    url: z.string().optional().meta({ description: `The plan's notice. ${identifiedOnly}` }),
  })
  .meta({ id: 'BuyerPlannedItem' });
export type PlannedItem = z.infer<typeof PlannedItem>;

export const BuyerOpenTender = z
  .object({
    page_key: z.string(),
    title: z.string(),
    kind: z.string(),
    published_date: z.iso.date().optional(),
    closing_date: z.iso.date().optional(),
    source: z.string(),
    url: z.string().optional().meta({ description: `The tender on its portal. ${identifiedOnly}` }),
  })
  .meta({ id: 'BuyerOpenTender' });
export type BuyerOpenTender = z.infer<typeof BuyerOpenTender>;

export const SupplierShare = z
  .object({
    name: z.string().optional().meta({ description: `Supplier as published most often. ${identifiedOnly}` }),
    share: z.number().meta({ description: 'Its share (0–1) of the window\'s contracts naming a supplier.' }),
  })
  .meta({ id: 'SupplierShare' });
type SupplierShare = z.infer<typeof SupplierShare>;

/** A figure of the spec's buyer detail: always present, null when the release holds no value. */
const detailFigure = <T extends z.ZodType>(type: T, description: string) => type.nullable().meta({ description: `${description} Null when unknown.` });

/** The spec's buyer fields of a detail (spec, Buyer: detail) are always present; the cohort row leaves an unknown value out. */
export const BuyerDetailFigures = Buyer.extend({
  median_value: detailFigure(z.number(), 'Median value of the window\'s awards in `value_currency`.'),
  p25_value: detailFigure(z.number(), 'Lower quartile of the window\'s award values.'),
  p75_value: detailFigure(z.number(), 'Upper quartile of the window\'s award values.'),
  value_currency: detailFigure(z.string(), 'The currency most of the window\'s valued awards are in; values are never converted.'),
  median_response_days: detailFigure(z.number(), 'Median days from publication to close over its tenders.'),
}).meta({ id: 'BuyerDetailFigures' });
type BuyerDetailFigures = z.infer<typeof BuyerDetailFigures>;
const DETAIL_FIGURES = ['median_value', 'p25_value', 'p75_value', 'value_currency', 'median_response_days'] as const;

export const BuyerMatch = z
  .object({
    method: z.literal('heuristic'),
    rule: z.enum(['without_division_code', 'state_named']).meta({
      description: '`without_division_code`: the name without a trailing division code; `state_named`: a country-only name resolved under the one state it names.',
    }),
    name: z.string().meta({ description: 'The name that resolved.' }),
    jurisdiction: z.string().meta({ description: 'The jurisdiction it resolved under.' }),
  })
  .meta({ id: 'BuyerMatch' });
export type BuyerMatch = z.infer<typeof BuyerMatch>;

export const BuyerDetail = z
  .object({
    buyer: BuyerDetailFigures,
    expiring: z.array(Award).meta({ description: `Contracts ending within 12 months, soonest first (at most ${LIST_LENGTH}).` }),
    planned: z.array(PlannedItem).meta({ description: `Current plans (not withdrawn, window not over), soonest first (at most ${LIST_LENGTH}).` }),
    recent_awards: z.array(Award).meta({ description: `The ${RECENT_AWARDS} most recent contracts.` }),
    top_suppliers: z.array(SupplierShare).meta({
      description: `The ${TOP_SUPPLIERS} suppliers with most of the window's contracts, largest share first; their names only for a caller with an API key or a signed-in session.`,
    }),
    open_tenders: z.array(BuyerOpenTender).meta({ description: `Open tenders, closing soonest first (at most ${LIST_LENGTH}).` }),
    expiring_by_month: z.array(EndingMonth).meta({ description: 'Contracts ending per month, this month and the next eleven; values in the buyer\'s `value_currency`.' }),
    spend_by_year: z.array(SpendYear).meta({ description: 'Contracts of the award window per calendar year, oldest first; values in the buyer\'s `value_currency`.' }),
    match: BuyerMatch.optional().meta({ description: 'Present when a lookup resolved by a heuristic rather than the exact name.' }),
    computed_at: z.string(),
    sources: z.array(Attribution),
  })
  .meta({ id: 'BuyerDetail' });
export type BuyerDetail = z.infer<typeof BuyerDetail>;

const BUYER_SELECT = `buyer_key, name, slug, jurisdiction, country, award_count, strftime(window_from, '%Y-%m-%d') AS window_from, open_tenders,
  expiring_12m, planned_12m, median_value::DOUBLE AS median_value, p25_value::DOUBLE AS p25_value, p75_value::DOUBLE AS p75_value,
  value_total::DOUBLE AS value_total, value_currency, value_count, median_response_days, listed,
  strftime(first_seen AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS first_seen, sources`;

type StoredBuyer = { [K in keyof Buyer]-?: Buyer[K] | null } & { sources: string[] };

function withoutNulls<T>(row: Record<string, unknown>, leave: readonly string[] = []): T {
  return Object.fromEntries(Object.entries(row).filter(([name, value]) => value !== null && !leave.includes(name))) as T;
}

/** GET /v1/awards/buyers: the listed buyers of a country, by award count or value. */
export async function listBuyers(ctx: IntelContext, country: 'AU' | 'NZ', order: 'count' | 'value'): Promise<BuyerCohort> {
  const ordering = order === 'value' ? 'value_total DESC NULLS LAST, award_count DESC, name' : 'award_count DESC, open_tenders DESC, name';
  const rows = await ctx.store.all<StoredBuyer>(`SELECT ${BUYER_SELECT} FROM buyers WHERE country = ? AND listed ORDER BY ${ordering}`, [country]);
  const cohortFields = Object.keys(BuyerCohortRow.shape);
  return {
    country,
    total: rows.length,
    buyers: rows.map((row) => withoutNulls<BuyerCohortRow>(Object.fromEntries(Object.entries(row).filter(([name]) => cohortFields.includes(name))))),
    computed_at: ctx.computedAt,
    sources: attributions(rows.flatMap((row) => row.sources), ctx.registry),
  };
}

/** GET /v1/awards/buyers/new: how many buyers of a country were first seen on or after a date. */
export async function countNewBuyers(ctx: IntelContext, since: string, country: 'AU' | 'NZ'): Promise<NewBuyers> {
  const [row] = await ctx.store.all<{ count: number }>(
    "SELECT count(*)::INTEGER AS count FROM buyers WHERE country = ? AND (first_seen AT TIME ZONE 'UTC')::DATE >= ?::DATE",
    [country, since],
  );
  return { since, count: row?.count ?? 0, computed_at: ctx.computedAt };
}

/** GET /v1/awards/buyers/{buyer_key}: the buyer's figures and lists, or null for an unknown key. */
export async function buyerDetail(ctx: IntelContext, key: string, audience: Audience): Promise<BuyerDetail | null> {
  const [row] = await ctx.store.all<StoredBuyer>(`SELECT ${BUYER_SELECT} FROM buyers WHERE buyer_key = ?`, [key]);
  if (!row) return null;
  const today = buyerToday(ctx, row);
  const [expiring, planned, recent, suppliers, open, series] = await Promise.all([
    ctx.store.all<AwardRow>(
      `SELECT ${AWARD_SELECT} FROM awards WHERE buyer_key = ? AND end_date BETWEEN ?::DATE AND (?::DATE + INTERVAL 12 MONTH)::DATE
       ORDER BY end_date, contract_id LIMIT ${LIST_LENGTH}`,
      [key, today, today],
    ),
    ctx.store.all<Record<string, unknown>>(
      `SELECT ${PLAN_SELECT}
       FROM plans WHERE buyer_key = ? AND NOT withdrawn AND (coalesce(window_end, window_start) IS NULL OR coalesce(window_end, window_start) >= ?::DATE)
       ORDER BY window_start NULLS LAST, plan_id LIMIT ${LIST_LENGTH}`,
      [key, today],
    ),
    ctx.store.all<AwardRow>(`SELECT ${AWARD_SELECT} FROM awards WHERE buyer_key = ? ORDER BY award_day DESC, contract_id LIMIT ${RECENT_AWARDS}`, [key]),
    topSuppliers(ctx, [{ buyer_key: key, today, window_from: row.window_from as string }]),
    ctx.store.all<Record<string, unknown>>(
      `SELECT ${OPEN_TENDER_SELECT}
       FROM tenders WHERE buyer_key = ? AND kind = 'tender' AND (closing_date IS NULL OR closing_date >= ?::DATE)
       ORDER BY closing_date NULLS LAST, tender_key LIMIT ${LIST_LENGTH}`,
      [key, today],
    ),
    buyerSeries(ctx, [seriesWindow(row, today)]),
  ]);
  return detailReply(ctx, row, { expiring, planned, recent, suppliers: suppliers.get(key) ?? [], open, series: series(seriesWindow(row, today)) }, audience);
}

/**
 * The detail of many buyers at once, each exactly as buyerDetail answers for it (the nightly run writes a
 * page per listed buyer): every list is one set-based query over all the keys, ranked per buyer, instead
 * of six queries per buyer. Unknown keys are left out of the map.
 */
export async function buyerDetails(ctx: IntelContext, keys: readonly string[], audience: Audience): Promise<Map<string, BuyerDetail>> {
  const details = new Map<string, BuyerDetail>();
  if (keys.length === 0) return details;
  const rows = await ctx.store.all<StoredBuyer>(
    `SELECT ${BUYER_SELECT} FROM buyers WHERE buyer_key IN (SELECT unnest(from_json(?::JSON, '["VARCHAR"]')))`,
    [JSON.stringify(keys)],
  );
  // Each buyer's own "today" (its jurisdiction's calendar), as a table the list queries join.
  const wanted = JSON.stringify(rows.map((row) => ({ buyer_key: row.buyer_key, today: buyerToday(ctx, row) })));
  const wantedCte = `wanted AS (SELECT buyer_key, today::DATE AS today FROM (SELECT unnest(from_json(?::JSON, '[{"buyer_key":"VARCHAR","today":"VARCHAR"}]'), recursive := true)))`;
  // The n first rows per buyer in the order buyerDetail lists them; `list_rank` keeps that order. `wanted`
  // adds only buyer_key and today, so the table's other columns need no prefix (`award_day` has none).
  const ranked = (table: string, select: string, order: string, where: string, limit: number) => `
    WITH ${wantedCte}
    SELECT buyer_key AS for_buyer, ${select} FROM (
      SELECT t.*, row_number() OVER (PARTITION BY t.buyer_key ORDER BY ${order}) AS list_rank
      FROM ${table} t JOIN wanted w ON t.buyer_key = w.buyer_key WHERE ${where}
    ) WHERE list_rank <= ${limit} ORDER BY for_buyer, list_rank`;
  const [expiring, planned, recent, open, suppliers, series] = await Promise.all([
    ctx.store.all<ListRow>(ranked('awards', AWARD_SELECT, 't.end_date, t.contract_id', "t.end_date BETWEEN w.today AND (w.today + INTERVAL 12 MONTH)::DATE", LIST_LENGTH), [wanted]),
    ctx.store.all<ListRow>(
      ranked('plans', PLAN_SELECT, 't.window_start NULLS LAST, t.plan_id',
        'NOT t.withdrawn AND (coalesce(t.window_end, t.window_start) IS NULL OR coalesce(t.window_end, t.window_start) >= w.today)', LIST_LENGTH),
      [wanted],
    ),
    ctx.store.all<ListRow>(ranked('awards', AWARD_SELECT, 'award_day DESC, t.contract_id', 'true', RECENT_AWARDS), [wanted]),
    ctx.store.all<ListRow>(
      ranked('tenders', OPEN_TENDER_SELECT, 't.closing_date NULLS LAST, t.tender_key', "t.kind = 'tender' AND (t.closing_date IS NULL OR t.closing_date >= w.today)", LIST_LENGTH),
      [wanted],
    ),
    topSuppliers(ctx, rows.map((row) => ({ buyer_key: row.buyer_key as string, today: buyerToday(ctx, row), window_from: row.window_from as string }))),
    buyerSeries(ctx, rows.map((row) => seriesWindow(row, buyerToday(ctx, row)))),
  ]);
  const expiringOf = byBuyer(expiring);
  const plannedOf = byBuyer(planned);
  const recentOf = byBuyer(recent);
  const openOf = byBuyer(open);
  for (const row of rows) {
    const key = row.buyer_key as string;
    const lists = {
      expiring: (expiringOf.get(key) ?? []) as AwardRow[],
      planned: plannedOf.get(key) ?? [],
      recent: (recentOf.get(key) ?? []) as AwardRow[],
      suppliers: suppliers.get(key) ?? [],
      open: openOf.get(key) ?? [],
      series: series(seriesWindow(row, buyerToday(ctx, row))),
    };
    details.set(key, detailReply(ctx, row, lists, audience));
  }
  return details;
}

const PLAN_SELECT = `plan_id, title, strftime(window_start, '%Y-%m-%d') AS window_start, strftime(window_end, '%Y-%m-%d') AS window_end,
  expected_period_text, value_text, coalesce(status, '') AS status, released, category, trade, source, url`;

const OPEN_TENDER_SELECT = `tender_key AS page_key, title, kind, strftime(published_date, '%Y-%m-%d') AS published_date,
  strftime(closing_date, '%Y-%m-%d') AS closing_date, source, url`;

/** A list row of buyerDetails: the row as buyerDetail reads it, after the buyer it belongs to. */
type ListRow = { for_buyer: string } & Record<string, unknown>;

/** List rows grouped by buyer, each without the grouping column, in the order read. */
function byBuyer(rows: ListRow[]): Map<string, Record<string, unknown>[]> {
  const grouped = new Map<string, Record<string, unknown>[]>();
  for (const { for_buyer, ...row } of rows) {
    const list = grouped.get(for_buyer);
    if (list) list.push(row);
    else grouped.set(for_buyer, [row]);
  }
  return grouped;
}

/** The run day on the buyer's own calendar (Sydney's when its jurisdiction is unknown). */
function buyerToday(ctx: IntelContext, row: StoredBuyer): string {
  const jurisdiction = row.jurisdiction as string;
  return localDate(ctx.now, isJurisdiction(jurisdiction) ? timeZoneOf(jurisdiction) : 'Australia/Sydney');
}

interface DetailLists {
  expiring: AwardRow[];
  planned: Record<string, unknown>[];
  recent: AwardRow[];
  suppliers: SupplierShare[];
  open: Record<string, unknown>[];
  series: BuyerSeries;
}

/** The reply for one buyer from its stored figures and lists: what this caller may see, empty values left out. */
function detailReply(ctx: IntelContext, row: StoredBuyer, lists: DetailLists, audience: Audience): BuyerDetail {
  const linkFields = audience.identified ? [] : ['url'];
  const { sources, ...figures } = row;
  const detailFigures = Object.fromEntries(DETAIL_FIGURES.map((name) => [name, figures[name]]));
  return {
    buyer: { ...withoutNulls<Buyer>(figures), ...detailFigures } as BuyerDetailFigures,
    expiring: lists.expiring.map((award) => awardReply(award, audience)),
    planned: lists.planned.map((plan) => withoutNulls<PlannedItem>(plan, linkFields)),
    recent_awards: lists.recent.map((award) => awardReply(award, audience)),
    top_suppliers: audience.identified ? lists.suppliers : lists.suppliers.map(({ share }) => ({ share })),
    open_tenders: lists.open.map((tender) => withoutNulls<BuyerOpenTender>(tender, linkFields)),
    expiring_by_month: lists.series.expiring_by_month,
    spend_by_year: lists.series.spend_by_year,
    computed_at: ctx.computedAt,
    sources: attributions(sources, ctx.registry),
  };
}

/** The per-month and per-year series of a buyer's page chart. */
interface BuyerSeries {
  expiring_by_month: EndingMonth[];
  spend_by_year: SpendYear[];
}

/** A buyer whose series are asked for: its day, award window and the currency its values are summed in. */
interface SeriesWindow {
  buyer_key: string;
  today: string;
  window_from: string;
  currency: string | null;
}

function seriesWindow(row: StoredBuyer, today: string): SeriesWindow {
  return { buyer_key: row.buyer_key as string, today, window_from: row.window_from as string, currency: row.value_currency };
}

/** The series over every month and year they span, a month or year without contracts as zeros. */
function fillSeries(window: SeriesWindow, months: readonly EndingMonth[], years: readonly SpendYear[]): BuyerSeries {
  const monthRows = new Map(months.map((m) => [m.month, m]));
  const yearRows = new Map(years.map((y) => [y.year, y]));
  const first = Number(window.window_from.slice(0, 4));
  const last = Number(window.today.slice(0, 4));
  return {
    expiring_by_month: monthsFrom(window.today, 12).map((month) => monthRows.get(month) ?? { month, count: 0, value: 0 }),
    spend_by_year: Array.from({ length: last - first + 1 }, (_, i) => String(first + i)).map((year) => yearRows.get(year) ?? { year, count: 0, value: 0 }),
  };
}

/**
 * Per buyer, contracts ending per month (this month and the next eleven) and contracts awarded per calendar
 * year of the award window, each with the value of those stated in the buyer's usual currency. Two queries
 * for any number of buyers; the answer gives each asked-for buyer its series over every month and year.
 */
async function buyerSeries(ctx: IntelContext, windows: readonly SeriesWindow[]): Promise<(window: SeriesWindow) => BuyerSeries> {
  const spans = JSON.stringify(windows.map((w) => ({ ...w, horizon_end: monthEnd(`${monthsFrom(w.today, 12).at(-1)}-01`) })));
  const windowsCte = `windows AS (
    SELECT buyer_key, today::DATE AS today, window_from::DATE AS window_from, horizon_end::DATE AS horizon_end, currency
    FROM (SELECT unnest(from_json(?::JSON, '[{"buyer_key":"VARCHAR","today":"VARCHAR","window_from":"VARCHAR","currency":"VARCHAR","horizon_end":"VARCHAR"}]'), recursive := true)))`;
  const valueIn = 'coalesce(sum(a.value_amount) FILTER (WHERE a.value_currency = w.currency), 0)::DOUBLE AS value';
  const [months, years] = await Promise.all([
    ctx.store.all<EndingMonth & ListRow>(
      `WITH ${windowsCte}
       SELECT a.buyer_key AS for_buyer, strftime(a.end_date, '%Y-%m') AS month, count(*)::INTEGER AS count, ${valueIn}
       FROM awards a JOIN windows w ON a.buyer_key = w.buyer_key WHERE a.end_date BETWEEN w.today AND w.horizon_end
       GROUP BY 1, 2 ORDER BY 1, 2`,
      [spans],
    ),
    ctx.store.all<SpendYear & ListRow>(
      `WITH ${windowsCte}
       SELECT a.buyer_key AS for_buyer, strftime(a.award_day, '%Y') AS year, count(*)::INTEGER AS count, ${valueIn}
       FROM awards a JOIN windows w ON a.buyer_key = w.buyer_key WHERE a.award_day BETWEEN w.window_from AND w.today
       GROUP BY 1, 2 ORDER BY 1, 2`,
      [spans],
    ),
  ]);
  const monthsOf = byBuyer(months) as Map<string, EndingMonth[]>;
  const yearsOf = byBuyer(years) as Map<string, SpendYear[]>;
  return (w) => fillSeries(w, monthsOf.get(w.buyer_key) ?? [], yearsOf.get(w.buyer_key) ?? []);
}

/** A buyer whose top suppliers are asked for, with its award window. */
interface SupplierWindow {
  buyer_key: string;
  window_from: string;
  today: string;
}

/**
 * The suppliers holding most of each buyer's window contracts naming one, by buyer, largest share first. A
 * supplier is its identifier when published, else its name ignoring case and spaces; named by the spelling
 * published most often. One query for any number of buyers (the nightly run asks for every listed buyer).
 */
async function topSuppliers(ctx: IntelContext, windows: readonly SupplierWindow[]): Promise<Map<string, SupplierShare[]>> {
  const rows = await ctx.store.all<ListRow>(
    `WITH windows AS (
       SELECT buyer_key, window_from::DATE AS window_from, today::DATE AS today
       FROM (SELECT unnest(from_json(?::JSON, '[{"buyer_key":"VARCHAR","window_from":"VARCHAR","today":"VARCHAR"}]'), recursive := true))
     ),
     named AS (
       SELECT a.buyer_key, coalesce(a.supplier_key, lower(trim(regexp_replace(a.supplier, '\\s+', ' ', 'g')))) AS holder, a.supplier
       FROM awards a JOIN windows w ON a.buyer_key = w.buyer_key
       WHERE a.supplier IS NOT NULL AND a.award_day BETWEEN w.window_from AND w.today
     ),
     holders AS (
       SELECT buyer_key, mode(supplier ORDER BY supplier) AS name, count(*) AS contracts, sum(count(*)) OVER (PARTITION BY buyer_key) AS named_total
       FROM named GROUP BY buyer_key, holder
     )
     SELECT buyer_key AS for_buyer, name, round(contracts / named_total, 4)::DOUBLE AS share
     FROM holders QUALIFY row_number() OVER (PARTITION BY buyer_key ORDER BY contracts DESC, name) <= ${TOP_SUPPLIERS}
     ORDER BY for_buyer, contracts DESC, name`,
    [JSON.stringify(windows)],
  );
  return byBuyer(rows) as Map<string, SupplierShare[]>;
}

export interface BuyerLookup {
  name: string;
  jurisdiction: Jurisdiction;
  /** Registry id of the source the name comes from, when known. */
  source?: string;
}

const STATE_NAMES: Record<string, readonly string[]> = {
  'AU-NSW': ['nsw', 'new south wales'],
  'AU-VIC': ['vic', 'victoria', 'victorian'],
  'AU-QLD': ['qld', 'queensland'],
  'AU-WA': ['wa', 'western australia'],
  'AU-SA': ['sa', 'south australia'],
  'AU-TAS': ['tas', 'tasmania', 'tasmanian'],
  'AU-ACT': ['act', 'australian capital territory'],
  'AU-NT': ['nt', 'northern territory'],
};

/** A trailing division code: ` - CASG`, `: ICT-01`, ` (DSTG)`; 2 to 12 capitals, digits and joiners. */
const TRAILING_DIVISION_CODE = /^(.*?\S)\s*(?:[-–—:/|]\s*[A-Z0-9][A-Z0-9&./-]{1,11}|\(\s*[A-Z0-9][A-Z0-9&./-]{1,11}\s*\))\s*$/;

/** The name without a trailing division code, or null when it has none. */
export function withoutDivisionCode(name: string): string | null {
  const match = TRAILING_DIVISION_CODE.exec(name.trim());
  return match ? match[1]! : null;
}

/** The one Australian state a name mentions, or null when it names none or several. */
export function stateNamed(name: string): Jurisdiction | null {
  const words = ` ${name.toLowerCase().replace(/[^a-z]+/g, ' ')} `;
  const named = Object.entries(STATE_NAMES).filter(([, spellings]) => spellings.some((spelling) => words.includes(` ${spelling} `)));
  return named.length === 1 ? (named[0]![0] as Jurisdiction) : null;
}

/**
 * The jurisdictions a name may resolve under, in order: its own, then the federal key of the same country
 * (never another state). A source that files everything under the country alone (a multi-state platform,
 * not a federal or national one) never resolves to a national buyer: its country label says nothing.
 */
function resolutionOrder(jurisdiction: Jurisdiction, countryOnlySource: boolean): Jurisdiction[] {
  const country: Jurisdiction = jurisdiction.startsWith('NZ') ? 'NZ' : 'AU';
  if (jurisdiction === country) return countryOnlySource ? [] : [country];
  return [jurisdiction, country];
}

/**
 * GET /v1/awards/buyers/lookup: the buyer detail a published name resolves to, or null. The exact name
 * first (see resolutionOrder); on a miss, two labelled heuristics, and the reply says which in `match`.
 */
export async function lookupBuyer(ctx: IntelContext, lookup: BuyerLookup, audience: Audience): Promise<BuyerDetail | null> {
  const countryOnlySource = lookup.source !== undefined && (await filesUnderCountryOnly(ctx, lookup.source));
  const order = resolutionOrder(lookup.jurisdiction, countryOnlySource);
  const attempts: { name: string; jurisdiction: Jurisdiction; rule?: BuyerMatch['rule'] }[] = order.map((jurisdiction) => ({ name: lookup.name, jurisdiction }));
  const stripped = withoutDivisionCode(lookup.name);
  if (stripped) attempts.push(...order.map((jurisdiction) => ({ name: stripped, jurisdiction, rule: 'without_division_code' as const })));
  if (lookup.jurisdiction === 'AU') {
    const state = stateNamed(lookup.name);
    if (state) {
      attempts.push({ name: lookup.name, jurisdiction: state, rule: 'state_named' });
      if (stripped) attempts.push({ name: stripped, jurisdiction: state, rule: 'state_named' });
    }
  }
  const keyed = attempts.map((attempt) => ({ ...attempt, key: buyerKey(attempt.jurisdiction, attempt.name) })).filter((a) => a.key !== null);
  if (keyed.length === 0) return null;
  const found = new Set(
    (await ctx.store.all<{ buyer_key: string }>(`SELECT buyer_key FROM buyers WHERE buyer_key IN (${keyed.map(() => '?').join(', ')})`, keyed.map((a) => a.key!)))
      .map((row) => row.buyer_key),
  );
  const hit = keyed.find((attempt) => found.has(attempt.key!));
  if (!hit) return null;
  const detail = await buyerDetail(ctx, hit.key!, audience);
  if (!detail || !hit.rule) return detail;
  return { ...detail, match: { method: 'heuristic', rule: hit.rule, name: hit.name, jurisdiction: hit.jurisdiction } };
}

/** True for a registry source labelled with a country alone whose buyers are not federal or national. */
async function filesUnderCountryOnly(ctx: IntelContext, source: string): Promise<boolean> {
  const [row] = await ctx.store.all<{ jurisdiction: string; tier: string }>('SELECT jurisdiction, tier FROM sources WHERE id = ?', [source]);
  return row !== undefined && (row.jurisdiction === 'AU' || row.jurisdiction === 'NZ') && row.tier !== 'federal' && row.tier !== 'national';
}

/** True when the registry has a source of this id. */
export function hasSource(ctx: IntelContext, source: string): boolean {
  return ctx.registry.some((row) => row.id === source);
}
