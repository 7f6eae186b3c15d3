import { z } from 'zod';
import type { DuckDBValue } from '@duckdb/node-api';
import type { Jurisdiction } from '../../lib/jurisdictions.ts';
import { normaliseBuyerName } from '../../lib/keys.ts';
import { Attribution, attributions, type Audience, type IntelContext } from './context.ts';

export const SIGNAL_KINDS = ['contract_expiry', 'planned_procurement', 'recurring_tender'] as const;
export type SignalKind = (typeof SIGNAL_KINDS)[number];

const identifiedOnly = 'Only for a caller with an API key or a signed-in session.';

/** One signal on the wire (spec, Signal). Absent, never null, when the release holds no value. */
export const Signal = z
  .object({
    signal_id: z.string().meta({ description: 'Stable id: `exp-`, `plan-` or `rec-` and 16 hex.' }),
    kind: z.enum(SIGNAL_KINDS),
    confidence: z.enum(['published', 'derived']).meta({ description: '`published`: the buyer\'s own date or plan; `derived`: our inference. A vocabulary, not a score.' }),
    jurisdiction: z.string(),
    buyer: z.string().optional(),
    buyer_key: z.string().optional(),
    subject: z.string().meta({ description: 'What is bought.' }),
    category: z.string().optional().meta({ description: 'UNSPSC code.' }),
    trade: z.string().optional().meta({ description: 'Trade id (lib/trades.ts).' }),
    window_start: z.iso.date().optional().meta({ description: 'Never invented: an expiry\'s window is the contract end date; a plan whose period cannot be read has none.' }),
    window_end: z.iso.date().optional(),
    quarter: z.string().optional().meta({ description: 'Calendar quarter the window starts in, e.g. 2026Q4.' }),
    value_text: z.string().optional(),
    evidence_ref: z.string().meta({ description: 'Contract id, plan id or notice reference.' }),
    status: z.string().meta({ description: 'The source\'s own word for a plan\'s state; empty when none.' }),
    released: z.boolean().meta({ description: 'True when the plan is marked as released to market.' }),
    source: z.string().meta({ description: 'Registry id of the evidence\'s source.' }),
    first_seen: z.string().meta({ description: 'When the evidence was first collected (ISO instant).' }),
    occurrences: z.number().int().optional().meta({ description: 'Recurring tenders: rounds in the series.' }),
    interval_days: z.number().int().optional().meta({ description: 'Recurring tenders: median days between rounds.' }),
    evidence_url: z.string().optional().meta({ description: `The evidence's public page. ${identifiedOnly}` }),
    incumbent: z.string().optional().meta({ description: `The contract's holder. ${identifiedOnly}` }),
  })
  .meta({ id: 'Signal' });
export type Signal = z.infer<typeof Signal>;

export const SignalList = z
  .object({
    total: z.number().int(),
    results: z.array(Signal),
    computed_at: z.string(),
    sources: z.array(Attribution),
  })
  .meta({ id: 'SignalList' });
export type SignalList = z.infer<typeof SignalList>;

/** Row filters shared by /v1/signals and /v1/intelligence/planned. Values arrive validated. */
export interface SignalFilters {
  kinds?: readonly SignalKind[];
  /** The jurisdictions in scope (already expanded: `AU` with its states unless exact). */
  jurisdictions?: readonly Jurisdiction[];
  /** Buyer name as published: exact, ignoring case and runs of spaces. */
  buyer?: string;
  buyer_key?: string;
  /** Words over subject and buyer, and incumbent for identified callers. */
  q?: string;
  /** Window starts on or before this date. */
  window_before?: string;
  /** Window not ended by this date; windows without an end are kept. */
  window_after?: string;
  /** First seen strictly after this instant. */
  first_seen_after?: string;
  /** Window starts in this calendar quarter, e.g. `2026Q4`. */
  quarter?: string;
  /** Window starts in a quarter after this one. */
  quarter_after?: string;
  /** Window ended before this date. */
  ended_before?: string;
  trade?: string;
}

export interface SignalPage {
  limit: number;
  offset: number;
  /** `soon`: window start, undated last (default); `buyer`: buyer name, then window. */
  sort?: 'soon' | 'buyer';
}

