import { TRADES } from '../../lib/trades.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  JURISDICTIONS,
  TIERS,
  isJurisdiction,
  localDate,
  timeZoneOf,
  withinScope,
  type Jurisdiction,
  type Tier,
} from '../../lib/jurisdictions.ts';
import { normaliseForKey } from '../../lib/text.ts';
import { coverageOf, type Coverage } from '../../lib/coverage.ts';
import { z } from 'zod';
import { packed, textOf, type ByteSource, type IndexFileHandle } from './index-file.ts';
import { DOCUMENTS_PER_TURN, TextIndex, TextIndexParts } from './text-index.ts';

/** One row of the `tenders` table as the release store loads it: dates are `YYYY-MM-DD`, instants ISO strings. */
export interface TenderRow {
  tender_key: string;
  source: string;
  source_tag: string;
  kind: string;
  title: string;
  buyer: string | null;
  reference: string | null;
  jurisdiction: string;
  tier: string;
  summary: string | null;
  category: string | null;
  category_name: string | null;
  trade: string | null;
  notice_type: string | null;
  published_date: string | null;
  closing_date: string | null;
  closing_at: string | null;
  value_text: string | null;
  url: string;
  listing_url: string | null;
  first_seen: string;
  last_seen: string;
  dates_changed_at: string | null;
  stale: boolean;
  /** The homepage of the tender's source, from the registry (a link, withheld like the tender's own). */
  source_homepage: string | null;
}

/** One row of the `sources` registry table as the release store loads it. */
export const SourceRow = z.object({
  id: z.string(),
  tag: z.string(),
  name: z.string(),
  jurisdiction: z.string(),
  tier: z.string(),
  kinds: z.array(z.string()),
  mode: z.string(),
  homepage: z.string(),
  licence: z.string(),
  attribution: z.string(),
  caveats: z.array(z.string()),
  status: z.string(),
  why: z.string().nullable(),
  tender_count: z.number(),
  award_count: z.number(),
  plan_count: z.number(),
  reference_count: z.number(),
  refresh: z.string(),
  last_run_at: z.string().nullable(),
  last_success_at: z.string().nullable(),
});
export type SourceRow = z.infer<typeof SourceRow>;

export const TENDER_KINDS = ['tender', 'grant'] as const;
const TRADE_IDS = TRADES.map((trade) => trade.id);
const TRADE_NAMES = new Map(TRADES.map((trade) => [trade.id, trade.name]));
export type TenderKind = (typeof TENDER_KINDS)[number];

/** Search filters, named as the query parameters of GET /v1/tenders; values are already validated. */
export interface TenderFilters {
  q?: string | undefined;
  jurisdiction?: Jurisdiction | undefined;
  kind?: TenderKind | undefined;
  tier?: Tier | undefined;
  source?: string | undefined;
  category?: string | undefined;
  trade?: string | undefined;
  buyer?: string | undefined;
  closing_before?: string | undefined;
  closing_within_days?: number | undefined;
  changed_within_days?: number | undefined;
  first_seen_after?: string | undefined;
  include_closed?: boolean | undefined;
}

export const TENDER_ORDERS = ['relevance', 'closing'] as const;
export type TenderOrder = (typeof TENDER_ORDERS)[number];

export interface TenderPage {
  limit: number;
  offset: number;
  /** Order of a search with `q`: relevance (the default) or closing date; without `q` it is always closing date. */
  sort?: TenderOrder | undefined;
}

/** A tender as replies need it: the row plus the vocabulary values checked when the release loaded. */
export interface IndexedTender {
  /** The whole row; on a loaded index each read parses it again, so read it once per use. */
  readonly row: TenderRow;
  readonly jurisdiction: Jurisdiction;
  readonly kind: TenderKind;
  readonly tier: Tier;
  /** The published closing date, or the buyer's day of the closing time when only that is published. */
  readonly closingDate: string | null;
  readonly trade: string | null;
}

/**
 * A tender of a loaded index: one object per slot for the life of the release (so per-tender work can be
 * memoised against it). Its row is parsed from the stored JSON on every read and never kept: a kept row,
 * even held weakly, outlives the young generation and is promoted, so a server answering thousands of
 * searches a second grew its old heap by hundreds of megabytes. Read `row` once per use.
 */
