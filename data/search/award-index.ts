import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JURISDICTIONS, type Jurisdiction } from '../../lib/jurisdictions.ts';
import { normaliseBuyerName } from '../../lib/keys.ts';
import { openStore, sqlString, type Store } from '../store.ts';
import type { AwardRow } from '../intelligence/award.ts';
import { z } from 'zod';
import { Postings, PostingsBuilder, PostingsParts, ScratchInts, unionThrough } from './award-postings.ts';
import { AwardRows, AwardRowsBuilder, AwardRowsParts, type StoredAwardFields } from './award-rows.ts';
import { packed, type IndexFileHandle } from './index-file.ts';
import { termsOf } from './text-index.ts';

/**
 * What GET /v1/awards filters on, as the index reads it. Buyer names arrive as the keys they could have
 * (one per jurisdiction), so the index needs no buyer names.
 */
export interface AwardIndexQuery {
  buyerKeys?: string[];
  buyerKey?: string;
  /** Supplier name as published: compared ignoring case and runs of spaces. */
  supplier?: string;
  supplierKey?: string;
  jurisdiction?: Jurisdiction;
  /** ISO date: awards dated on or after it. */
  since?: string;
  /** Free text: every word must begin a word of the title, description or buyer (or supplier, with `supplierWords`). */
  q?: string;
  /** Whether words also search supplier names (only for callers who may see them). */
  supplierWords?: boolean;
}

export interface AwardIndexPage {
  /** How many awards match. */
  total: number;
  /** The page's awards, most recent first. */
  rows: AwardRow[];
}

export const AwardIndexParts = z.object({
  days: packed.int32,
  jurisdictions: packed.uint8,
  rows: AwardRowsParts,
  buyerKeys: PostingsParts,
  supplierKeys: PostingsParts,
  supplierNames: PostingsParts,
  publicWords: PostingsParts,
  supplierWords: PostingsParts,
});
export type AwardIndexParts = z.infer<typeof AwardIndexParts>;

const DAY_MS = 86_400_000;
// why: 128MB could not pin the ordered read of 4.75M awards (BENCH_SCALE=history); the index is built in the nightly's
// child process, not the API, so the API's memory goal does not bind it
const READER_MEMORY = '1GB';
const NO_JURISDICTION = 255;

/**
 * The awards of one release in the order GET /v1/awards returns them (award day newest first, then
 * contract id and source): the day and jurisdiction, postings of buyer keys, supplier keys, supplier names
 * and words for filtering, and the page fields packed (AwardRows). A request filters, counts and renders
 * its page here, with no query: DuckDB answers a 20-row read in milliseconds, which 20 connections queue on.
 *
 * Positions are ranks in that order.
 */
export class AwardIndex {
  readonly size: number;
  /** Days since 1970-01-01 of each position's award day: descending, so `since` cuts a prefix. */
  readonly #days: Int32Array;
  /** Each position's index in JURISDICTIONS. */
  readonly #jurisdictions: Uint8Array;
  /** For each jurisdiction filter value, the positions it matches (a country: every jurisdiction within it). */
  readonly #withinJurisdiction: Map<Jurisdiction, Int32Array>;
  readonly #rows: AwardRows;
  readonly #buyerKeys: Postings;
  readonly #supplierKeys: Postings;
  readonly #supplierNames: Postings;
  /** Words of title, description and buyer. */
  readonly #publicWords: Postings;
  /** Words of supplier names. */
  readonly #supplierWords: Postings;
  /** Zeroed scratch bitset over positions, for merging postings (requests run one at a time in JS). */
  readonly #bits: Uint32Array;
  /** Buffers for the lists a query reads and merges, reused query after query. */
  readonly #scratch = new ScratchInts();
  readonly #file: IndexFileHandle | null;

  constructor(parts: {
    days: Int32Array; jurisdictions: Uint8Array; rows: AwardRows; buyerKeys: Postings; supplierKeys: Postings; supplierNames: Postings;
    publicWords: Postings; supplierWords: Postings;
  }, file: IndexFileHandle | null = null) {
    this.#file = file;
    this.size = parts.days.length;
    this.#days = parts.days;
    this.#jurisdictions = parts.jurisdictions;
    this.#rows = parts.rows;
    this.#buyerKeys = parts.buyerKeys;
    this.#supplierKeys = parts.supplierKeys;
    this.#supplierNames = parts.supplierNames;
    this.#publicWords = parts.publicWords;
    this.#supplierWords = parts.supplierWords;
    this.#bits = new Uint32Array((this.size + 31) >>> 5);
    this.#withinJurisdiction = new Map(JURISDICTIONS.map((jurisdiction) => [jurisdiction, this.#positionsWithin(jurisdiction)]));
  }

