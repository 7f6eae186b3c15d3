import { open, readFile, rename, rm } from 'node:fs/promises';
import { z } from 'zod';

/**
 * One file holding a nested value whose big parts are typed arrays: the arrays are written as raw bytes,
 * 8-aligned, and come back as views on the one buffer the file is read into, so loading an index costs one
 * read and no per-element work or JS objects. Everything else travels as JSON in the header.
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

/** zod checks for the typed arrays an index's parts hold (z.instanceof would narrow them to plain ArrayBuffer backing). */
export const packed = {
  int32: z.custom<Int32Array>((value) => value instanceof Int32Array, 'expected an Int32Array'),
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
  // the holder's own value, not the one given: JSON.stringify has already turned a Buffer into {type, data} by toJSON()
  const json = JSON.stringify(value, function (this: Record<string, unknown>, key: string, given: unknown) {
    const item = this[key];
    if (!isPackedArray(item)) return given;
    arrays.push(item);
    return { $array: arrays.length - 1 };
  });
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

/** Reads a file written by writeIndexFile: the value, with every typed array a view on the file's bytes. */
export async function readIndexFile(path: string): Promise<unknown> {
  let bytes = await readFile(path);
  if (bytes.byteOffset % ALIGN !== 0) bytes = Buffer.from(bytes); // a copy starts a fresh, aligned allocation
  if (bytes.length < MAGIC.length + 4 || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) throw new Error(`${path} is not an index file of this version`);
  const headerLength = bytes.readUInt32LE(MAGIC.length);
  const headerStart = MAGIC.length + 4;
  const headerEnd = Math.ceil((headerStart + headerLength) / ALIGN) * ALIGN;
  const header = Header.parse(JSON.parse(bytes.toString('utf8', headerStart, headerStart + headerLength)));
  const views = header.arrays.map(({ type, offset, length }): PackedArray => {
    const start = bytes.byteOffset + headerEnd + offset;
    if (type === 'Buffer') {
      if (headerEnd + offset + length > bytes.length) throw new Error(`${path} is cut short`);
      return Buffer.from(bytes.buffer, start, length);
    }
    const Type = ARRAY_TYPES[type];
    if (headerEnd + offset + length * Type.BYTES_PER_ELEMENT > bytes.length) throw new Error(`${path} is cut short`);
    return new Type(bytes.buffer, start, length);
  });
  return revive(header.value, views);
}

function revive(value: unknown, views: PackedArray[]): unknown {
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
