import { z } from 'zod';
import { packed, textOf, type ByteSource } from './index-file.ts';
import type { AwardRow } from '../intelligence/award.ts';
import { GrowingInts } from './award-postings.ts';

/** Awards per block: few enough to parse for one row, many enough that a page reads few blocks. */
const BLOCK = 32;
const DAY_MS = 86_400_000;
const BLOCK_CHUNK = 4 << 20;

/** Each distinct value once, numbered in order of arrival. */
class Interner<T> {
  readonly values: T[] = [];
  readonly #ids = new Map<string, number>();

  idOf(key: string, value: () => T): number {
    let id = this.#ids.get(key);
    if (id === undefined) {
      id = this.values.length;
      this.#ids.set(key, id);
      this.values.push(value());
    }
    return id;
  }
}

/** One award's page fields as read from the awards table; days count from 1970-01-01. */
export interface StoredAwardFields {
  contract_id: string;
  buyer: string;
  buyer_key: string | null;
  jurisdiction: string;
  title: string;
  value_amount: number | null;
  value_currency: string | null;
  awarded_day: number | null;
  start_day: number | null;
  end_day: number | null;
  /** The UNSPSC codes as a JSON array. */
  categories_json: string;
  trade: string | null;
  source: string;
  url: string;
  supplier: string | null;
  supplier_id: string | null;
  supplier_key: string | null;
}

const nullableString = z.string().nullable();
export const AwardRowsParts = z.object({
  buyers: z.array(z.tuple([z.string(), nullableString])),
  suppliers: z.array(z.tuple([nullableString, nullableString, nullableString])),
  labels: z.array(nullableString),
  categoryLists: z.array(z.array(z.string())),
  blocks: packed.bytes,
  blockStarts: packed.int32,
});
export type AwardRowsParts = z.infer<typeof AwardRowsParts>;

/**
 * One award in a block: its texts as they are, the repeated values as numbers of the tables, the value and
 * days (null when absent).
 */
type BlockRow = [
  contractId: string, title: string, url: string, buyerId: number, supplierId: number, categoryId: number,
  jurisdiction: number, currency: number, trade: number, source: number, value: number | null,
  awardedDay: number | null, startDay: number | null, endDay: number | null,
];

/**
 * Every award's page fields in the index's order, compact: repeated values (buyers, suppliers, sources,
 * currencies, category lists) are numbered once in tables kept in memory, and each award's own fields
 * (contract id, title, link, the numbers of its table values, its value and days) are JSON in blocks of 32.
 * A page parses the blocks its rows are in; a loaded index leaves the blocks in its file, so the API holds
 * only the tables. The blocks are not compressed: inflating gave every page a new buffer per block, and at
 * thousands of pages a second those buffers held the API's memory tens of megabytes above its goal.
 */
export class AwardRows {
  readonly #buyers: [string, string | null][];
  readonly #suppliers: [string | null, string | null, string | null][];
  readonly #labels: (string | null)[];
  readonly #categoryLists: string[][];
  /** In memory when built, left in the index file when loaded from one. */
  readonly #blocks: ByteSource;
  readonly #blockStarts: Int32Array;

  readonly #parts: AwardRowsParts;

  constructor(parts: AwardRowsParts) {
    this.#parts = parts;
    this.#buyers = parts.buyers;
    this.#suppliers = parts.suppliers;
    this.#labels = parts.labels;
    this.#categoryLists = parts.categoryLists;
    this.#blocks = parts.blocks;
    this.#blockStarts = parts.blockStarts;
  }

  /** What an index file stores. */
  get parts(): AwardRowsParts {
    return this.#parts;
  }

