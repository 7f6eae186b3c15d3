import { z } from 'zod';
import { FileInts, packed } from './index-file.ts';

export const PostingsParts = z.object({ keyText: packed.buffer, keyStarts: packed.int32, starts: packed.int32, positions: packed.int32OnDisk });
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
  /** The positions of key i are `#positions[#starts[i] .. #starts[i + 1])`: in memory when built, in the index file when loaded from one. */
  readonly #starts: Int32Array;
  readonly #positions: Int32Array | FileInts;

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

  get keyCount(): number {
    return this.#keyStarts.length - 1;
  }

  /** The positions holding exactly `key`, ascending; empty when none does. Valid until `scratch` is reset. */
  of(key: string, scratch: ScratchInts): Int32Array {
    const bytes = Buffer.from(key, 'utf8');
    const i = this.#lowerBound(bytes);
    return i < this.keyCount && this.#compareKey(i, bytes, bytes.length) === 0 && this.#keyLength(i) === bytes.length
      ? this.#listsOf(i, i + 1, scratch)
      : EMPTY;
  }

  /**
   * Positions holding any key that starts with `prefix`, ascending and distinct. One key's list is returned
   * as it is stored; several are merged through `bits`, a zeroed scratch bitset of at least `size` bits.
   * Valid until `scratch` is reset.
   */
  withPrefix(prefix: string, size: number, bits: Uint32Array, scratch: ScratchInts): Int32Array {
    const [from, to] = this.#prefixRange(Buffer.from(prefix, 'utf8'));
    if (to - from <= 1) return from === to ? EMPTY : this.#listsOf(from, to, scratch);
    return unionThrough(this.#listsOf(from, to, scratch), size, bits, scratch);
  }

  /** The lists of keys `[from, to)`, end to end: a view in memory, or read from the file into `scratch`. */
  #listsOf(from: number, to: number, scratch: ScratchInts): Int32Array {
    const start = this.#starts[from]!;
    const end = this.#starts[to]!;
    return this.#positions instanceof FileInts ? this.#positions.read(start, end, scratch.take(end - start)) : this.#positions.subarray(start, end);
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

/** Buffers above this many values are not kept between queries (4 MB). */
const KEPT_SCRATCH_LENGTH = 1 << 20;

/**
 * Int32 buffers reused by one query at a time (requests run one at a time in JS): the postings lists a
 * query reads from disk and the lists it merges land here rather than in new arrays, which at thousands of
 * queries a second left the allocator holding freed megabytes. Each buffer grows to the largest list it
 * has held, up to KEPT_SCRATCH_LENGTH; `reset` before each query hands them out again.
 */
export class ScratchInts {
  readonly #buffers: Int32Array[] = [];
  #next = 0;

  reset(): void {
    this.#next = 0;
  }

  /** A buffer of `length` values (contents undefined), not handed out again before the next reset. */
  take(length: number): Int32Array {
    // a rare huge list (a one-letter word's every posting) is not kept for the life of the release
    if (length > KEPT_SCRATCH_LENGTH) return new Int32Array(length);
    let buffer = this.#buffers[this.#next];
    if (buffer === undefined || buffer.length < length) {
      buffer = new Int32Array(Math.max(length, 4096));
      this.#buffers[this.#next] = buffer;
    }
    this.#next += 1;
    return buffer.subarray(0, length);
  }
}

/** Several ascending lists, possibly overlapping, as one ascending list without repeats (in `scratch`). Leaves `bits` zeroed. */
export function unionThrough(positions: Int32Array, size: number, bits: Uint32Array, scratch: ScratchInts): Int32Array {
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
  const union = scratch.take(distinct);
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