/** SQL conditions and their parameters for a filter set. */
export function signalConditions(filters: SignalFilters, audience: Audience): { where: string; params: DuckDBValue[] } {
  const conditions: string[] = [];
  const params: DuckDBValue[] = [];
  const bind = (value: DuckDBValue) => {
    params.push(value);
    return '?';
  };
  const list = (values: readonly string[]) => values.map((v) => bind(v)).join(', ');
  if (filters.kinds?.length) conditions.push(`kind IN (${list(filters.kinds)})`);
  if (filters.jurisdictions?.length) conditions.push(`jurisdiction IN (${list(filters.jurisdictions)})`);
  if (filters.buyer !== undefined) conditions.push(`lower(trim(regexp_replace(buyer, '\\s+', ' ', 'g'))) = ${bind(normaliseBuyerName(filters.buyer))}`);
  if (filters.buyer_key !== undefined) conditions.push(`buyer_key = ${bind(filters.buyer_key)}`);
  if (filters.trade !== undefined) conditions.push(`trade = ${bind(filters.trade)}`);
  if (filters.quarter !== undefined) conditions.push(`quarter = ${bind(filters.quarter)}`);
  // Quarter ids sort as text: a four-digit year, then Q and the quarter.
  if (filters.quarter_after !== undefined) conditions.push(`quarter > ${bind(filters.quarter_after)}`);
  if (filters.ended_before !== undefined) conditions.push(`window_end < ${bind(filters.ended_before)}::DATE`);
  if (filters.window_before !== undefined) conditions.push(`window_start <= ${bind(filters.window_before)}::DATE`);
  if (filters.window_after !== undefined) conditions.push(`(window_end IS NULL OR window_end >= ${bind(filters.window_after)}::DATE)`);
  if (filters.first_seen_after !== undefined) conditions.push(`first_seen > ${bind(filters.first_seen_after)}::TIMESTAMPTZ`);
  if (filters.q !== undefined) {
    // Every word must appear somewhere; an anonymous caller's words never search the incumbent, whose name it may not see.
    const haystack = audience.identified ? "lower(concat_ws(' ', subject, buyer, incumbent))" : "lower(concat_ws(' ', subject, buyer))";
    for (const word of filters.q.toLowerCase().split(/\s+/).filter(Boolean)) conditions.push(`contains(${haystack}, ${bind(word)})`);
  }
  return { where: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

/** The columns a signal reply is read with (dates as ISO text, instants in UTC). */
export const SIGNAL_SELECT = `signal_id, kind, confidence, jurisdiction, buyer, buyer_key, subject, category, trade,
  strftime(window_start, '%Y-%m-%d') AS window_start, strftime(window_end, '%Y-%m-%d') AS window_end, quarter, value_text,
  evidence_ref, evidence_url, incumbent, status, released, source,
  strftime(first_seen AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS first_seen, occurrences, interval_days`;

const ORDERS = {
  soon: 'window_start NULLS LAST, window_end NULLS LAST, subject, signal_id',
  buyer: 'lower(buyer) NULLS LAST, window_start NULLS LAST, subject, signal_id',
} as const;

export type SignalRow = Record<keyof Signal, string | number | boolean | null>;

/** A stored signal as the caller may see it: identified-only fields and empty values are left out. */
export function signalReply(row: SignalRow, audience: Audience): Signal {
  const reply: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    if (value === null) continue;
    if (!audience.identified && (name === 'evidence_url' || name === 'incumbent')) continue;
    reply[name] = value;
  }
  return reply as Signal;
}

/** Rows of the signals table matching the filters, one page, with the total. */
export async function querySignals(
  ctx: IntelContext,
  filters: SignalFilters,
  page: SignalPage,
  audience: Audience,
): Promise<{ total: number; results: Signal[] }> {
  const { where, params } = signalConditions(filters, audience);
  const [counted] = await ctx.store.all<{ total: number }>(`SELECT count(*)::INTEGER AS total FROM signals ${where}`, params);
  const rows = await ctx.store.all<SignalRow>(
    `SELECT ${SIGNAL_SELECT} FROM signals ${where} ORDER BY ${ORDERS[page.sort ?? 'soon']} LIMIT ${page.limit} OFFSET ${page.offset}`,
    params,
  );
  return { total: counted?.total ?? 0, results: rows.map((row) => signalReply(row, audience)) };
}

/** GET /v1/signals: signals of every kind, filtered and paged, with the attribution of the sources shown. */
export async function listSignals(ctx: IntelContext, filters: SignalFilters, page: SignalPage, audience: Audience): Promise<SignalList> {
  const { total, results } = await querySignals(ctx, filters, page, audience);
  return { total, results, computed_at: ctx.computedAt, sources: attributions(results.map((s) => s.source), ctx.registry) };
}
