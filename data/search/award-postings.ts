import { z } from 'zod';
import { packed } from './index-file.ts';

export const PostingsParts = z.object({ keyText: packed.buffer, keyStarts: packed.int32, starts: packed.int32, positions: packed.int32 });
export type PostingsParts = z.infer<typeof PostingsParts>;

/**
 * Sorted string keys, each with the ascending positions (rows of the award index) that hold it, packed in
 * typed arrays (compressed sparse rows): a million awards' buyer keys, supplier keys or words cost a few
 * bytes per posting, and the keys are one UTF-8 text with no per-key string or array objects. Keys sort
 * by their UTF-8 bytes, so a lookup compares bytes in place.
 */
export class Postings {
  /** Key i is `#keyText[#keyStarts[i] .. #keyStarts[i + 1])`. */
  readonly #keyText: Buffer;
  readonly #keyStarts: Int32Array;
  /** The positions of key i are `#positions[#starts[i] .. #starts[i + 1])`. */
  readonly #starts: Int32Array;
  readonly #positions: Int32Array;

  private constructor(parts: PostingsParts) {
    const keyCount = parts.keyStarts.length - 1;
    if (keyCount < 0 || parts.starts.length !== keyCount + 1 || parts.starts[keyCount] !== parts.positions.length || parts.keyStarts[keyCount] !== parts.keyText.length) {
      throw new Error('postings: parts do not fit together');
    }
    this.#keyText = parts.keyText;
    this.#keyStarts = parts.keyStarts;
    this.#starts = parts.starts;
    this.#positions = parts.positions;
  }

  static fromParts(parts: PostingsParts): Postings {
    return new Postings(parts);
  }

  /** Keys (each once, in any order) with their ascending positions. */
  static fromKeys(keys: readonly string[], positionsOf: (key: number) => Int32Array): Postings {
    const encoded = keys.map((key, id) => ({ id, bytes: Buffer.from(key, 'utf8') }));
    encoded.sort((a, b) => Buffer.compare(a.bytes, b.bytes));
    const keyStarts = new Int32Array(encoded.length + 1);
    const starts = new Int32Array(encoded.length + 1);
    const lists = encoded.map(({ id }) => positionsOf(id));
    encoded.forEach(({ bytes }, rank) => {
      keyStarts[rank + 1] = keyStarts[rank]! + bytes.length;
      starts[rank + 1] = starts[rank]! + lists[rank]!.length;
    });
    const positions = new Int32Array(starts[encoded.length]!);
    lists.forEach((list, rank) => positions.set(list, starts[rank]!));
    return new Postings({ keyText: Buffer.concat(encoded.map(({ bytes }) => bytes)), keyStarts, starts, positions });
  }

