import { TRADES } from '../../lib/trades.ts';
import SearchableMap from 'minisearch/SearchableMap';
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
import { z } from 'zod';
import { packed, textOf, type ByteSource, type IndexFileHandle } from './index-file.ts';

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

export interface EmptySource {
  source: string;
  status: string;
  why: string;
}

export interface Coverage {
  sources_total: number;
  sources_empty: EmptySource[];
}

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
// Building the index yields to the event loop this often, so requests on the serving release keep flowing.
const DOCUMENTS_PER_TURN = 2_000;

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
    const text = await TextIndex.build(tenders.map(({ row }) => [row.title, row.summary ?? '', row.buyer ?? '', (row.trade && TRADE_NAMES.get(row.trade)) ?? '']));

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
    const kinds: readonly string[] = filters.kind === undefined ? TENDER_KINDS : [filters.kind];
    const inScope = this.#sources.filter((source) => {
      if (filters.source !== undefined && source.id !== filters.source) return false;
      if (!source.kinds.some((kind) => kinds.includes(kind))) return false;
      if (!isJurisdiction(source.jurisdiction)) return false;
      return filters.jurisdiction === undefined ? source.jurisdiction !== 'NZ' : withinScope(source.jurisdiction, filters.jurisdiction);
    });
    const empty = inScope
      .filter((source) => source.status !== 'ok' || source.tender_count === 0)
      .map((source) => ({ source: source.id, status: source.status, why: source.why ?? emptyReason(source) }));
    return { sources_total: inScope.length, sources_empty: empty };
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

/** Words too common to narrow a search; dropped from documents and queries alike so every query word can be required. */
const STOP_WORDS = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'into', 'of', 'on', 'or', 'the', 'to', 'with']);
// MiniSearch's tokenizer: words end at spaces and punctuation.
const WORD_BOUNDARY = /[\n\r\p{Z}\p{P}]+/u;
const NON_ASCII = /[^\u0000-\u007f]/;
const MARKS = /\p{M}/gu;

/** The search terms of a text: lower case, accents folded (`Māori` finds `Maori`), stop words dropped. */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  for (const word of text.split(WORD_BOUNDARY)) {
    if (word === '') continue;
    let term = word.toLowerCase();
    if (NON_ASCII.test(term)) term = term.normalize('NFKD').replace(MARKS, '');
    if (term !== '' && !STOP_WORDS.has(term)) terms.push(term);
  }
  return terms;
}

/** Field boosts: a word in the title says more about a tender than the same word in its summary. */
const FIELD_BOOSTS = [3, 1, 1, 1]; // title, summary, buyer, trade name
// BM25+ with MiniSearch's defaults, and its weights for words found by prefix or by one typo.
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
// Prefixes catch plurals and stems ("road" finds "roads", "roadworks"); shorter ones match too much.
const SHORTEST_PREFIX = 3;
// One typo in a long word is a typo; in a short word it is usually another word.
const SHORTEST_FUZZY = 6;
const MOST_QUERY_TERMS = 32;

const FieldPostings = z.object({
  boost: z.number(),
  /** Postings of term t are at offsets[t] .. offsets[t + 1] in docs and frequencies, docs ascending. */
  offsets: packed.int32,
  docs: packed.int32,
  frequencies: packed.uint16,
  lengths: packed.uint16,
  averageLength: z.number(),
});
type FieldPostings = z.infer<typeof FieldPostings>;

const TextIndexParts = z.object({
  /** The vocabulary, each term at its id. */
  terms: z.array(z.string()),
  documentCount: z.number().int().nonnegative(),
  fields: z.array(FieldPostings),
});
type TextIndexParts = z.infer<typeof TextIndexParts>;

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

/**
 * A BM25+ inverted index over a few text fields, every query word required. The vocabulary is a
 * MiniSearch radix tree (prefix and typo lookups); postings are typed arrays, and a query scores into
 * buffers reused from query to query. MiniSearch's own search builds objects for every matching
 * document, which measured 40-140 ms for a common word over 50,000 tenders; this takes about 1 ms.
 */
class TextIndex {
  readonly #parts: TextIndexParts;
  readonly #vocabulary: SearchableMap<number>;
  readonly #fields: FieldPostings[];
  readonly #documentCount: number;
  // Scratch space: queries run synchronously, one at a time, and leave it zeroed.
  readonly #scores: Float64Array;
  /** How many query terms (in processing order) a document has matched so far. */
  readonly #matched: Uint8Array;
  readonly #touched: Int32Array;
  readonly #pool: Int32Array;

