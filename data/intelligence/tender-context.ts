import { z } from 'zod';
import { JURISDICTIONS, localDate, timeZoneOf } from '../../lib/jurisdictions.ts';
import { sqlString } from '../store.ts';
import { AWARD_SELECT, Award, type AwardRow } from './award.ts';
import { awardReply } from './awards.ts';
import { Buyer } from './buyers.ts';
import { referenceDay } from './calendar.ts';
import { Attribution, attributions, type Audience, type IntelContext } from './context.ts';
import { requiredOverlap, titleKeywords } from './title-terms.ts';

/**
 * GET /v1/tenders/{key}/context: what the release knows around one tender. `buyer`: its buyer's nightly
 * summary, five most recent contracts and five contracts ending soonest. `similar`: contracts and open
 * tenders whose titles share the tender's title keywords (a heuristic, labelled by `match`). Supplier names
 * are for identified callers; every contract says whether the source named one (`supplier_held`).
 */

const LIST_LENGTH = 5;
/** The award window: the three years to the reference day, as the buyers model counts its figures. */
const WINDOW_YEARS = 3;

export const ContextAward = z
  .object({
    ...Award.shape,
    supplier_held: z.boolean().meta({ description: 'True when the source names a supplier (the name itself is for a key or session).' }),
  })
  .meta({ id: 'ContextAward' });
export type ContextAward = z.infer<typeof ContextAward>;

export const ContextMatch = z
  .object({
    method: z.literal('heuristic'),
    rule: z.literal('title_keyword').meta({
      description: 'Similar means the title shares the tender\'s title keywords: all of one or two, two of three or four, three of five or six.',
    }),
  })
  .meta({ id: 'ContextMatch' });

export const SimilarTender = z
  .object({
    page_key: z.string().meta({ description: 'The tender\'s key (GET /v1/tenders/{key}).' }),
    title: z.string(),
    buyer: z.string().optional(),
    jurisdiction: z.string(),
    closing_date: z.iso.date().optional(),
    shared_keywords: z.number().int().meta({ description: 'How many of the keywords its title shares.' }),
  })
  .meta({ id: 'SimilarTender' });

export const TenderContext = z
  .object({
    buyer: z
      .object({
        summary: Buyer.meta({ description: 'The buyer\'s nightly figures (the buyers table).' }),
        recent_awards: z.array(ContextAward).meta({ description: `The buyer's ${LIST_LENGTH} most recent contracts.` }),
        ending_soonest: z.array(ContextAward).meta({ description: `The buyer's ${LIST_LENGTH} contracts ending soonest from today.` }),
      })
      .nullable()
      .meta({ description: 'Null when the tender names no buyer or the release holds no summary for it.' }),
    similar: z
      .object({
        keywords: z.array(z.string()).meta({ description: 'The tender\'s title keywords, as matched (lower case, plural s dropped).' }),
        awards: z
          .object({
            count: z.number().int().meta({ description: 'Contracts of the same country in the award window whose titles match.' }),
            valued: z.number().int().meta({ description: 'Of those, how many state a value in `value_currency`.' }),
            value_min: z.number().optional(),
            value_max: z.number().optional(),
            value_currency: z.string().optional().meta({ description: 'The currency most matching values are in; values are never converted.' }),
          }),
        open_tenders: z.array(SimilarTender).meta({ description: `Up to ${LIST_LENGTH} other open tenders of the same country, most keywords shared first, then closing soonest.` }),
        match: ContextMatch,
      })
      .nullable()
      .meta({ description: 'Null when the title has no keywords, or nothing in the release matches them.' }),
    sources: z
      .object({
        attributions: z.array(Attribution),
        computed_at: z.string().meta({ description: 'The night the figures are true for.' }),
        award_window: z.object({ from: z.iso.date(), to: z.iso.date() }).meta({ description: 'The days similar contracts are counted over.' }),
      })
      .meta({ description: 'The attribution each licence requires, the night the figures are true for and the award window.' }),
    computed_at: z.string().meta({ description: 'The night the figures are true for (also in `sources`).' }),
  })
  .meta({ id: 'TenderContext' });
export type TenderContext = z.infer<typeof TenderContext>;

interface TenderFacts {
  title: string;
  source: string;
  jurisdiction: string;
  buyer_key: string | null;
}

