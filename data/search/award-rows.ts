import { z } from 'zod';
import { packed } from './index-file.ts';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { AwardRow } from '../intelligence/awards.ts';
import { GrowingInts } from './award-postings.ts';

/** Positions per compressed block of ids, titles and links: small enough to inflate for one row, large enough to compress. */
const BLOCK = 32;
const NO_DAY = -0x80000000;
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
  buyerIds: packed.int32,
  supplierIds: packed.int32,
  categoryIds: packed.int32,
  labelIds: packed.uint16,
  values: packed.float64,
  days: packed.int32,
  blocks: packed.buffer,
  blockStarts: packed.int32,
});
export type AwardRowsParts = z.infer<typeof AwardRowsParts>;

/**
 * Every award's page fields in the index's order, compact: repeated values (buyers, suppliers, sources,
 * currencies, category lists) are numbered once, numbers and days sit in typed arrays, and the values
 * nearly unique to an award (contract id, title, link) are deflated in blocks of 32. A page is rendered
 * from memory, with no query.
 */
export class AwardRows {
  readonly #buyers: [string, string | null][];
  readonly #suppliers: [string | null, string | null, string | null][];
  readonly #labels: (string | null)[];
  readonly #categoryLists: string[][];
  readonly #buyerIds: Int32Array;
  readonly #supplierIds: Int32Array;
  readonly #categoryIds: Int32Array;
  /** Per position: jurisdiction, currency, trade and source as label ids. */
  readonly #labelIds: Uint16Array;
  readonly #values: Float64Array;
  /** Per position: awarded, start and end day (NO_DAY when absent). */
  readonly #days: Int32Array;
  readonly #blocks: Buffer;
  readonly #blockStarts: Int32Array;

  readonly #parts: AwardRowsParts;

  constructor(parts: AwardRowsParts) {
    this.#parts = parts;
    this.#buyers = parts.buyers;
    this.#suppliers = parts.suppliers;
    this.#labels = parts.labels;
    this.#categoryLists = parts.categoryLists;
    this.#buyerIds = parts.buyerIds;
    this.#supplierIds = parts.supplierIds;
    this.#categoryIds = parts.categoryIds;
    this.#labelIds = parts.labelIds;
    this.#values = parts.values;
    this.#days = parts.days;
    this.#blocks = parts.blocks;
    this.#blockStarts = parts.blockStarts;
  }

  /** What an index file stores. */
  get parts(): AwardRowsParts {
    return this.#parts;
  }

