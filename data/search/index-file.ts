import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { z } from 'zod';

/**
 * One file holding a nested value whose big parts are typed arrays: the arrays are written as raw bytes,
 * 8-aligned, and come back as views on one buffer they are read into, so loading an index costs no
 * per-element work or JS objects; parts a reader names stay on disk, read by range. Everything else
 * travels as JSON in the header.
 *
 * Written by hand because the kept serialisers (msgpack, CBOR, Arrow IPC) either copy typed arrays on read
 * or want a columnar table, not a nest of postings and string tables.
 */

const MAGIC = 'TIDX0001';
const ALIGN = 8;

const ARRAY_TYPES = {
  Int32Array, Uint32Array, Int16Array, Uint16Array, Uint8Array, Float64Array, Buffer,
} as const;
type ArrayTypeName = keyof typeof ARRAY_TYPES;
export type PackedArray = Int32Array | Uint32Array | Int16Array | Uint16Array | Uint8Array | Float64Array | Buffer;

const ArrayRef = z.object({ $array: z.number().int().nonnegative() });
const Header = z.object({
  value: z.unknown(),
  arrays: z.array(z.object({
    type: z.enum(Object.keys(ARRAY_TYPES) as [ArrayTypeName, ...ArrayTypeName[]]),
    offset: z.number().int().nonnegative(),
    length: z.number().int().nonnegative(),
  })),
});

/**
 * Bytes a part reads by range: a Buffer in memory, or a FileBytes left in its index file. Buffer has this
 * shape already, so a part built in memory and one loaded from a file are read alike.
 */
export interface ByteSource {
  readonly length: number;
  subarray(start: number, end: number): Buffer;
}

/** The UTF-8 text of bytes `[start, end)` of a source. */
export function textOf(source: ByteSource, start: number, end: number): string {
  return source instanceof FileBytes ? source.text(start, end) : source.subarray(start, end).toString('utf8');
}

/** Ranges longer than this are read into a buffer of their own rather than the kept one (1 MB). */
const KEPT_TEXT_BUFFER = 1 << 20;

/** One opened index file, shared by the FileBytes it holds; closed with the index that reads it. */
export class IndexFileHandle {
  #fd: number | null;
  #textBuffer = Buffer.allocUnsafeSlow(16 * 1024);
  readonly path: string;

  constructor(path: string) {
    this.path = path;
    this.#fd = openSync(path, 'r');
  }

  /** Reads `length` bytes at `position` into a new Buffer. */
  read(position: number, length: number): Buffer {
    const bytes = Buffer.allocUnsafe(length);
    this.readInto(bytes, position);
    return bytes;
  }