class StoredTender implements IndexedTender {
  readonly jurisdiction: Jurisdiction;
  readonly kind: TenderKind;
  readonly tier: Tier;
  readonly closingDate: string | null;
  readonly trade: string | null;
  readonly #text: ByteSource;
  readonly #start: number;
  readonly #end: number;

  constructor(fields: Omit<IndexedTender, 'row'>, text: ByteSource, start: number, end: number) {
    this.jurisdiction = fields.jurisdiction;
    this.kind = fields.kind;
    this.tier = fields.tier;
    this.closingDate = fields.closingDate;
    this.trade = fields.trade;
    this.#text = text;
    this.#start = start;
    this.#end = end;
  }

  get row(): TenderRow {
    return JSON.parse(textOf(this.#text, this.#start, this.#end)) as TenderRow;
  }
}

export interface TenderHit {
  tender: IndexedTender;
  open: boolean;
}

export interface SearchOutcome {
  total: number;
  hits: TenderHit[];
}

export type { Coverage, EmptySource } from '../../lib/coverage.ts';

export interface Strip {
  closing_48h: number;
  dates_changed_7d: number;
  new_7d: number;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Closing day of a tender without a closing date: after every real day, so it sorts last and is always open. */
const NO_CLOSING_DAY = 2 ** 31 - 1;
const NZ_SLOT = JURISDICTIONS.indexOf('NZ');

/** Days since 1970-01-01 of an ISO date: dates compare as small integers. */
function dayNumber(isoDate: string): number {
  return Math.floor(Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS);
}

/**
 * UNSPSC codes are hierarchical in pairs of digits, and a parent is written with trailing zero pairs:
 * `80100000` (and `8010`) stand for every code starting `8010`.
 */
export function categoryPrefix(code: string): string {
  let prefix = code;
  while (prefix.length > 2 && prefix.endsWith('00')) prefix = prefix.slice(0, -2);
  return prefix;
}

/** Today's date, as a day number, in the time zone of every jurisdiction (indexed like JURISDICTIONS). */
function todayBySlot(now: Date): Int32Array {
  return Int32Array.from(JURISDICTIONS, (jurisdiction) => dayNumber(localDate(now, timeZoneOf(jurisdiction))));
}

/**
 * The tenders of one release in memory: relevance search over title, summary and buyer, filters judged in
 * each tender's own time zone, paging, coverage and the headline strip. Everything a filter reads is
 * worked out once per release into typed arrays, one slot per tender in closing order (soonest first, no
 * closing date last), so a request scans contiguous memory and the order without `q` is the slot order.
 */
export class TenderIndex {
  /** Rows left out because their jurisdiction, kind or tier is outside the contract's vocabulary. */
  readonly skipped: number;
  readonly #parts: TenderIndexParts;
  readonly #size: number;
  readonly #slotByKey: Map<string, number>;
  /** The rows' JSON text: in memory when built, left in the index file when loaded from one. */
  readonly #rowText: ByteSource;
  readonly #rowStarts: Int32Array;
  readonly #file: IndexFileHandle | null;
  /** Each slot's tender object, made on first use. */
  readonly #stored: (StoredTender | undefined)[];
  readonly #closingDay: Int32Array;
  readonly #closingAtMs: Float64Array;
  readonly #zone: Uint8Array;
  readonly #kind: Uint8Array;
  readonly #tier: Uint8Array;
  readonly #source: Int32Array;
  readonly #sourceCodes: Map<string, number>;
  readonly #buyer: Int32Array;
  readonly #buyerCodes: Map<string, number>;
  /** The 8-digit UNSPSC code as a number, or -1. */
  readonly #category: Int32Array;
  readonly #trade: Int16Array;
  readonly #firstSeenMs: Float64Array;
  /** NaN when the dates never changed: every comparison with NaN is false. */
  readonly #datesChangedMs: Float64Array;
  readonly #text: TextIndex;
  readonly #sources: SourceRow[];
  readonly #sourceIds: Set<string>;

  /** Indexes a release's tenders and registry, yielding to the event loop as it goes. */
  static async build(rows: readonly TenderRow[], sources: readonly SourceRow[]): Promise<TenderIndex> {
    const tenders: IndexedTender[] = [];
    for (const row of rows) {
      // The pipeline validates these vocabularies; a row outside them cannot be filtered or dated, so it is left out.
      if (!isJurisdiction(row.jurisdiction) || !isTenderKind(row.kind) || !isTier(row.tier)) continue;
      const closingDate = row.closing_date ?? (row.closing_at ? localDate(new Date(row.closing_at), timeZoneOf(row.jurisdiction)) : null);
      tenders.push({ row, jurisdiction: row.jurisdiction, kind: row.kind, tier: row.tier, closingDate, trade: row.trade });
    }
    tenders.sort(compareClosing);
    await nextTurn();
    // The trade's name is searched too: "cleaning" finds a laundry tender filed under the cleaning trade.
    const text = await TextIndex.build(tenders.map(({ row }) => [row.title, row.summary ?? '', row.buyer ?? '', (row.trade && TRADE_NAMES.get(row.trade)) ?? '']), FIELD_BOOSTS);

    const count = tenders.length;
    const sourceCodes = new Map<string, number>();
    const buyerCodes = new Map<string, number>();
    const texts = tenders.map((tender) => Buffer.from(JSON.stringify(tender.row), 'utf8'));
    const rowStarts = new Int32Array(count + 1);
    texts.forEach((text, slot) => {
      rowStarts[slot + 1] = rowStarts[slot]! + text.length;
    });
    const parts: TenderIndexParts = {
      skipped: rows.length - count,
      rowText: Buffer.concat(texts),
      rowStarts,
      keys: tenders.map((tender) => tender.row.tender_key),
      closingDay: Int32Array.from(tenders, (tender) => (tender.closingDate === null ? NO_CLOSING_DAY : dayNumber(tender.closingDate))),
      closingAtMs: Float64Array.from(tenders, ({ row }) => (row.closing_at === null ? Number.NaN : Date.parse(row.closing_at))),
      zone: Uint8Array.from(tenders, (tender) => JURISDICTIONS.indexOf(tender.jurisdiction)),
      kind: Uint8Array.from(tenders, (tender) => TENDER_KINDS.indexOf(tender.kind)),
      tier: Uint8Array.from(tenders, (tender) => TIERS.indexOf(tender.tier)),
      source: Int32Array.from(tenders, ({ row }) => codeOf(sourceCodes, row.source)),
      buyer: Int32Array.from(tenders, ({ row }) => (row.buyer === null ? -1 : codeOf(buyerCodes, normaliseForKey(row.buyer)))),
      category: Int32Array.from(tenders, ({ row }) => (row.category !== null && /^\d{8}$/.test(row.category) ? Number(row.category) : -1)),
      trade: Int16Array.from(tenders, ({ row }) => (row.trade === null ? -1 : TRADE_IDS.indexOf(row.trade))),
      firstSeenMs: Float64Array.from(tenders, ({ row }) => Date.parse(row.first_seen)),
      datesChangedMs: Float64Array.from(tenders, ({ row }) => (row.dates_changed_at === null ? Number.NaN : Date.parse(row.dates_changed_at))),
      sourceCodes: [...sourceCodes.keys()],
      buyerCodes: [...buyerCodes.keys()],
      sources: [...sources],
      text: text.parts,
    };
    return new TenderIndex(parts);
  }

  /** An index from the parts an index file stores (see `parts`), reading its rows through `file` when they were left there. */
  static fromParts(parts: TenderIndexParts, file: IndexFileHandle | null = null): TenderIndex {
    return new TenderIndex(parts, file);
  }

  /** Closes the index file the rows are read from (nothing to do for an index built in memory). */
  close(): void {
    this.#file?.close();
  }

  /**
   * The parts are in closing order; `text` indexes them in that order. Each tender's row is kept as its JSON
   * text and parsed when a reply needs it: parsed rows would hold several times their size in JS objects
   * for the whole life of the release.
   */
  private constructor(parts: TenderIndexParts, file: IndexFileHandle | null = null) {
    this.#parts = parts;
    this.#file = file;
    this.skipped = parts.skipped;
    this.#size = parts.keys.length;
    this.#slotByKey = new Map(parts.keys.map((key, slot) => [key, slot]));
    this.#rowText = parts.rowText;
    this.#rowStarts = parts.rowStarts;
    this.#stored = new Array<StoredTender | undefined>(this.#size);
    this.#closingDay = parts.closingDay;
    this.#closingAtMs = parts.closingAtMs;
    this.#zone = parts.zone;
    this.#kind = parts.kind;
    this.#tier = parts.tier;
    this.#source = parts.source;
    this.#sourceCodes = new Map(parts.sourceCodes.map((code, at) => [code, at]));
    this.#buyer = parts.buyer;
    this.#buyerCodes = new Map(parts.buyerCodes.map((code, at) => [code, at]));
    this.#category = parts.category;
    this.#trade = parts.trade;
    this.#firstSeenMs = parts.firstSeenMs;
    this.#datesChangedMs = parts.datesChangedMs;
    this.#text = TextIndex.fromParts(parts.text);
    this.#sources = [...parts.sources].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.#sourceIds = new Set(this.#sources.map((source) => source.id));
    const lengths = [parts.rowStarts.length - 1, parts.closingDay.length, parts.closingAtMs.length, parts.zone.length, parts.kind.length, parts.tier.length,
      parts.source.length, parts.buyer.length, parts.category.length, parts.trade.length, parts.firstSeenMs.length, parts.datesChangedMs.length];
    if (lengths.some((length) => length !== this.#size) || this.#text.documentCount !== this.#size) throw new Error('tender index: parts of different lengths');
  }

  /** What an index file stores. */
  get parts(): TenderIndexParts {
    return this.#parts;
  }

  /** The tender in `slot`: the same object each time. */
  #tenderAt(slot: number): IndexedTender {
    let tender = this.#stored[slot];
    if (tender === undefined) {
      const closingDay = this.#closingDay[slot]!;
      const trade = this.#trade[slot]!;
      tender = new StoredTender({
        jurisdiction: JURISDICTIONS[this.#zone[slot]!]!,
        kind: TENDER_KINDS[this.#kind[slot]!]!,
        tier: TIERS[this.#tier[slot]!]!,
        closingDate: closingDay === NO_CLOSING_DAY ? null : new Date(closingDay * DAY_MS).toISOString().slice(0, 10),
        trade: trade === -1 ? null : TRADE_IDS[trade]!,
      }, this.#rowText, this.#rowStarts[slot]!, this.#rowStarts[slot + 1]!);
      this.#stored[slot] = tender;
    }
    return tender;
  }

  get size(): number {
    return this.#size;
  }

  get sources(): readonly SourceRow[] {
    return this.#sources;
  }

  hasSource(id: string): boolean {
    return this.#sourceIds.has(id);
  }

  /** One tender by key, closed or not, with whether it is open at `now` in its buyer's day. */
  get(key: string, now: Date): TenderHit | null {
    const slot = this.#slotByKey.get(key);
    if (slot === undefined) return null;
    return { tender: this.#tenderAt(slot), open: this.#isOpen(slot, todayBySlot(now)) };
  }

  /**
   * Matching tenders, one page of them, and how many match in all. With `q` the order is relevance
   * unless `page.sort` asks for closing date; in closing order open tenders come soonest first (no
   * closing date last), then closed ones (only with `include_closed`) most recently closed first.
   */
  search(filters: TenderFilters, page: TenderPage, now: Date): SearchOutcome {
    const today = todayBySlot(now);
    const matches = this.#matcher(filters, today, now);
    const includeClosed = filters.include_closed === true;
    const hit = (slot: number): TenderHit => ({ tender: this.#tenderAt(slot), open: this.#isOpen(slot, today) });

    const q = filters.q?.trim();
    if (q) {
      const accept = includeClosed ? matches : (slot: number) => matches(slot) && this.#isOpen(slot, today);
      if (page.sort === 'closing') {
        const found = new Uint8Array(this.#size);
        for (const slot of this.#text.matching(q, accept)) found[slot] = 1;
        return this.#inClosingOrder(matches, page, today, includeClosed, hit, found);
      }
      const { total, ranked } = this.#text.search(q, accept, page.offset + page.limit);
      return { total, hits: Array.from(ranked.subarray(page.offset), hit) };
    }
    return this.#inClosingOrder(matches, page, today, includeClosed, hit);
  }

  /**
   * One page of the slots passing `matches` (and marked in `found`, a word search's matches, when given) in slot
   * (closing) order: open ones first, then closed ones most recently closed first. `matches` is always a
   * #matcher predicate, so the call in this loop over every slot sees one kind of function and stays inlinable.
   */
  #inClosingOrder(matches: (slot: number) => boolean, page: TenderPage, today: Int32Array, includeClosed: boolean, hit: (slot: number) => TenderHit, found?: Uint8Array): SearchOutcome {
    const end = page.offset + page.limit;
    const hits: TenderHit[] = [];
    let total = 0;
    const closed: number[] = [];
    for (let slot = 0; slot < this.#size; slot++) {
      if ((found !== undefined && found[slot] === 0) || !matches(slot)) continue;
      if (this.#isOpen(slot, today)) {
        if (total >= page.offset && total < end) hits.push(hit(slot));
        total++;
      } else if (includeClosed) {
        closed.push(slot);
      }
    }
    for (let i = closed.length - 1; i >= 0; i--) {
      if (total >= page.offset && total < end) hits.push(hit(closed[i]!));
      total++;
    }
    return { total, hits };
  }

  /**
   * The registry sources a search looked at (those publishing tenders or grants, within its
   * jurisdiction, kind and source filters) and which of them hold nothing tonight, with the reason.
   */
  coverage(filters: TenderFilters): Coverage {
    return coverageOf(this.#sources, {
      jurisdictions: filters.jurisdiction === undefined ? undefined : [filters.jurisdiction],
      kinds: filters.kind === undefined ? TENDER_KINDS : [filters.kind],
      source: filters.source,
    });
  }

  /**
   * Headline counts of open tenders in the default search scope (Australia): closing within 48 hours,
   * dates changed and first seen in the last 7 days. A tender with only a closing date counts as closing
   * within 48 hours when that date is today, tomorrow or the day after in its buyer's day.
   */
  strip(now: Date): Strip {
    const today = todayBySlot(now);
    const nowMs = now.getTime();
    const weekAgoMs = nowMs - 7 * DAY_MS;
    const counts: Strip = { closing_48h: 0, dates_changed_7d: 0, new_7d: 0 };
    for (let slot = 0; slot < this.#size; slot++) {
      if (this.#zone[slot] === NZ_SLOT || !this.#isOpen(slot, today)) continue;
      const closingAtMs = this.#closingAtMs[slot]!;
      if (Number.isNaN(closingAtMs)) {
        if (this.#closingDay[slot]! <= today[this.#zone[slot]!]! + 2) counts.closing_48h++;
      } else if (closingAtMs >= nowMs && closingAtMs <= nowMs + 48 * HOUR_MS) {
        counts.closing_48h++;
      }
      if (this.#datesChangedMs[slot]! > weekAgoMs) counts.dates_changed_7d++;
      if (this.#firstSeenMs[slot]! > weekAgoMs) counts.new_7d++;
    }
    return counts;
  }

  /** Open: no closing date, or a closing date of today or later in the buyer's day. */
  #isOpen(slot: number, today: Int32Array): boolean {
    return this.#closingDay[slot]! >= today[this.#zone[slot]!]!;
  }

  /** Every filter except `q` and open/closed, folded into one predicate over slots. */
  #matcher(filters: TenderFilters, today: Int32Array, now: Date): (slot: number) => boolean {
    const zones = this.#zone;
    const kinds = this.#kind;
    const tiers = this.#tier;
    const sources = this.#source;
    const buyers = this.#buyer;
    const categories = this.#category;
    const trades = this.#trade;
    const closingDays = this.#closingDay;
    const datesChangedMs = this.#datesChangedMs;
    const firstSeenMs = this.#firstSeenMs;

    const inScope = Uint8Array.from(JURISDICTIONS, (jurisdiction) =>
      Number(filters.jurisdiction === undefined ? jurisdiction !== 'NZ' : withinScope(jurisdiction, filters.jurisdiction)),
    );
    const kind = filters.kind === undefined ? -1 : TENDER_KINDS.indexOf(filters.kind);
    const tier = filters.tier === undefined ? -1 : TIERS.indexOf(filters.tier);
    // A value no tender holds gets a code no slot carries (-2), so it matches nothing.
    const source = filters.source === undefined ? -1 : (this.#sourceCodes.get(filters.source) ?? -2);
    const buyer = filters.buyer === undefined ? -1 : (this.#buyerCodes.get(normaliseForKey(filters.buyer)) ?? -2);
    const trade = filters.trade === undefined ? -1 : TRADE_IDS.indexOf(filters.trade);
    const prefix = filters.category === undefined ? undefined : categoryPrefix(filters.category);
    const categoryDivisor = prefix === undefined ? 0 : 10 ** (8 - prefix.length);
    const categoryParent = prefix === undefined ? 0 : Number(prefix);
    const closingBefore = filters.closing_before === undefined ? NO_CLOSING_DAY : dayNumber(filters.closing_before);
    const withinDays = filters.closing_within_days ?? -1;
    const changedSinceMs = filters.changed_within_days === undefined ? undefined : now.getTime() - filters.changed_within_days * DAY_MS;
    const firstSeenAfterMs = filters.first_seen_after === undefined ? undefined : Date.parse(filters.first_seen_after);

    return (slot) => {
      const zone = zones[slot]!;
      if (inScope[zone] === 0) return false;
      if (kind !== -1 && kinds[slot] !== kind) return false;
      if (tier !== -1 && tiers[slot] !== tier) return false;
      if (source !== -1 && sources[slot] !== source) return false;
      if (buyer !== -1 && buyers[slot] !== buyer) return false;
      if (trade !== -1 && trades[slot] !== trade) return false;
      if (categoryDivisor !== 0) {
        const category = categories[slot]!;
        if (category < 0 || Math.floor(category / categoryDivisor) !== categoryParent) return false;
      }
      const closingDay = closingDays[slot]!;
      // Without closing_before this bound is NO_CLOSING_DAY, which every tender meets.
      if (closingDay > closingBefore) return false;
      if (withinDays !== -1 && (closingDay < today[zone]! || closingDay > today[zone]! + withinDays)) return false;
      if (changedSinceMs !== undefined && !(datesChangedMs[slot]! >= changedSinceMs)) return false;
      if (firstSeenAfterMs !== undefined && firstSeenMs[slot]! <= firstSeenAfterMs) return false;
      return true;
    };
  }
}

/** Field boosts: a word in the title says more about a tender than the same word in its summary. */
const FIELD_BOOSTS = [3, 1, 1, 1]; // title, summary, buyer, trade name

/** What an index file stores of a TenderIndex. */
export const TenderIndexParts = z.object({
  skipped: z.number().int().nonnegative(),
  /** Each tender's row as JSON text, end to end: slot s at rowStarts[s] .. rowStarts[s + 1]. */
  rowText: packed.bytes,
  rowStarts: packed.int32,
  keys: z.array(z.string()),
  closingDay: packed.int32,
  closingAtMs: packed.float64,
  zone: packed.uint8,
  kind: packed.uint8,
  tier: packed.uint8,
  source: packed.int32,
  buyer: packed.int32,
  category: packed.int32,
  trade: packed.int16,
  firstSeenMs: packed.float64,
  datesChangedMs: packed.float64,
  /** Source ids and normalised buyer names, each at its code. */
  sourceCodes: z.array(z.string()),
  buyerCodes: z.array(z.string()),
  sources: z.array(SourceRow),
  text: TextIndexParts,
});
export type TenderIndexParts = z.infer<typeof TenderIndexParts>;

function codeOf(codes: Map<string, number>, value: string): number {
  let code = codes.get(value);
  if (code === undefined) codes.set(value, (code = codes.size));
  return code;
}

function isTenderKind(value: string): value is TenderKind {
  return (TENDER_KINDS as readonly string[]).includes(value);
}

function isTier(value: string): value is Tier {
  return (TIERS as readonly string[]).includes(value);
}

/** Closing date soonest first, no closing date last; on one day a published time first and earliest; then by key. */
function compareClosing(a: IndexedTender, b: IndexedTender): number {
  if (a.closingDate !== b.closingDate) {
    if (a.closingDate === null) return 1;
    if (b.closingDate === null) return -1;
    return a.closingDate < b.closingDate ? -1 : 1;
  }
  const aTime = a.row.closing_at ?? '\uffff';
  const bTime = b.row.closing_at ?? '\uffff';
  if (aTime !== bTime) return aTime < bTime ? -1 : 1;
  return a.row.tender_key < b.row.tender_key ? -1 : a.row.tender_key > b.row.tender_key ? 1 : 0;
}

