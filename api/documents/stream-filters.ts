import { createBrotliDecompress, createInflate, type Inflate, type BrotliDecompress } from 'node:zlib';

/**
 * PDF stream filters (ISO 32000-1 §7.4) decoded with a ceiling on what they produce, for the guarded open
 * (pdf-guard.ts). pdfjs-dist and pdf-lib decode without one, so a few kilobytes can stand for gigabytes.
 * Flate and Brotli go through Node's zlib as streams, counting what comes out and stopping at the ceiling;
 * LZW, RunLength, ASCIIHex and ASCII85 are written here because no kept library decodes PDF's variants of
 * them with an output cap (each is a few lines of the standard's algorithm). Corrupt data decodes as far as
 * it goes, as pdfjs does, so a bomb with a broken tail is still measured by what its head inflates to.
 */

/** What one filter produced: the bytes (when asked to keep them for the next filter), how many, and whether the ceiling stopped it. */
export interface Decoded {
  bytes: Uint8Array | null;
  length: number;
  overLimit: boolean;
}

/** Filters whose output is measured here; image codecs (DCT, JPX, JBIG2, CCITT) are bounded by their declared pixels instead. */
export const MEASURED_FILTERS: Readonly<Record<string, 'flate' | 'brotli' | 'lzw' | 'runlength' | 'asciihex' | 'ascii85'>> = {
  FlateDecode: 'flate',
  Fl: 'flate',
  BrotliDecode: 'brotli',
  LZWDecode: 'lzw',
  LZW: 'lzw',
  RunLengthDecode: 'runlength',
  RL: 'runlength',
  ASCIIHexDecode: 'asciihex',
  AHx: 'asciihex',
  ASCII85Decode: 'ascii85',
  A85: 'ascii85',
};

/** Decodes `data` through one measured filter, producing at most `limit` bytes. */
export async function decodeMeasured(filter: keyof typeof MEASURED_FILTERS, data: Uint8Array, limit: number, keep: boolean, earlyChange = 1): Promise<Decoded> {
  switch (MEASURED_FILTERS[filter]) {
    case 'flate':
      return decodeZlib(createInflate(), data, limit, keep);
    case 'brotli':
      return decodeZlib(createBrotliDecompress(), data, limit, keep);
    case 'lzw':
      return fromSync(decodeLzw(data, limit + 1, earlyChange), limit, keep);
    case 'runlength':
      return fromSync(decodeRunLength(data, limit + 1), limit, keep);
    case 'asciihex':
      return fromSync(decodeAsciiHex(data), limit, keep);
    case 'ascii85':
      return fromSync(decodeAscii85(data, limit + 1), limit, keep);
    default:
      throw new Error(`${String(filter)} is not a measured filter`);
  }
}

function fromSync(bytes: Uint8Array, limit: number, keep: boolean): Decoded {
  const overLimit = bytes.length > limit;
  return { bytes: keep && !overLimit ? bytes : null, length: Math.min(bytes.length, limit + 1), overLimit };
}

/** Streams `data` through a zlib decoder, counting output and stopping once it passes `limit`; a data error ends it where it stood. */
function decodeZlib(decoder: Inflate | BrotliDecompress, data: Uint8Array, limit: number, keep: boolean): Promise<Decoded> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let settled = false;
    const settle = (overLimit: boolean) => {
      if (settled) return;
      settled = true;
      decoder.removeAllListeners('data');
      decoder.destroy();
      resolve({ bytes: keep && !overLimit ? new Uint8Array(Buffer.concat(chunks, length)) : null, length, overLimit });
    };
    decoder.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > limit) return settle(true);
      if (keep) chunks.push(chunk);
    });
    decoder.on('error', () => settle(false));
    decoder.on('end', () => settle(false));
    decoder.end(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  });
}

