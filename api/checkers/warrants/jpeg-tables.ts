/**
 * JPEG quantisation tables (DQT segments) read straight from the bytes. No kept library exposes them: sharp
 * decodes the pixels and exifr reads the metadata, neither returns the tables, so the marker walk is ours.
 * The tables fingerprint the encoder (ExifTool's JPEGDigest and JPEGQualityEstimate; Kee, Johnson & Farid,
 * "Digital Image Authentication From JPEG Headers", IEEE TIFS 2011): software encoders scale a published
 * base table by a quality setting, cameras mostly use tables of their own.
 */

/** Position in natural (row-major) order of each zig-zag index: DQT stores coefficients in zig-zag order. */
const zigzagToNatural = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22,
  15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
];

/** ITU-T T.81 Annex K tables, the base libjpeg (IJG) and its descendants scale by quality. */
const annexKLuminance = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24,
  35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
const annexKChrominance = [
  17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99, ...new Array<number>(32).fill(99),
];
/** N. Robidoux's table, mozjpeg's default for both luminance and chrominance (mozjpeg jcparam.c, table 3). */
const robidoux = [
  16, 16, 16, 18, 25, 37, 56, 85, 16, 17, 20, 27, 34, 40, 53, 75, 16, 20, 24, 31, 43, 62, 91, 135, 18, 27, 31, 40, 53, 74, 106, 156, 25, 34, 43, 53, 69, 94, 131, 189,
  37, 40, 62, 74, 94, 124, 169, 238, 56, 53, 91, 106, 131, 169, 226, 311, 85, 75, 135, 156, 189, 238, 311, 418,
];

interface EncoderFamily {
  name: string;
  luminance: number[];
  chrominance: number[];
}

const families: EncoderFamily[] = [
  { name: 'IJG libjpeg standard tables (libjpeg-turbo, GIMP, ImageMagick, Pillow, libvips/sharp, browsers)', luminance: annexKLuminance, chrominance: annexKChrominance },
  { name: 'mozjpeg default tables (N. Robidoux)', luminance: robidoux, chrominance: robidoux },
];

export interface QuantisationTable {
  /** Table slot 0–3 (Tq): 0 is luminance by convention, 1 chrominance. */
  id: number;
  /** 64 values in natural (row-major) order. */
  values: number[];
  /** Byte offset of the DQT marker that holds this table. */
  offset: number;
}

export interface TableFingerprint {
  tables: QuantisationTable[];
  /** The software family whose base tables, scaled by IJG quality, give exactly these tables; null when none does. */
  family: string | null;
  /** The quality setting: exact when a family matched, else estimated from the luminance table. */
  quality: number | null;
  exact: boolean;
}

/**
 * The quantisation tables of the main image: DQT segments before the first start-of-scan, walking marker
 * lengths so that a thumbnail inside APP1 (which has tables of its own) is skipped. Returns [] for a file
 * that is not a JPEG or whose markers are broken before any table.
 */
export function readQuantisationTables(bytes: Uint8Array): QuantisationTable[] {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables: QuantisationTable[] = [];
  let position = 2;
  while (position + 4 <= bytes.length) {
    if (bytes[position] !== 0xff) break;
    const marker = bytes[position + 1]!;
    if (marker === 0xff) {
      position += 1; // fill byte before a marker
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break;
    const length = view.getUint16(position + 2);
    const end = position + 2 + length;
    if (length < 2 || end > bytes.length) break;
    if (marker === 0xdb) {
      let cursor = position + 4;
      while (cursor < end) {
        const precision = bytes[cursor]! >> 4;
        const id = bytes[cursor]! & 0x0f;
        const size = precision === 0 ? 1 : 2;
        if (cursor + 1 + 64 * size > end) break;
        const values = new Array<number>(64);
        for (let k = 0; k < 64; k++) values[zigzagToNatural[k]!] = size === 1 ? bytes[cursor + 1 + k]! : view.getUint16(cursor + 1 + 2 * k);
        tables.push({ id, values, offset: position });
        cursor += 1 + 64 * size;
      }
    }
    position = end;
  }
  return tables;
}

/** libjpeg's jpeg_quality_scaling and jpeg_add_quant_table with force_baseline (values clamped to 1..255). */
export function scaledTable(base: readonly number[], quality: number): number[] {
  const scale = quality < 50 ? Math.floor(5000 / quality) : 200 - quality * 2;
  return base.map((value) => Math.min(255, Math.max(1, Math.floor((value * scale + 50) / 100))));
}

function sameTable(a: readonly number[], b: readonly number[]): boolean {
  return a.every((value, index) => value === b[index]);
}

/** Which encoder family and quality produced these tables, or the nearest IJG quality when none matches. */
export function fingerprintTables(tables: QuantisationTable[]): TableFingerprint {
  const luminance = tables.find((table) => table.id === 0) ?? tables[0];
  if (!luminance) return { tables, family: null, quality: null, exact: false };
  const chrominance = tables.find((table) => table.id === 1);
  for (const family of families) {
    for (let quality = 1; quality <= 100; quality++) {
      if (!sameTable(luminance.values, scaledTable(family.luminance, quality))) continue;
      if (chrominance && !sameTable(chrominance.values, scaledTable(family.chrominance, quality))) continue;
      return { tables, family: family.name, quality, exact: true };
    }
  }
  return { tables, family: null, quality: estimateQuality(luminance.values), exact: false };
}

/** ImageMagick-style estimate: the mean ratio to the Annex K luminance table, inverted through IJG scaling. */
function estimateQuality(values: readonly number[]): number {
  const meanScale = values.reduce((sum, value, index) => sum + (value * 100) / annexKLuminance[index]!, 0) / values.length;
  const quality = meanScale <= 100 ? (200 - meanScale) / 2 : 5000 / meanScale;
  return Math.min(100, Math.max(1, Math.round(quality)));
}