  /** Indexes `documents[d][f]`, the text of field f of document d, yielding to the event loop as it goes. */
  static async build(documents: readonly (readonly string[])[]): Promise<TextIndex> {
    const count = documents.length;
    const termIds = new Map<string, number>();
    const collected = FIELD_BOOSTS.map(() => ({ terms: [] as number[], docs: [] as number[], frequencies: [] as number[], lengths: new Uint16Array(count), totalLength: 0 }));
    const frequencies = new Map<number, number>();
    for (let doc = 0; doc < count; doc++) {
      if (doc > 0 && doc % DOCUMENTS_PER_TURN === 0) await nextTurn();
      collected.forEach((field, fieldIndex) => {
        const terms = termsOf(documents[doc]![fieldIndex] ?? '');
        field.lengths[doc] = Math.min(terms.length, 0xffff);
        field.totalLength += terms.length;
        frequencies.clear();
        for (const term of terms) {
          let id = termIds.get(term);
          if (id === undefined) termIds.set(term, (id = termIds.size));
          frequencies.set(id, (frequencies.get(id) ?? 0) + 1);
        }
        for (const [id, frequency] of frequencies) {
          field.terms.push(id);
          field.docs.push(doc);
          field.frequencies.push(Math.min(frequency, 0xffff));
        }
      });
    }
    const fields: FieldPostings[] = [];
    for (const [fieldIndex, field] of collected.entries()) {
      await nextTurn();
      // Counting sort by term keeps each term's documents ascending, as they were added.
      const offsets = new Int32Array(termIds.size + 1);
      for (const id of field.terms) offsets[id + 1]!++;
      for (let id = 0; id < termIds.size; id++) offsets[id + 1]! += offsets[id]!;
      const cursor = offsets.slice(0, termIds.size);
      const docs = new Int32Array(field.docs.length);
      const postingFrequencies = new Uint16Array(field.docs.length);
      field.terms.forEach((id, posting) => {
        const at = cursor[id]!++;
        docs[at] = field.docs[posting]!;
        postingFrequencies[at] = field.frequencies[posting]!;
      });
      const averageLength = count === 0 ? 1 : Math.max(field.totalLength / count, 1);
      fields.push({ boost: FIELD_BOOSTS[fieldIndex]!, offsets, docs, frequencies: postingFrequencies, lengths: field.lengths, averageLength });
    }
    return new TextIndex({ terms: [...termIds.keys()], documentCount: count, fields });
  }

  static fromParts(parts: TextIndexParts): TextIndex {
    return new TextIndex(parts);
  }