  /**
   * The UTF-8 text of `length` bytes at `position`, read through one buffer kept for the purpose: a reply
   * reads many small ranges, and a new buffer for each would be garbage outside the JS heap, which the
   * collector frees late.
   */
  readText(position: number, length: number): string {
    if (length > KEPT_TEXT_BUFFER) return this.read(position, length).toString('utf8');
    if (this.#textBuffer.length < length) this.#textBuffer = Buffer.allocUnsafeSlow(Math.max(length, 2 * this.#textBuffer.length));
    const target = this.#textBuffer.subarray(0, length);
    this.readInto(target, position);
    return target.toString('utf8');
  }

  /** Fills `target` with the bytes at `position`. */
  readInto(target: Uint8Array, position: number): void {
    if (this.#fd === null) throw new Error(`${this.path} was closed: its index is no longer served`);
    let done = 0;
    while (done < target.length) {
      const read = readSync(this.#fd, target, done, target.length - done, position + done);
      if (read === 0) throw new Error(`${this.path} is cut short`);
      done += read;
    }
  }

  get size(): number {
    if (this.#fd === null) throw new Error(`${this.path} was closed`);
    return fstatSync(this.#fd).size;
  }

  close(): void {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
  }
}

/** A part of an index file left on disk: where it starts in the file and how many values it holds. */
abstract class FileSpan {
  protected readonly file: IndexFileHandle;
  protected readonly position: number;
  readonly length: number;

  constructor(file: IndexFileHandle, position: number, length: number) {
    this.file = file;
    this.position = position;
    this.length = length;
  }

  toJSON(): never {
    throw new Error('a part left in an index file cannot be written into another one');
  }
}

/**
 * Bytes an index file leaves on disk, read by range when asked. Used for what a reply reads a little of at a
 * time (tender rows, award blocks): the operating system's page cache keeps the parts in use, and they
 * never count in the API process's memory.
 */
export class FileBytes extends FileSpan implements ByteSource {
  subarray(start: number, end: number): Buffer {
    const [position, length] = this.#span(start, end);
    return this.file.read(position, length);
  }

  /** The UTF-8 text of bytes `[start, end)`, with no buffer left behind. */
  text(start: number, end: number): string {
    const [position, length] = this.#span(start, end);
    return this.file.readText(position, length);
  }

  /** Where `[start, end)` lies in the file and how long it is, cut to the part (as Buffer.subarray cuts). */
  #span(start: number, end: number): [number, number] {
    const from = Math.max(0, Math.min(start, this.length));
    return [this.position + from, Math.max(0, Math.min(end, this.length) - from)];
  }
}

/**
 * Int32 values an index file leaves on disk (postings lists), read by range into a buffer the caller owns:
 * a query reads the few lists it filters on, and the page cache keeps the busy ones.
 */
export class FileInts extends FileSpan {
  /** Values `[start, end)` read into the front of `into` (at least `end - start` long); returns that part of it. */
  read(start: number, end: number, into: Int32Array): Int32Array {
    const count = end - start;
    if (start < 0 || end > this.length || count < 0 || into.length < count) throw new RangeError(`ints ${start}..${end} of ${this.length} do not fit`);
    const target = into.subarray(0, count);
    this.file.readInto(new Uint8Array(target.buffer, target.byteOffset, target.byteLength), this.position + start * Int32Array.BYTES_PER_ELEMENT);
    return target;
  }
}

/** zod checks for the typed arrays an index's parts hold (z.instanceof would narrow them to plain ArrayBuffer backing). */
export const packed = {
  bytes: z.custom<ByteSource>((value) => Buffer.isBuffer(value) || value instanceof FileBytes, 'expected bytes'),
  int32: z.custom<Int32Array>((value) => value instanceof Int32Array, 'expected an Int32Array'),
  int32OnDisk: z.custom<Int32Array | FileInts>((value) => value instanceof Int32Array || value instanceof FileInts, 'expected Int32 values'),
  int16: z.custom<Int16Array>((value) => value instanceof Int16Array, 'expected an Int16Array'),
  uint16: z.custom<Uint16Array>((value) => value instanceof Uint16Array, 'expected a Uint16Array'),
  uint8: z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'expected a Uint8Array'),
  float64: z.custom<Float64Array>((value) => value instanceof Float64Array, 'expected a Float64Array'),
  buffer: z.custom<Buffer>((value) => Buffer.isBuffer(value), 'expected bytes'),
};

function typeNameOf(array: PackedArray): ArrayTypeName {
  if (Buffer.isBuffer(array)) return 'Buffer';
  return array.constructor.name as ArrayTypeName;
}

function isPackedArray(value: unknown): value is PackedArray {
  return ArrayBuffer.isView(value) && !(value instanceof DataView) && (Buffer.isBuffer(value) || value.constructor.name in ARRAY_TYPES);
}

/** Writes `value` to `path` (through a temporary file and a rename, so a reader never sees half a file). */
export async function writeIndexFile(path: string, value: unknown): Promise<number> {
  const arrays: PackedArray[] = [];
  // Typed arrays are swapped for references before JSON.stringify sees them: it would first call a Buffer's
  // toJSON(), an array of every byte (which past some hundred megabytes cannot even be made).
  const withRefs = (item: unknown): unknown => {
    if (isPackedArray(item)) {
      arrays.push(item);
      return { $array: arrays.length - 1 };
    }
    if (Array.isArray(item)) return item.some((element) => typeof element === 'object' && element !== null) ? item.map(withRefs) : item;
    if (typeof item !== 'object' || item === null) return item;
    return Object.fromEntries(Object.entries(item).map(([key, field]) => [key, withRefs(field)]));
  };
  const json = JSON.stringify(withRefs(value));
  // offsets are relative to the end of the header, which is itself padded to ALIGN
  let offset = 0;
  const refs = arrays.map((array) => {
    const ref = { type: typeNameOf(array), offset, length: array.length };
    offset += Math.ceil(array.byteLength / ALIGN) * ALIGN;
    return ref;
  });
  const header = Buffer.from(`{"arrays":${JSON.stringify(refs)},"value":${json}}`, 'utf8');
  const prefix = Buffer.alloc(MAGIC.length + 4);
  prefix.write(MAGIC, 0, 'latin1');
  const headerEnd = Math.ceil((prefix.length + header.length) / ALIGN) * ALIGN;
  prefix.writeUInt32LE(header.length, MAGIC.length);

  const temporary = `${path}.${process.pid}.tmp`;
  const file = await open(temporary, 'w');
  try {
    await file.write(prefix);
    await file.write(header);
    await file.write(Buffer.alloc(headerEnd - prefix.length - header.length));
    for (const array of arrays) {
      await file.write(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
      await file.write(Buffer.alloc(Math.ceil(array.byteLength / ALIGN) * ALIGN - array.byteLength));
    }
    await file.sync();
  } catch (error) {
    await file.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await file.close();
  await rename(temporary, path);
  return headerEnd + offset;
}

export interface ReadIndexOptions {
  /**
   * Names of parts to leave in the file, read by range when used: Buffers as FileBytes, Int32Arrays as
   * FileInts. The file then stays open until `handle.close()`.
   */
  leaveOnDisk?: readonly string[];
}

export interface IndexFileContents {
  value: unknown;
  /** Open while some part was left on disk; null when everything was read into memory. */
  handle: IndexFileHandle | null;
}

/**
 * Reads a file written by writeIndexFile: the value, with every typed array a view on the bytes read
 * (one allocation for all of them), and the parts named in `leaveOnDisk` left in the file.
 */
export async function readIndexFile(path: string, options: ReadIndexOptions = {}): Promise<IndexFileContents> {
  const leaveOnDisk = new Set(options.leaveOnDisk ?? []);
  const handle = new IndexFileHandle(path);
  try {
    const fileSize = handle.size;
    const prefixLength = MAGIC.length + 4;
    const prefix = fileSize < prefixLength ? Buffer.alloc(0) : handle.read(0, prefixLength);
    if (prefix.length < prefixLength || prefix.toString('latin1', 0, MAGIC.length) !== MAGIC) throw new Error(`${path} is not an index file of this version`);
    const headerLength = prefix.readUInt32LE(MAGIC.length);
    if (prefixLength + headerLength > fileSize) throw new Error(`${path} is cut short`);
    const headerEnd = Math.ceil((prefixLength + headerLength) / ALIGN) * ALIGN;
    const header = Header.parse(JSON.parse(handle.read(prefixLength, headerLength).toString('utf8')));
    const spans = header.arrays.map(({ type, offset, length }) => {
      const byteLength = type === 'Buffer' ? length : length * ARRAY_TYPES[type].BYTES_PER_ELEMENT;
      if (headerEnd + offset + byteLength > fileSize) throw new Error(`${path} is cut short`);
      return { type, position: headerEnd + offset, length, byteLength };
    });
    const onDisk = arraysUnder(header.value, leaveOnDisk);
    for (const index of onDisk) if (!['Buffer', 'Int32Array'].includes(spans[index]!.type)) throw new Error(`${path}: only bytes and Int32 parts can stay on disk`);
    // the arrays kept in memory share one allocation, each at an 8-aligned offset, read span by span
    let total = 0;
    const at = spans.map((span, index) => {
      if (onDisk.has(index)) return -1;
      const offset = total;
      total += Math.ceil(span.byteLength / ALIGN) * ALIGN;
      return offset;
    });
    const memory = new ArrayBuffer(total);
    const views = spans.map((span, index): PackedArray | FileBytes | FileInts => {
      if (onDisk.has(index)) return span.type === 'Buffer' ? new FileBytes(handle, span.position, span.length) : new FileInts(handle, span.position, span.length);
      handle.readInto(new Uint8Array(memory, at[index]!, span.byteLength), span.position);
      return span.type === 'Buffer' ? Buffer.from(memory, at[index]!, span.length) : new ARRAY_TYPES[span.type](memory, at[index]!, span.length);
    });
    const value = revive(header.value, views);
    if (onDisk.size === 0) handle.close();
    return { value, handle: onDisk.size === 0 ? null : handle };
  } catch (error) {
    handle.close();
    throw error;
  }
}

/** The array numbers referred to under the given property names, anywhere in the header's value. */
function arraysUnder(value: unknown, names: ReadonlySet<string>): Set<number> {
  const found = new Set<number>();
  const visit = (node: unknown, key: string | null) => {
    if (typeof node !== 'object' || node === null) return;
    const ref = ArrayRef.safeParse(node);
    if (ref.success && Object.keys(node).length === 1) {
      if (key !== null && names.has(key)) found.add(ref.data.$array);
      return;
    }
    if (Array.isArray(node)) node.forEach((item) => visit(item, null));
    else for (const [name, item] of Object.entries(node)) visit(item, name);
  };
  if (names.size > 0) visit(value, null);
  return found;
}

function revive(value: unknown, views: (PackedArray | FileBytes | FileInts)[]): unknown {
  if (Array.isArray(value)) {
    // string tables are most of the header: leave arrays of plain values as they were parsed
    for (let i = 0; i < value.length; i += 1) if (typeof value[i] === 'object' && value[i] !== null) value[i] = revive(value[i], views);
    return value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const ref = ArrayRef.safeParse(value);
  if (ref.success && Object.keys(value).length === 1) {
    const view = views[ref.data.$array];
    if (!view) throw new Error(`index file refers to array ${ref.data.$array}, which it does not hold`);
    return view;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) record[key] = revive(record[key], views);
  return record;
}