  /** Bytes held in typed arrays and the compressed blocks (distinct strings come on top). */
  get bytes(): number {
    return [this.#buyerIds, this.#supplierIds, this.#categoryIds, this.#labelIds, this.#values, this.#days, this.#blocks, this.#blockStarts]
      .reduce((sum, array) => sum + array.byteLength, 0);
  }

  /** The rows at these positions, in the order given. */
  rowsAt(positions: readonly number[]): AwardRow[] {
    const blocks = new Map<number, string[]>();
    return positions.map((position) => {
      const block = Math.floor(position / BLOCK);
      let texts = blocks.get(block);
      if (!texts) {
        texts = JSON.parse(inflateRawSync(this.#blocks.subarray(this.#blockStarts[block]!, this.#blockStarts[block + 1]!)).toString('utf8')) as string[];
        blocks.set(block, texts);
      }
      const at = (position % BLOCK) * 3;
      const [buyer, buyerKey] = this.#buyers[this.#buyerIds[position]!]!;
      const [supplier, supplierId, supplierKey] = this.#suppliers[this.#supplierIds[position]!]!;
      const value = this.#values[position]!;
      return {
        contract_id: texts[at]!,
        buyer,
        buyer_key: buyerKey,
        jurisdiction: this.#labels[this.#labelIds[position * 4]!] ?? '',
        title: texts[at + 1]!,
        value_amount: Number.isNaN(value) ? null : value,
        value_currency: this.#labels[this.#labelIds[position * 4 + 1]!]!,
        awarded_date: isoDay(this.#days[position * 3]!),
        start_date: isoDay(this.#days[position * 3 + 1]!),
        end_date: isoDay(this.#days[position * 3 + 2]!),
        categories: [...this.#categoryLists[this.#categoryIds[position]!]!],
        trade: this.#labels[this.#labelIds[position * 4 + 2]!]!,
        source: this.#labels[this.#labelIds[position * 4 + 3]!] ?? '',
        url: texts[at + 2]!,
        supplier,
        supplier_id: supplierId,
        supplier_key: supplierKey,
      };
    });
  }
}

function isoDay(day: number): string | null {
  return day === NO_DAY ? null : new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Takes awards in the index's order, one at a time, and packs them as AwardRows. */
export class AwardRowsBuilder {
  readonly #buyers = new Interner<[string, string | null]>();
  readonly #suppliers = new Interner<[string | null, string | null, string | null]>();
  readonly #labels = new Interner<string | null>();
  readonly #categoryLists = new Interner<string[]>();
  readonly #buyerIds: Int32Array;
  readonly #supplierIds: Int32Array;
  readonly #categoryIds: Int32Array;
  readonly #labelIds: Uint16Array;
  readonly #values: Float64Array;
  readonly #days: Int32Array;
  /** Deflated blocks, end to end, in fixed chunks (see GrowingInts), and where each block starts. */
  readonly #blockChunks: Buffer[] = [];
  #blockBytes = 0;
  readonly #blockStarts = new GrowingInts();
  #pendingTexts: string[] = [];
  #size = 0;

  constructor(size: number) {
    this.#buyerIds = new Int32Array(size);
    this.#supplierIds = new Int32Array(size);
    this.#categoryIds = new Int32Array(size);
    this.#labelIds = new Uint16Array(size * 4);
    this.#values = new Float64Array(size);
    this.#days = new Int32Array(size * 3);
  }

  add(fields: StoredAwardFields): void {
    const position = this.#size++;
    this.#buyerIds[position] = this.#buyers.idOf(JSON.stringify([fields.buyer, fields.buyer_key]), () => [fields.buyer, fields.buyer_key]);
    this.#supplierIds[position] = this.#suppliers.idOf(JSON.stringify([fields.supplier, fields.supplier_id, fields.supplier_key]), () => [fields.supplier, fields.supplier_id, fields.supplier_key]);
    this.#categoryIds[position] = this.#categoryLists.idOf(fields.categories_json, () => JSON.parse(fields.categories_json) as string[]);
    [fields.jurisdiction, fields.value_currency, fields.trade, fields.source].forEach((label, i) => {
      const id = this.#labels.idOf(JSON.stringify(label), () => label);
      if (id > 0xffff) throw new Error('award rows: more than 65,536 distinct jurisdictions, currencies, trades and sources');
      this.#labelIds[position * 4 + i] = id;
    });
    this.#values[position] = fields.value_amount ?? Number.NaN;
    [fields.awarded_day, fields.start_day, fields.end_day].forEach((day, i) => {
      this.#days[position * 3 + i] = day ?? NO_DAY;
    });
    this.#pendingTexts.push(fields.contract_id, fields.title, fields.url);
    if (this.#pendingTexts.length === BLOCK * 3) this.#closeBlock();
  }

  build(): AwardRows {
    if (this.#pendingTexts.length > 0) this.#closeBlock();
    const blockStarts = new Int32Array(this.#blockStarts.length + 1);
    for (let i = 0; i < this.#blockStarts.length; i += 1) blockStarts[i] = this.#blockStarts.at(i);
    blockStarts[this.#blockStarts.length] = this.#blockBytes;
    const blocks = Buffer.allocUnsafeSlow(this.#blockBytes);
    this.#blockChunks.forEach((chunk, i) => chunk.copy(blocks, i * BLOCK_CHUNK, 0, Math.min(BLOCK_CHUNK, this.#blockBytes - i * BLOCK_CHUNK)));
    return new AwardRows({
      buyers: this.#buyers.values, suppliers: this.#suppliers.values, labels: this.#labels.values, categoryLists: this.#categoryLists.values,
      buyerIds: this.#buyerIds, supplierIds: this.#supplierIds, categoryIds: this.#categoryIds, labelIds: this.#labelIds, values: this.#values,
      days: this.#days, blocks, blockStarts,
    });
  }

  #closeBlock(): void {
    const block = deflateRawSync(JSON.stringify(this.#pendingTexts));
    this.#pendingTexts = [];
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