const BUYER_SELECT = `buyer_key, name, slug, jurisdiction, country, award_count, strftime(window_from, '%Y-%m-%d') AS window_from, open_tenders,
  expiring_12m, planned_12m, median_value::DOUBLE AS median_value, p25_value::DOUBLE AS p25_value, p75_value::DOUBLE AS p75_value,
  value_total::DOUBLE AS value_total, value_currency, value_count, median_response_days, listed,
  strftime(first_seen AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS first_seen, sources`;

/** The context of the tender `tenderKey`, or null when the release holds no tender with that key. */
export async function tenderContext(ctx: IntelContext, tenderKey: string, audience: Audience): Promise<TenderContext | null> {
  const [tender] = await ctx.store.all<TenderFacts>('SELECT title, source, jurisdiction, buyer_key FROM tenders WHERE tender_key = ?', [tenderKey]);
  if (!tender) return null;
  const today = referenceDay(ctx.now);
  const window = { from: yearsBefore(today, WINDOW_YEARS), to: today };

  const [buyer, similar] = await Promise.all([buyerBlock(ctx, tender.buyer_key, audience), similarBlock(ctx, tenderKey, tender, window)]);
  const sourceIds = [tender.source, ...(buyer?.sources ?? []), ...(similar?.sources ?? [])];
  return {
    buyer: buyer?.block ?? null,
    similar: similar?.block ?? null,
    sources: { attributions: attributions(sourceIds, ctx.registry), computed_at: ctx.computedAt, award_window: window },
    computed_at: ctx.computedAt,
  };
}

type StoredBuyer = Record<string, unknown> & { jurisdiction: string; sources: string[] };

async function buyerBlock(ctx: IntelContext, buyerKey: string | null, audience: Audience): Promise<{ block: NonNullable<TenderContext['buyer']>; sources: string[] } | null> {
  if (buyerKey === null) return null;
  const [row] = await ctx.store.all<StoredBuyer>(`SELECT ${BUYER_SELECT} FROM buyers WHERE buyer_key = ?`, [buyerKey]);
  if (!row) return null;
  const jurisdiction = JURISDICTIONS.find((j) => j === row.jurisdiction);
  const today = localDate(ctx.now, jurisdiction ? timeZoneOf(jurisdiction) : 'Australia/Sydney');
  const [recent, ending] = await Promise.all([
    ctx.store.all<AwardRow>(`SELECT ${AWARD_SELECT} FROM awards WHERE buyer_key = ? ORDER BY award_day DESC, contract_id, source LIMIT ${LIST_LENGTH}`, [buyerKey]),
    ctx.store.all<AwardRow>(
      `SELECT ${AWARD_SELECT} FROM awards WHERE buyer_key = ? AND end_date >= ?::DATE ORDER BY end_date, contract_id, source LIMIT ${LIST_LENGTH}`,
      [buyerKey, today],
    ),
  ]);
  const { sources, ...figures } = row;
  const summary = Object.fromEntries(Object.entries(figures).filter(([, value]) => value !== null)) as z.infer<typeof Buyer>;
  const contextAward = (award: AwardRow): ContextAward => ({ ...awardReply(award, audience), supplier_held: award.supplier !== null });
  return {
    block: { summary, recent_awards: recent.map(contextAward), ending_soonest: ending.map(contextAward) },
    sources: [...sources, ...recent.map((award) => award.source!), ...ending.map((award) => award.source!)],
  };
}

