/**
 * Sorted string keys, each with the ascending positions (rows of the award index) that hold it, packed in
 * two typed arrays (compressed sparse rows): a million awards' buyer keys, supplier keys or words cost a
 * few bytes per posting and one string per distinct key, with no per-key array objects.
 */
export class Postings {
  /** Distinct keys in code-unit order (the order of `<`). */
  readonly #keys: string[];
  /** The positions of key i are `#positions[#starts[i] .. #starts[i + 1])`. */
  readonly #starts: Int32Array;
  readonly #positions: Int32Array;

  constructor(keys: string[], starts: Int32Array, positions: Int32Array) {
    this.#keys = keys;
    this.#starts = starts;
    this.#positions = positions;
  }

  /** Bytes held in typed arrays (the key strings come on top). */
  get bytes(): number {
    return this.#starts.byteLength + this.#positions.byteLength;
  }

  get keyCount(): number {
    return this.#keys.length;
  }

  /** The positions holding exactly `key`, ascending; empty when none does. */
  of(key: string): Int32Array {
    const i = this.#lowerBound(key);
    return i < this.#keys.length && this.#keys[i] === key ? this.#positions.subarray(this.#starts[i]!, this.#starts[i + 1]!) : EMPTY;
  }

  /**
   * Positions holding any key that starts with `prefix`, ascending and distinct. One key's list is returned
   * as it is stored; several are merged through `bits`, a zeroed scratch bitset of at least `size` bits.
   */
  withPrefix(prefix: string, size: number, bits: Uint32Array): Int32Array {
    const [from, to] = this.#prefixRange(prefix);
    if (to - from <= 1) return from === to ? EMPTY : this.#positions.subarray(this.#starts[from]!, this.#starts[to]!);
    return unionThrough(this.#positions.subarray(this.#starts[from]!, this.#starts[to]!), size, bits);
  }

  /** The keys `[from, to)` that start with `prefix`: keys sorted, so they sit together. */
  #prefixRange(prefix: string): [number, number] {
    const from = this.#lowerBound(prefix);
    let low = from;
    let high = this.#keys.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.#keys[mid]!.startsWith(prefix)) low = mid + 1;
      else high = mid;
    }
    return [from, low];
  }

  #lowerBound(key: string): number {
    let low = 0;
    let high = this.#keys.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.#keys[mid]! < key) low = mid + 1;
      else high = mid;
    }
    return low;
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
    const order = Array.from({ length: count }, (_, id) => id).sort((a, b) => (this.#keys[a]! < this.#keys[b]! ? -1 : 1));
    const rankOf = new Int32Array(count);
    order.forEach((id, rank) => {
      rankOf[id] = rank;
    });
    // counting sort of the pairs by key rank; positions arrive ascending, so each key's list stays ascending
    const starts = new Int32Array(count + 1);
    const pairs = this.#pairKeys.length;
    for (let i = 0; i < pairs; i += 1) starts[rankOf[this.#pairKeys.at(i)]! + 1]! += 1;
    for (let rank = 0; rank < count; rank += 1) starts[rank + 1]! += starts[rank]!;
    const cursor = starts.slice(0, count);
    const positions = new Int32Array(pairs);
    for (let i = 0; i < pairs; i += 1) positions[cursor[rankOf[this.#pairKeys.at(i)]!]!++] = this.#pairPositions.at(i);
    return new Postings(order.map((id) => this.#keys[id]!), starts, positions);
  }
}