  /** An index from the parts an index file stores, reading its page blocks and postings lists through `file` when they were left there. */
  static fromParts(parts: AwardIndexParts, file: IndexFileHandle | null = null): AwardIndex {
    return new AwardIndex({
      days: parts.days, jurisdictions: parts.jurisdictions, rows: new AwardRows(parts.rows),
      buyerKeys: Postings.fromParts(parts.buyerKeys), supplierKeys: Postings.fromParts(parts.supplierKeys),
      supplierNames: Postings.fromParts(parts.supplierNames), publicWords: Postings.fromParts(parts.publicWords),
      supplierWords: Postings.fromParts(parts.supplierWords),
    }, file);
  }

  /** What an index file stores: everything but what the constructor derives. */
  get parts(): AwardIndexParts {
    return {
      days: this.#days, jurisdictions: this.#jurisdictions, rows: this.#rows.parts,
      buyerKeys: this.#buyerKeys.parts, supplierKeys: this.#supplierKeys.parts, supplierNames: this.#supplierNames.parts,
      publicWords: this.#publicWords.parts, supplierWords: this.#supplierWords.parts,
    };
  }

  /** Closes the index file the page blocks and postings lists are read from (nothing to do for an index built in memory). */
  close(): void {
    this.#file?.close();
  }