  /** What an index file stores. */
  get parts(): PostingsParts {
    return { keyText: this.#keyText, keyStarts: this.#keyStarts, starts: this.#starts, positions: this.#positions };
  }

  /** Bytes held in typed arrays. */
  get bytes(): number {
    return this.#keyText.byteLength + this.#keyStarts.byteLength + this.#starts.byteLength + this.#positions.byteLength;
  }

  get keyCount(): number {
    return this.#keyStarts.length - 1;
  }

  /** The positions holding exactly `key`, ascending; empty when none does. */
  of(key: string): Int32Array {
    const bytes = Buffer.from(key, 'utf8');
    const i = this.#lowerBound(bytes);
    return i < this.keyCount && this.#compareKey(i, bytes, bytes.length) === 0 && this.#keyLength(i) === bytes.length
      ? this.#positions.subarray(this.#starts[i]!, this.#starts[i + 1]!)
      : EMPTY;
  }

  /**
   * Positions holding any key that starts with `prefix`, ascending and distinct. One key's list is returned
   * as it is stored; several are merged through `bits`, a zeroed scratch bitset of at least `size` bits.
   */
  withPrefix(prefix: string, size: number, bits: Uint32Array): Int32Array {
    const [from, to] = this.#prefixRange(Buffer.from(prefix, 'utf8'));
    if (to - from <= 1) return from === to ? EMPTY : this.#positions.subarray(this.#starts[from]!, this.#starts[to]!);
    return unionThrough(this.#positions.subarray(this.#starts[from]!, this.#starts[to]!), size, bits);
  }

  /** The keys `[from, to)` that start with `prefix`: keys sorted, so they sit together. */
  #prefixRange(prefix: Buffer): [number, number] {
    const from = this.#lowerBound(prefix);
    let low = from;
    let high = this.keyCount;
    while (low < high) {
      const mid = (low + high) >>> 1;
      // a key starting with the prefix compares equal over the prefix's length
      if (this.#keyLength(mid) >= prefix.length && this.#compareKey(mid, prefix, prefix.length) === 0) low = mid + 1;
      else high = mid;
    }
    return [from, low];
  }

  /** The first key not below `bytes`. */
  #lowerBound(bytes: Buffer): number {
    let low = 0;
    let high = this.keyCount;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.#compareKey(mid, bytes, Number.POSITIVE_INFINITY) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Key i, cut to at most `length` bytes, against `bytes` (negative when the key sorts first). */
  #compareKey(i: number, bytes: Buffer, length: number): number {
    const start = this.#keyStarts[i]!;
    const end = Math.min(this.#keyStarts[i + 1]!, start + length);
    return -bytes.compare(this.#keyText, start, end);
  }

  #keyLength(i: number): number {
    return this.#keyStarts[i + 1]! - this.#keyStarts[i]!;
  }
}

const EMPTY = new Int32Array(0);

/** Several ascending lists, possibly overlapping, as one ascending list without repeats. Leaves `bits` zeroed. */
export function unionThrough(positions: Int32Array, size: number, bits: Uint32Array): Int32Array {
  let distinct = 0;
  for (let i = 0; i < positions.length; i += 1) {
    const position = positions[i]!;
    const word = position >>> 5;
    const bit = 1 << (position & 31);
    if ((bits[word]! & bit) === 0) {
      bits[word] = bits[word]! | bit;
      distinct += 1;
    }
  }
  const union = new Int32Array(distinct);
  let next = 0;
  const words = (size + 31) >>> 5;
  for (let word = 0; word < words && next < distinct; word += 1) {
    let set = bits[word]!;
    if (set === 0) continue;
    bits[word] = 0;
    while (set !== 0) {
      const low = set & -set;
      union[next++] = (word << 5) + 31 - Math.clz32(low);
      set ^= low;
    }
  }
  return union;
}

const CHUNK = 1 << 20;

/**
 * Int32 values appended in fixed chunks that are never copied or freed while it grows: doubling an array
 * leaves freed blocks behind that the allocator keeps, which at a million awards cost hundreds of megabytes
 * of resident memory after the build.
 */
export class GrowingInts {
  readonly #chunks: Int32Array[] = [];
  length = 0;

  push(value: number): void {
    const offset = this.length % CHUNK;
    if (offset === 0) this.#chunks.push(new Int32Array(CHUNK));
    this.#chunks[this.#chunks.length - 1]![offset] = value;
    this.length += 1;
  }

  at(index: number): number {
    return this.#chunks[Math.floor(index / CHUNK)]![index % CHUNK]!;
  }

  set(index: number, value: number): void {
    this.#chunks[Math.floor(index / CHUNK)]![index % CHUNK] = value;
  }
}

/**
 * Collects (key, position) pairs with positions arriving in ascending order, then packs them as Postings.
 * A key given twice for one position is kept once.
 */
export class PostingsBuilder {
  readonly #ids = new Map<string, number>();
  readonly #keys: string[] = [];
  /** The last position each key id was added at, to keep one posting per key and position. */
  readonly #lastPosition = new GrowingInts();
  readonly #pairKeys = new GrowingInts();
  readonly #pairPositions = new GrowingInts();

  add(key: string, position: number): void {
    let id = this.#ids.get(key);
    if (id === undefined) {
      id = this.#keys.length;
      this.#ids.set(key, id);
      this.#keys.push(key);
      this.#lastPosition.push(-1);
    } else if (this.#lastPosition.at(id) === position) {
      return;
    }
    this.#lastPosition.set(id, position);
    this.#pairKeys.push(id);
    this.#pairPositions.push(position);
  }

  build(): Postings {
    const count = this.#keys.length;
    // counting sort of the pairs by key id; positions arrive ascending, so each key's list stays ascending
    const starts = new Int32Array(count + 1);
    const pairs = this.#pairKeys.length;
    for (let i = 0; i < pairs; i += 1) starts[this.#pairKeys.at(i) + 1]! += 1;
    for (let id = 0; id < count; id += 1) starts[id + 1]! += starts[id]!;
    const cursor = starts.slice(0, count);
    const positions = new Int32Array(pairs);
    for (let i = 0; i < pairs; i += 1) positions[cursor[this.#pairKeys.at(i)]!++] = this.#pairPositions.at(i);
    return Postings.fromKeys(this.#keys, (id) => positions.subarray(starts[id]!, starts[id + 1]!));
  }
}
