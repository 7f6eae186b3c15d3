/**
 * Writes an EXIF APP1 segment for test images. sharp's withExif() cannot write an IFD1 thumbnail and
 * replaces PixelXDimension/PixelYDimension with the real size, and the corpus needs both stale on purpose,
 * so the TIFF structure (EXIF 2.32, little-endian) is laid out here.
 */

export interface ExifFields {
  make?: string;
  model?: string;
  software?: string;
  /** EXIF form "YYYY:MM:DD HH:MM:SS". */
  modifyDate?: string;
  dateTimeOriginal?: string;
  dateTimeDigitized?: string;
  pixelWidth?: number;
  pixelHeight?: number;
  /** A JPEG stored as the IFD1 thumbnail. */
  thumbnail?: Uint8Array;
}

type Entry = { tag: number; type: 'ascii' | 'short' | 'long' | 'undefined'; value: string | number | Uint8Array };

const typeCode = { ascii: 2, short: 3, long: 4, undefined: 7 } as const;

function entryBytes(entry: Entry): Uint8Array {
  if (entry.type === 'ascii') return new TextEncoder().encode(`${entry.value as string}\0`);
  if (entry.type === 'undefined') return entry.value as Uint8Array;
  const bytes = new Uint8Array(entry.type === 'short' ? 2 : 4);
  const view = new DataView(bytes.buffer);
  if (entry.type === 'short') view.setUint16(0, entry.value as number, true);
  else view.setUint32(0, entry.value as number, true);
  return bytes;
}

/** Lays out one IFD at `start` (offset within the TIFF block): entries, next-IFD link, then long values. */
function ifdBlock(entries: Entry[], start: number, next: number): Uint8Array {
  entries.sort((a, b) => a.tag - b.tag);
  const tableSize = 2 + entries.length * 12 + 4;
  const values = entries.map(entryBytes);
  const dataSize = values.reduce((sum, value) => sum + (value.length > 4 ? value.length + (value.length % 2) : 0), 0);
  const block = new Uint8Array(tableSize + dataSize);
  const view = new DataView(block.buffer);
  view.setUint16(0, entries.length, true);
  let dataOffset = tableSize;
  entries.forEach((entry, index) => {
    const at = 2 + index * 12;
    const value = values[index]!;
    view.setUint16(at, entry.tag, true);
    view.setUint16(at + 2, typeCode[entry.type], true);
    view.setUint32(at + 4, entry.type === 'short' || entry.type === 'long' ? 1 : value.length, true);
    if (value.length <= 4) block.set(value, at + 8);
    else {
      view.setUint32(at + 8, start + dataOffset, true);
      block.set(value, dataOffset);
      dataOffset += value.length + (value.length % 2);
    }
  });
  view.setUint32(2 + entries.length * 12, next, true);
  return block;
}

function tiff(fields: ExifFields): Uint8Array {
  const exifEntries: Entry[] = [{ tag: 0x9000, type: 'undefined', value: new TextEncoder().encode('0232') }];
  if (fields.dateTimeOriginal) exifEntries.push({ tag: 0x9003, type: 'ascii', value: fields.dateTimeOriginal });
  if (fields.dateTimeDigitized) exifEntries.push({ tag: 0x9004, type: 'ascii', value: fields.dateTimeDigitized });
  if (fields.pixelWidth) exifEntries.push({ tag: 0xa002, type: 'long', value: fields.pixelWidth });
  if (fields.pixelHeight) exifEntries.push({ tag: 0xa003, type: 'long', value: fields.pixelHeight });
  const ifd0Entries: Entry[] = [{ tag: 0x0112, type: 'short', value: 1 }];
  if (fields.make) ifd0Entries.push({ tag: 0x010f, type: 'ascii', value: fields.make });
  if (fields.model) ifd0Entries.push({ tag: 0x0110, type: 'ascii', value: fields.model });
  if (fields.software) ifd0Entries.push({ tag: 0x0131, type: 'ascii', value: fields.software });
  if (fields.modifyDate) ifd0Entries.push({ tag: 0x0132, type: 'ascii', value: fields.modifyDate });
  // Sizes first with placeholder offsets, then again with the real ones (the sizes do not depend on them).
  const build = (exifStart: number, ifd1Start: number, thumbStart: number): Uint8Array[] => {
    const ifd0 = ifdBlock([...ifd0Entries, { tag: 0x8769, type: 'long', value: exifStart }], 8, fields.thumbnail ? ifd1Start : 0);
    const exif = ifdBlock([...exifEntries], exifStart, 0);
    const parts = [ifd0, exif];
    if (fields.thumbnail) {
      const ifd1Entries: Entry[] = [
        { tag: 0x0103, type: 'short', value: 6 },
        { tag: 0x0201, type: 'long', value: thumbStart },
        { tag: 0x0202, type: 'long', value: fields.thumbnail.length },
      ];
      parts.push(ifdBlock(ifd1Entries, ifd1Start, 0), fields.thumbnail);
    }
    return parts;
  };
  const sized = build(0, 0, 0);
  const exifStart = 8 + sized[0]!.length;
  const ifd1Start = exifStart + sized[1]!.length;
  const thumbStart = ifd1Start + (sized[2]?.length ?? 0);
  const parts = build(exifStart, ifd1Start, thumbStart);
  const header = new Uint8Array([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00]);
  return concat([header, ...parts]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The JPEG with an EXIF APP1 segment inserted right after its start-of-image marker. */
export function withExifSegment(jpeg: Uint8Array, fields: ExifFields): Uint8Array {
  const payload = concat([new TextEncoder().encode('Exif\0\0'), tiff(fields)]);
  if (payload.length + 2 > 0xffff) throw new Error('EXIF segment over 64 KB: use a smaller thumbnail');
  const segment = new Uint8Array(4 + payload.length);
  segment.set([0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
  segment.set(payload, 4);
  return concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}