async function similarBlock(
  ctx: IntelContext,
  tenderKey: string,
  tender: TenderFacts,
  window: { from: string; to: string },
): Promise<{ block: NonNullable<TenderContext['similar']>; sources: string[] } | null> {
  const keywords = titleKeywords(tender.title);
  if (keywords.length === 0) return null;
  const country = tender.jurisdiction.slice(0, 2);
  const needed = requiredOverlap(keywords.length);
  const placeholders = keywords.map(() => '?').join(', ');

  const [[awards], tenders] = await Promise.all([
    ctx.store.all<{ count: number; valued: number; value_min: number | null; value_max: number | null; value_currency: string | null; sources: string[] }>(
      `WITH matched AS (
         -- one row per contract sharing enough keywords; the index holds each word of a title once
         SELECT source, contract_id, any_value(value_amount) AS value_amount, any_value(value_currency) AS value_currency
         FROM award_terms
         WHERE term IN (${placeholders}) AND country = ? AND award_day BETWEEN ?::DATE AND ?::DATE
         GROUP BY source, contract_id
         HAVING count(*) >= ?
       ),
       -- values are never converted: the range is over the currency most matching values are in
       main_currency AS (
         SELECT value_currency FROM matched WHERE value_amount IS NOT NULL AND value_currency IS NOT NULL
         GROUP BY value_currency ORDER BY count(*) DESC, value_currency LIMIT 1
       )
       SELECT count(*)::INTEGER AS count,
              count(value_amount) FILTER (WHERE value_currency = (SELECT value_currency FROM main_currency))::INTEGER AS valued,
              min(value_amount) FILTER (WHERE value_currency = (SELECT value_currency FROM main_currency))::DOUBLE AS value_min,
              max(value_amount) FILTER (WHERE value_currency = (SELECT value_currency FROM main_currency))::DOUBLE AS value_max,
              (SELECT value_currency FROM main_currency) AS value_currency,
              coalesce(list(DISTINCT source ORDER BY source), []) AS sources
       FROM matched`,
      [...keywords, country, window.from, window.to, needed],
    ),
    similarOpenTenders(ctx, tenderKey, country, keywords, needed),
  ]);
  const count = awards?.count ?? 0;
  if (count === 0 && tenders.length === 0) return null;
  const valued = awards?.valued ?? 0;
  return {
    block: {
      keywords,
      awards: {
        count,
        valued,
        ...(valued > 0 ? { value_min: awards!.value_min!, value_max: awards!.value_max!, value_currency: awards!.value_currency! } : {}),
      },
      open_tenders: tenders.map(({ source: _source, ...rest }) => Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== null)) as z.infer<typeof SimilarTender>),
      match: { method: 'heuristic', rule: 'title_keyword' },
    },
    sources: [...(awards?.sources ?? []), ...tenders.map((row) => row.source)],
  };
}

/**
 * Other open tenders of the same country sharing enough keywords, most shared first, then closing soonest.
 * Open is judged in each tender's own day (its jurisdiction's time zone), as GET /v1/tenders judges it.
 */
async function similarOpenTenders(ctx: IntelContext, tenderKey: string, country: string, keywords: string[], needed: number) {
  const days = JURISDICTIONS.map((j) => `(${sqlString(j)}, ${sqlString(timeZoneOf(j))}, ${sqlString(localDate(ctx.now, timeZoneOf(j)))}::DATE)`).join(', ');
  return ctx.store.all<{ page_key: string; title: string; buyer: string | null; jurisdiction: string; closing_date: string | null; shared_keywords: number; source: string }>(
    `WITH days(jurisdiction, time_zone, today) AS (VALUES ${days}),
     shared AS (
       -- tenders (grants are not indexed) of the same country sharing enough keywords; not the tender itself
       SELECT tender_key, count(*) AS shared
       FROM tender_terms
       WHERE term IN (${keywords.map(() => '?').join(', ')}) AND country = ? AND tender_key <> ?
       GROUP BY tender_key
       HAVING count(*) >= ?
     ),
     candidates AS (
       SELECT t.tender_key, t.title, t.buyer, t.jurisdiction, t.source, s.shared, d.today,
              coalesce(t.closing_date, timezone(d.time_zone, t.closing_at)::DATE) AS closing_day
       FROM shared s JOIN tenders t USING (tender_key) JOIN days d ON d.jurisdiction = t.jurisdiction
     )
     SELECT tender_key AS page_key, title, buyer, jurisdiction, strftime(closing_day, '%Y-%m-%d') AS closing_date,
            shared::INTEGER AS shared_keywords, source
     FROM candidates
     WHERE closing_day IS NULL OR closing_day >= today
     ORDER BY shared DESC, closing_day NULLS LAST, tender_key
     LIMIT ${LIST_LENGTH}`,
    [...keywords, country, tenderKey, needed],
  );
}

/** The same day `years` earlier, the 29th of February becoming the 28th (as DuckDB's `- INTERVAL n YEAR` in the buyers model). */
function yearsBefore(isoDate: string, years: number): string {
  const year = Number(isoDate.slice(0, 4)) - years;
  const [month, day] = [Number(isoDate.slice(5, 7)), Number(isoDate.slice(8, 10))];
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${isoDate.slice(5, 7)}-${String(Math.min(day, lastDay)).padStart(2, '0')}`;
}