  /** The rows at these positions, in the order given. */
  rowsAt(positions: readonly number[]): AwardRow[] {
    const blocks = new Map<number, BlockRow[]>();
    return positions.map((position) => {
      const block = Math.floor(position / BLOCK);
      let rows = blocks.get(block);
      if (!rows) {
        rows = JSON.parse(textOf(this.#blocks, this.#blockStarts[block]!, this.#blockStarts[block + 1]!)) as BlockRow[];
        blocks.set(block, rows);
      }
      const [contractId, title, url, buyerId, supplierId, categoryId, jurisdiction, currency, trade, source, value, awardedDay, startDay, endDay] = rows[position % BLOCK]!;
      const [buyer, buyerKey] = this.#buyers[buyerId]!;
      const [supplier, supplierIdentifier, supplierKey] = this.#suppliers[supplierId]!;
      return {
        contract_id: contractId,
        buyer,
        buyer_key: buyerKey,
        jurisdiction: this.#labels[jurisdiction] ?? '',
        title,
        value_amount: value,
        value_currency: this.#labels[currency]!,
        awarded_date: isoDay(awardedDay),
        start_date: isoDay(startDay),
        end_date: isoDay(endDay),
        categories: [...this.#categoryLists[categoryId]!],
        trade: this.#labels[trade]!,
        source: this.#labels[source] ?? '',
        url,
        supplier,
        supplier_id: supplierIdentifier,
        supplier_key: supplierKey,
      };
    });
  }
}

function isoDay(day: number | null): string | null {
  return day === null ? null : new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Takes awards in the index's order, one at a time, and packs them as AwardRows. */
export class AwardRowsBuilder {
  readonly #buyers = new Interner<[string, string | null]>();
  readonly #suppliers = new Interner<[string | null, string | null, string | null]>();
  readonly #labels = new Interner<string | null>();
  readonly #categoryLists = new Interner<string[]>();
  /** The blocks, end to end, in fixed chunks (see GrowingInts), and where each block starts. */
  readonly #blockChunks: Buffer[] = [];
  #blockBytes = 0;
  readonly #blockStarts = new GrowingInts();
  #pendingRows: BlockRow[] = [];

  add(fields: StoredAwardFields): void {
    const label = (value: string | null) => this.#labels.idOf(JSON.stringify(value), () => value);
    this.#pendingRows.push([
      fields.contract_id, fields.title, fields.url,
      this.#buyers.idOf(JSON.stringify([fields.buyer, fields.buyer_key]), () => [fields.buyer, fields.buyer_key]),
      this.#suppliers.idOf(JSON.stringify([fields.supplier, fields.supplier_id, fields.supplier_key]), () => [fields.supplier, fields.supplier_id, fields.supplier_key]),
      this.#categoryLists.idOf(fields.categories_json, () => JSON.parse(fields.categories_json) as string[]),
      label(fields.jurisdiction), label(fields.value_currency), label(fields.trade), label(fields.source),
      fields.value_amount, fields.awarded_day, fields.start_day, fields.end_day,
    ]);
    if (this.#pendingRows.length === BLOCK) this.#closeBlock();
  }

  build(): AwardRows {
    if (this.#pendingRows.length > 0) this.#closeBlock();
    const blockStarts = new Int32Array(this.#blockStarts.length + 1);
    for (let i = 0; i < this.#blockStarts.length; i += 1) blockStarts[i] = this.#blockStarts.at(i);
    blockStarts[this.#blockStarts.length] = this.#blockBytes;
    const blocks = Buffer.allocUnsafeSlow(this.#blockBytes);
    this.#blockChunks.forEach((chunk, i) => chunk.copy(blocks, i * BLOCK_CHUNK, 0, Math.min(BLOCK_CHUNK, this.#blockBytes - i * BLOCK_CHUNK)));
    return new AwardRows({
      buyers: this.#buyers.values, suppliers: this.#suppliers.values, labels: this.#labels.values, categoryLists: this.#categoryLists.values,
      blocks, blockStarts,
    });
  }

  #closeBlock(): void {
    const block = Buffer.from(JSON.stringify(this.#pendingRows), 'utf8');
    this.#pendingRows = [];
    this.#blockStarts.push(this.#blockBytes);
    for (let copied = 0; copied < block.length;) {
      const offset = this.#blockBytes % BLOCK_CHUNK;
      if (offset === 0) this.#blockChunks.push(Buffer.allocUnsafeSlow(BLOCK_CHUNK));
      const length = Math.min(block.length - copied, BLOCK_CHUNK - offset);
      block.copy(this.#blockChunks[this.#blockChunks.length - 1]!, offset, copied, copied + length);
      copied += length;
      this.#blockBytes += length;
    }
  }
}