  private constructor(parts: TextIndexParts) {
    const { terms, fields, documentCount } = parts;
    this.#parts = parts;
    this.#vocabulary = new SearchableMap<number>();
    terms.forEach((term, id) => this.#vocabulary.set(term, id));
    this.#fields = fields;
    this.#documentCount = documentCount;
    this.#scores = new Float64Array(documentCount);
    this.#matched = new Uint8Array(documentCount);
    this.#touched = new Int32Array(documentCount);
    this.#pool = new Int32Array(documentCount);
  }

  get parts(): TextIndexParts {
    return this.#parts;
  }

  get documentCount(): number {
    return this.#documentCount;
  }

  /**
   * Documents containing every word of `query` (or a longer word it starts, or a word one typo away)
   * and passing `accept`: how many, and the best `keep` of them by score, ties by document number.
   */
  search(query: string, accept: (doc: number) => boolean, keep: number): { total: number; ranked: Int32Array } {
    return this.#withMatches(query, accept, (pool, scores) => ({ total: pool.length, ranked: best(pool, keep, scores) }));
  }

  /** Every document `search` would count, in no particular order. */
  matching(query: string, accept: (doc: number) => boolean): Int32Array {
    return this.#withMatches(query, accept, (pool) => pool.slice());
  }

  /** Runs `use` on the documents matching `query` and passing `accept`, with their scores, before the scratch space is cleared. */
  #withMatches<T>(query: string, accept: (doc: number) => boolean, use: (pool: Int32Array, scores: Float64Array) => T): T {
    const words = [...new Set(termsOf(query))].slice(0, MOST_QUERY_TERMS);
    const expansions = words.map((word) => this.#expand(word));
    if (expansions.length === 0 || expansions.some((expansion) => expansion.size === 0)) return use(new Int32Array(0), this.#scores);
    // The rarest word first: it fixes the candidates, and later words only score those.
    expansions.sort((a, b) => this.#postingCount(a) - this.#postingCount(b));

    const scores = this.#scores;
    const matched = this.#matched;
    const touched = this.#touched;
    let touchedCount = 0;
    try {
      expansions.forEach((expansion, word) => {
        for (const [termId, weight] of expansion) {
          for (const field of this.#fields) {
            const start = field.offsets[termId]!;
            const end = field.offsets[termId + 1]!;
            if (start === end) continue;
            const documentFrequency = end - start;
            const idf = Math.log(1 + (this.#documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
            const termWeight = weight * field.boost * idf;
            const lengthScale = BM25.k * BM25.b / field.averageLength;
            const lengthBase = BM25.k * (1 - BM25.b);
            for (let posting = start; posting < end; posting++) {
              const doc = field.docs[posting]!;
              const seen = matched[doc]!;
              if (seen === word) {
                matched[doc] = word + 1;
                if (word === 0) touched[touchedCount++] = doc;
              } else if (seen !== word + 1) {
                continue; // missed an earlier word: cannot match them all
              }
              const frequency = field.frequencies[posting]!;
              scores[doc]! += termWeight * (BM25.d + (frequency * (BM25.k + 1)) / (frequency + lengthBase + lengthScale * field.lengths[doc]!));
            }
          }
        }
      });

      const pool = this.#pool;
      let total = 0;
      for (let i = 0; i < touchedCount; i++) {
        const doc = touched[i]!;
        if (matched[doc] === expansions.length && accept(doc)) pool[total++] = doc;
      }
      return use(pool.subarray(0, total), scores);
    } finally {
      for (let i = 0; i < touchedCount; i++) {
        scores[touched[i]!] = 0;
        matched[touched[i]!] = 0;
      }
    }
  }

  /** The vocabulary terms a query word stands for, with their weight: 1 for the word itself. */
  #expand(word: string): Map<number, number> {
    const weights = new Map<number, number>();
    const raise = (id: number, weight: number) => weights.set(id, Math.max(weight, weights.get(id) ?? 0));
    const exact = this.#vocabulary.get(word);
    if (exact !== undefined) weights.set(exact, 1);
    if (word.length >= SHORTEST_PREFIX) {
      for (const [term, id] of this.#vocabulary.atPrefix(word)) {
        const extra = term.length - word.length;
        if (extra > 0) raise(id, (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * extra));
      }
    }
    if (word.length >= SHORTEST_FUZZY) {
      for (const [term, [id, distance]] of this.#vocabulary.fuzzyGet(word, 1)) {
        if (distance > 0) raise(id, (FUZZY_WEIGHT * term.length) / (term.length + distance));
      }
    }
    return weights;
  }

  #postingCount(expansion: Map<number, number>): number {
    let count = 0;
    for (const termId of expansion.keys()) for (const field of this.#fields) count += field.offsets[termId + 1]! - field.offsets[termId]!;
    return count;
  }
}

/** The `keep` best documents of `pool` in order (higher score first, then lower number), without sorting them all. */
function best(pool: Int32Array, keep: number, scores: Float64Array): Int32Array {
  const order = (a: number, b: number) => scores[b]! - scores[a]! || a - b;
  if (pool.length <= keep) return pool.slice().sort(order);
  // A heap of the best `keep` so far with the weakest at the root, replaced whenever a better one comes.
  const heap = pool.slice(0, keep);
  for (let i = (keep >> 1) - 1; i >= 0; i--) siftWeakestUp(heap, i, order);
  for (let i = keep; i < pool.length; i++) {
    if (order(pool[i]!, heap[0]!) < 0) {
      heap[0] = pool[i]!;
      siftWeakestUp(heap, 0, order);
    }
  }
  return heap.sort(order);
}

function siftWeakestUp(heap: Int32Array, index: number, order: (a: number, b: number) => number): void {
  for (let parent = index; ;) {
    const left = 2 * parent + 1;
    const right = left + 1;
    let weakest = parent;
    if (left < heap.length && order(heap[left]!, heap[weakest]!) > 0) weakest = left;
    if (right < heap.length && order(heap[right]!, heap[weakest]!) > 0) weakest = right;
    if (weakest === parent) return;
    [heap[parent], heap[weakest]] = [heap[weakest]!, heap[parent]!];
    parent = weakest;
  }
}

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

/** A sentence for a registry row that is empty or failed without a recorded diagnosis. */
function emptyReason(source: SourceRow): string {
  if (source.status === 'ok') return 'The source answered on the last run but listed no tenders or grants.';
  if (source.status === 'not_run') return 'The source has not been run yet.';
  return `The last run ended with status ${source.status} and recorded no diagnosis.`;
}
