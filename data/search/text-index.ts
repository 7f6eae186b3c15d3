import SearchableMap from 'minisearch/SearchableMap';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { z } from 'zod';
import { packed } from './index-file.ts';

/**
 * Full-text search over a few weighted text fields (BM25+), shared by the tender and award indexes. DuckDB's
 * fts extension cannot be installed here (DESIGN §6), so the index is built in process from plain terms.
 */

/** Documents indexed between two yields to the event loop while an index is built. */
export const DOCUMENTS_PER_TURN = 2_000;

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

// BM25+ with MiniSearch's defaults, and its weights for words found by prefix or by one typo.
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
// Prefixes catch plurals and stems ("road" finds "roads", "roadworks"); shorter ones match too much.
const SHORTEST_PREFIX = 3;
// One typo in a long word is a typo; in a short word it is usually another word.
const SHORTEST_FUZZY = 6;
const MOST_QUERY_TERMS = 32;

export const FieldPostings = z.object({
  boost: z.number(),
  /** Postings of term t are at offsets[t] .. offsets[t + 1] in docs and frequencies, docs ascending. */
  offsets: packed.int32,
  docs: packed.int32,
  frequencies: packed.uint16,
  lengths: packed.uint16,
  averageLength: z.number(),
});
export type FieldPostings = z.infer<typeof FieldPostings>;

export const TextIndexParts = z.object({
  /** The vocabulary, each term at its id. */
  terms: z.array(z.string()),
  documentCount: z.number().int().nonnegative(),
  fields: z.array(FieldPostings),
});
export type TextIndexParts = z.infer<typeof TextIndexParts>;

/**
 * A BM25+ inverted index over a few text fields, every query word required. The vocabulary is a
 * MiniSearch radix tree (prefix and typo lookups); postings are typed arrays, and a query scores into
 * buffers reused from query to query. MiniSearch's own search builds objects for every matching
 * document, which measured 40-140 ms for a common word over 50,000 tenders; this takes about 1 ms.
 */
export class TextIndex {
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
  /** Indexes `documents` (each an array of field texts), field i weighted `boosts[i]`. */
  static async build(documents: readonly (readonly string[])[], boosts: readonly number[]): Promise<TextIndex> {
    const count = documents.length;
    const termIds = new Map<string, number>();
    const collected = boosts.map(() => ({ terms: [] as number[], docs: [] as number[], frequencies: [] as number[], lengths: new Uint16Array(count), totalLength: 0 }));
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
      fields.push({ boost: boosts[fieldIndex]!, offsets, docs, frequencies: postingFrequencies, lengths: field.lengths, averageLength });
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