/** LZW as PDF uses it (§7.4.4): 9- to 12-bit codes, 256 clears, 257 ends; stops once `cap` bytes are out. */
export function decodeLzw(data: Uint8Array, cap: number, earlyChange = 1): Uint8Array {
  const out = new GrowingBytes(cap);
  // Entry n is the string of entry prefixes[n] followed by the byte suffixes[n]; the first 256 are single bytes.
  const prefixes = new Int32Array(4096).fill(-1);
  const suffixes = new Uint8Array(4096);
  for (let byte = 0; byte < 256; byte++) suffixes[byte] = byte;
  const reversed = new Uint8Array(4096);
  let next = 258;
  let width = 9;
  let previous = -1;
  let bits = 0;
  let buffer = 0;
  for (let at = 0; at < data.length && !out.full; at++) {
    buffer = (buffer << 8) | data[at]!;
    bits += 8;
    while (bits >= width && !out.full) {
      const code = (buffer >>> (bits - width)) & ((1 << width) - 1);
      bits -= width;
      if (code === 256) {
        next = 258;
        width = 9;
        previous = -1;
        continue;
      }
      if (code === 257) return out.bytes();
      // A code one past the table (KwKwK) is the previous string followed by its own first byte.
      const known = code < 256 || code < next;
      if (!known && !(code === next && previous >= 0)) return out.bytes();
      let length = 0;
      for (let walk = known ? code : previous; walk >= 0 && length < 4096; walk = prefixes[walk]!) reversed[length++] = suffixes[walk]!;
      const first = reversed[length - 1]!;
      for (let back = length - 1; back >= 0; back--) out.push(reversed[back]!);
      if (!known) out.push(first);
      if (previous >= 0 && next < 4096) {
        prefixes[next] = previous;
        suffixes[next] = first;
        next++;
        if (next + earlyChange >= 1 << width && width < 12) width++;
      }
      previous = code;
    }
  }
  return out.bytes();
}

/** RunLength (§7.4.5): a length byte, then literal bytes or one repeated byte; 128 ends. */
export function decodeRunLength(data: Uint8Array, cap: number): Uint8Array {
  const out = new GrowingBytes(cap);
  for (let at = 0; at < data.length && !out.full; ) {
    const length = data[at++]!;
    if (length === 128) break;
    if (length < 128) {
      for (let n = 0; n <= length && at < data.length && !out.full; n++) out.push(data[at++]!);
    } else {
      const value = data[at++];
      if (value === undefined) break;
      for (let n = 0; n < 257 - length && !out.full; n++) out.push(value);
    }
  }
  return out.bytes();
}

/** ASCIIHex (§7.4.2): never longer than half its input. */
export function decodeAsciiHex(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(data.length / 2));
  let length = 0;
  let high = -1;
  for (const byte of data) {
    if (byte === 0x3e) break;
    const digit = byte >= 0x30 && byte <= 0x39 ? byte - 0x30 : byte >= 0x41 && byte <= 0x46 ? byte - 0x37 : byte >= 0x61 && byte <= 0x66 ? byte - 0x57 : -1;
    if (digit < 0) continue;
    if (high < 0) high = digit;
    else {
      out[length++] = (high << 4) | digit;
      high = -1;
    }
  }
  if (high >= 0) out[length++] = high << 4;
  return out.subarray(0, length);
}

/** ASCII85 (§7.4.3): five characters to four bytes, `z` for four zeros, `~>` ends. */
export function decodeAscii85(data: Uint8Array, cap: number): Uint8Array {
  const out = new GrowingBytes(cap);
  const group: number[] = [];
  const flush = (count: number) => {
    let value = 0;
    for (let n = 0; n < 5; n++) value = value * 85 + (group[n] ?? 84);
    for (let n = 0; n < count - 1; n++) out.push((value >>> (24 - 8 * n)) & 0xff);
    group.length = 0;
  };
  for (let at = 0; at < data.length && !out.full; at++) {
    const byte = data[at]!;
    if (byte === 0x7e) break;
    if (byte === 0x7a && group.length === 0) {
      for (let n = 0; n < 4; n++) out.push(0);
      continue;
    }
    if (byte < 0x21 || byte > 0x75) continue;
    group.push(byte - 0x21);
    if (group.length === 5) flush(5);
  }
  if (group.length > 1 && !out.full) flush(group.length);
  return out.bytes();
}

/** A byte buffer that doubles as it fills, up to a cap, after which it takes no more. */
class GrowingBytes {
  private buffer = new Uint8Array(1024);
  private length = 0;
  private readonly cap: number;
  constructor(cap: number) {
    this.cap = cap;
  }
  get full(): boolean {
    return this.length >= this.cap;
  }
  push(byte: number): void {
    if (this.length >= this.cap) return;
    if (this.length === this.buffer.length) {
      const grown = new Uint8Array(Math.min(this.cap, this.buffer.length * 2));
      grown.set(this.buffer);
      this.buffer = grown;
    }
    this.buffer[this.length++] = byte;
  }
  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}