  /** The awards matching every filter: how many, and `limit` of them from `offset`, most recent first. */
  find(query: AwardIndexQuery, page: { limit: number; offset: number }): AwardIndexPage {
    const scratch = this.#scratch;
    scratch.reset();
    const lists: Int32Array[] = [];
    if (query.buyerKeys !== undefined) lists.push(this.#anyOf(query.buyerKeys.map((key) => this.#buyerKeys.of(key, scratch))));
    if (query.buyerKey !== undefined) lists.push(this.#buyerKeys.of(query.buyerKey, scratch));
    if (query.supplier !== undefined) lists.push(this.#supplierNames.of(normaliseBuyerName(query.supplier), scratch));
    if (query.supplierKey !== undefined) lists.push(this.#supplierKeys.of(query.supplierKey, scratch));
    for (const word of query.q === undefined ? [] : new Set(termsOf(query.q))) {
      const inPublic = this.#publicWords.withPrefix(word, this.size, this.#bits, scratch);
      lists.push(query.supplierWords ? this.#anyOf([inPublic, this.#supplierWords.withPrefix(word, this.size, this.#bits, scratch)]) : inPublic);
    }
    const end = query.since === undefined ? this.size : this.#firstBefore(Date.parse(`${query.since}T00:00:00Z`) / DAY_MS);
    let keep: ((position: number) => boolean) | undefined;
    if (query.jurisdiction !== undefined && lists.length === 0) lists.push(this.#withinJurisdiction.get(query.jurisdiction)!);
    else if (query.jurisdiction !== undefined) {
      // beside other filters, a look-up per candidate is cheaper than walking a list of most of the table
      const codes = this.#jurisdictions;
      const allowed = codesWithin(query.jurisdiction).reduce((mask, code) => mask | (1 << code), 0);
      keep = (position) => ((allowed >>> codes[position]!) & 1) === 1;
    }
    const positions = intersect(lists, end, page.offset, page.limit, keep);
    return { total: positions.total, rows: this.#rows.rowsAt(positions.page) };
  }

  /** The first position dated before `day` (days descending). */
  #firstBefore(day: number): number {
    let low = 0;
    let high = this.size;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.#days[mid]! >= day) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  #anyOf(lists: Int32Array[]): Int32Array {
    const nonEmpty = lists.filter((list) => list.length > 0);
    if (nonEmpty.length <= 1) return nonEmpty[0] ?? new Int32Array(0);
    const joined = this.#scratch.take(nonEmpty.reduce((sum, list) => sum + list.length, 0));
    let at = 0;
    for (const list of nonEmpty) {
      joined.set(list, at);
      at += list.length;
    }
    return unionThrough(joined, this.size, this.#bits, this.#scratch);
  }

  #positionsWithin(jurisdiction: Jurisdiction): Int32Array {
    const codes = new Set(codesWithin(jurisdiction));
    let count = 0;
    for (let position = 0; position < this.size; position += 1) if (codes.has(this.#jurisdictions[position]!)) count += 1;
    const positions = new Int32Array(count);
    let next = 0;
    for (let position = 0; position < this.size; position += 1) if (codes.has(this.#jurisdictions[position]!)) positions[next++] = position;
    return positions;
  }
}

/** The JURISDICTIONS indexes a jurisdiction filter matches: a country matches every jurisdiction within it. */
function codesWithin(jurisdiction: Jurisdiction): number[] {
  return JURISDICTIONS.flatMap((j, code) => (j === jurisdiction || (jurisdiction === 'AU' && j.startsWith('AU-')) ? [code] : []));
}

/**
 * The positions below `end` in every list and kept by `keep` (all positions below `end` when there are none): how many, and
 * `limit` of them from `offset`. The shortest list leads; the others are searched forward from where the
 * last match left them, by galloping, so a short list against a long one costs little.
 */
export function intersect(
  lists: Int32Array[], end: number, offset: number, limit: number, keep?: (position: number) => boolean,
): { total: number; page: number[] } {
  if (lists.length === 0 && keep) throw new Error('intersect: a kept subset needs a list to lead');
  if (lists.length === 0) {
    const page: number[] = [];
    for (let position = offset; position < Math.min(end, offset + limit); position += 1) page.push(position);
    return { total: end, page };
  }
  const [lead, ...others] = [...lists].sort((a, b) => a.length - b.length) as [Int32Array, ...Int32Array[]];
  const leadEnd = lowerBound(lead, 0, lead.length, end);
  if (others.length === 0 && !keep) return { total: leadEnd, page: Array.from(lead.subarray(Math.min(offset, leadEnd), Math.min(offset + limit, leadEnd))) };
  const cursors = new Int32Array(others.length);
  const page: number[] = [];
  let total = 0;
  leading: for (let i = 0; i < leadEnd; i += 1) {
    const position = lead[i]!;
    if (keep && !keep(position)) continue;
    for (let k = 0; k < others.length; k += 1) {
      const list = others[k]!;
      const at = gallop(list, cursors[k]!, position);
      cursors[k] = at;
      if (at === list.length) break leading; // this list has nothing at or after `position`: no later match
      if (list[at] !== position) continue leading;
    }
    if (total >= offset && page.length < limit) page.push(position);
    total += 1;
  }
  return { total, page };
}

/** The first index in `[from, to)` whose value is at least `value` (`to` when none is). */
function lowerBound(list: Int32Array, from: number, to: number, value: number): number {
  let low = from;
  let high = to;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (list[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** lowerBound from `from`, probing 1, 2, 4… ahead first: cheap when the answer is near. */
function gallop(list: Int32Array, from: number, value: number): number {
  if (from >= list.length || list[from]! >= value) return from;
  let step = 1;
  let low = from;
  while (low + step < list.length && list[low + step]! < value) {
    low += step;
    step *= 2;
  }
  return lowerBound(list, low + 1, Math.min(low + step + 1, list.length), value);
}

// The index's order and fields. The day is the awards model's award_day (data/models/awards.sql).
const INDEX_SQL = `SELECT
    (award_day - DATE '1970-01-01')::INTEGER AS day,
    contract_id, buyer, buyer_key, jurisdiction, title, value_amount::DOUBLE AS value_amount, value_currency,
    (awarded_date - DATE '1970-01-01')::INTEGER AS awarded_day, (start_date - DATE '1970-01-01')::INTEGER AS start_day,
    (end_date - DATE '1970-01-01')::INTEGER AS end_day, to_json(categories)::VARCHAR AS categories_json, trade, source, url,
    supplier, supplier_id, supplier_key, description
  FROM awards
  ORDER BY day DESC, contract_id, source`;

type IndexedAward = StoredAwardFields & { day: number; description: string | null };

/**
 * Reads the release's awards in order, in chunks, into an AwardIndex. A read-only store file is read
 * through a second DuckDB instance closed afterwards: reading every award would otherwise leave the
 * serving instance holding the whole table and the sort's memory for as long as the release is served. Given
 * `readOnlyPath` (the file the serving store opened read-only), the serving connection is never queried.
 */
export async function readAwardIndex(store: Store, readOnlyPath?: string): Promise<AwardIndex> {
  let path = readOnlyPath;
  if (path === undefined) {
    const [database] = await store.all<{ path: string | null; readonly: boolean }>('SELECT path, readonly FROM duckdb_databases() WHERE database_name = current_database()');
    if (!database?.readonly || !database.path) return readAwards(store);
    path = database.path;
  }
  const reader = await openStore(path, { readOnly: true });
  try {
    // the ordered read sorts every award: past this it spills to disk rather than growing the process
    await reader.exec(`SET memory_limit = '${READER_MEMORY}'; SET temp_directory = ${sqlString(join(tmpdir(), `award-index-${process.pid}`))}`);
    return await readAwards(reader);
  } finally {
    reader.close();
  }
}

async function readAwards(store: Store): Promise<AwardIndex> {
  const [counted] = await store.all<{ size: number }>('SELECT count(*)::INTEGER AS size FROM awards');
  const size = counted?.size ?? 0;
  const days = new Int32Array(size);
  const jurisdictions = new Uint8Array(size);
  const rows = new AwardRowsBuilder();
  const buyerKeys = new PostingsBuilder();
  const supplierKeys = new PostingsBuilder();
  const supplierNames = new PostingsBuilder();
  const publicWords = new PostingsBuilder();
  const supplierWords = new PostingsBuilder();
  // buyers and suppliers repeat across many awards: split each spelling once
  const wordsOfBuyer = new Map<string, string[]>();
  const wordsOfSupplier = new Map<string, { name: string; words: string[] }>();
  const codeOf = new Map<string, number>(JURISDICTIONS.map((jurisdiction, code) => [jurisdiction, code]));

  const result = await store.connection.stream(INDEX_SQL);
  const columns = result.columnNames() as (keyof IndexedAward)[];
  let position = 0;
  for await (const chunk of result) {
    const vectors = columns.map((_, column) => chunk.getColumnVector(column));
    for (let row = 0; row < chunk.rowCount; row += 1, position += 1) {
      const award = Object.fromEntries(columns.map((name, column) => [name, vectors[column]!.getItem(row)])) as unknown as IndexedAward;
      rows.add(award);
      days[position] = award.day;
      jurisdictions[position] = codeOf.get(award.jurisdiction) ?? NO_JURISDICTION;
      if (award.buyer_key !== null) buyerKeys.add(award.buyer_key, position);
      if (award.supplier_key !== null) supplierKeys.add(award.supplier_key, position);
      for (const text of [award.title, award.description]) {
        if (text !== null) for (const word of termsOf(text)) publicWords.add(word, position);
      }
      let buyerWords = wordsOfBuyer.get(award.buyer);
      if (!buyerWords) wordsOfBuyer.set(award.buyer, (buyerWords = termsOf(award.buyer)));
      for (const word of buyerWords) publicWords.add(word, position);
      if (award.supplier !== null) {
        let split = wordsOfSupplier.get(award.supplier);
        if (!split) wordsOfSupplier.set(award.supplier, (split = { name: normaliseBuyerName(award.supplier), words: termsOf(award.supplier) }));
        supplierNames.add(split.name, position);
        for (const word of split.words) supplierWords.add(word, position);
      }
    }
  }
  if (position !== size) throw new Error(`award index: read ${position} awards, expected ${size}`);
  return new AwardIndex({
    days, jurisdictions, rows: rows.build(),
    buyerKeys: buyerKeys.build(), supplierKeys: supplierKeys.build(), supplierNames: supplierNames.build(),
    publicWords: publicWords.build(), supplierWords: supplierWords.build(),
  });
}

const indexes = new WeakMap<Store, { built: Promise<AwardIndex>; ready: AwardIndex | null }>();

/** The award index of a release's store: the one given by useAwardIndex, else read from the store on first use, and kept while the store is. */
export function awardIndexOf(store: Store, readOnlyPath?: string): Promise<AwardIndex> {
  return reading(store, () => readAwardIndex(store, readOnlyPath)).built;
}

/** The store's award index if it is built; otherwise null, and the read is under way. */
export function builtAwardIndex(store: Store): AwardIndex | null {
  return reading(store, () => readAwardIndex(store)).ready;
}

/** Serves `store`'s awards from `index` (loaded from the release's index file) instead of reading the store. */
export function useAwardIndex(store: Store, index: Promise<AwardIndex>): void {
  indexes.delete(store);
  reading(store, () => index);
}

function reading(store: Store, read: () => Promise<AwardIndex>): { built: Promise<AwardIndex>; ready: AwardIndex | null } {
  let entry = indexes.get(store);
  if (!entry) {
    const started: { built: Promise<AwardIndex>; ready: AwardIndex | null } = { built: read(), ready: null };
    started.built.then(
      (index) => {
        started.ready = index;
      },
      // a failed read is not kept: the next request tries again
      () => indexes.delete(store),
    );
    indexes.set(store, (entry = started));
  }
  return entry;
}
