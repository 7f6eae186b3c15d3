import { PDFArray, PDFContext, PDFDict, PDFName, PDFNumber, PDFObjectParser, PDFRef, type PDFObject } from 'pdf-lib';
import { decodeMeasured, MEASURED_FILTERS } from './stream-filters.ts';

/**
 * What reading a PDF would cost, measured before pdfjs sees it (the guarded open, guard.ts). pdfjs inflates
 * every stream it reads with no ceiling, in native memory, so a few megabytes of file can stand for
 * gigabytes. Every stream the file holds is found (a dictionary followed by the `stream` keyword), its filter
 * chain read from its dictionary (names, arrays and indirect references, as pdfjs resolves them) and decoded
 * stage by stage through the measured filters with a ceiling, so a chain of Flate over Flate is measured at
 * each stage. pdf-lib's object parser reads the dictionaries: it parses without decoding anything.
 *
 * What is capped: one stream's decoded size; the decoded size of all streams other than images together
 * (text extraction reads content streams, fonts, object streams and cross-reference streams whole); the
 * ratio of decoded to encoded size of a large stream (only near-constant data inflates hundreds of times);
 * each image's decoded size and all images' together (pdfjs inflates an image's data whole when it draws a
 * page). An encrypted file's streams cannot be measured without its key; those rely on the analysis
 * process's memory ceiling (pool.ts) alone, and the report says so.
 */

export interface PdfLimits {
  /** Bytes one stream other than an image may decode to. */
  streamBytes: number;
  /** Bytes all streams other than images may decode to together. */
  totalBytes: number;
  /** Bytes one image's data may decode to, and all images' together. */
  imageBytes: number;
  imageTotalBytes: number;
  /** Decoded-to-encoded ratio above which a stream decoding to more than `ratioFloorBytes` is refused. */
  ratio: number;
  ratioFloorBytes: number;
}

const MB = 1024 * 1024;

export const PDF_LIMITS: PdfLimits = {
  streamBytes: 48 * MB,
  totalBytes: 192 * MB,
  imageBytes: 160 * MB,
  imageTotalBytes: 1024 * MB,
  ratio: 400,
  ratioFloorBytes: 1 * MB,
};

export interface PdfMeasure {
  /** Why the file may not be read, with the offset of the stream that broke a limit; null when it may. */
  refusal: { reason: string; offset: number } | null;
  streams: number;
  /** Decoded bytes of the streams other than images, and of images. */
  decodedBytes: number;
  imageBytes: number;
  /** True when the file is encrypted, so its streams could not be measured. */
  encrypted: boolean;
}

const streamKeyword = />>\s*stream\b/g;
const objectHeader = /(?<![0-9])(\d{1,10})\s+(\d{1,5})\s+obj\b/g;

export async function measurePdf(bytes: Uint8Array, limits: PdfLimits = PDF_LIMITS): Promise<PdfMeasure> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const headers = objectHeaders(text);
  const resolver = new Resolver(bytes, text, headers);
  const encrypted = /\/Encrypt\s*(\d+\s+\d+\s+R|<<)/.test(text);
  const measure: PdfMeasure = { refusal: null, streams: 0, decodedBytes: 0, imageBytes: 0, encrypted };
  if (encrypted) return measure;
  for (const match of text.matchAll(streamKeyword)) {
    const keywordEnd = match.index + match[0].length;
    const header = lastBefore(headers.starts, match.index);
    const dict = header === null ? null : resolver.dictionaryBetween(header.bodyStart, match.index + 2);
    const dataStart = keywordEnd + (text.startsWith('\r\n', keywordEnd) ? 2 : text[keywordEnd] === '\n' || text[keywordEnd] === '\r' ? 1 : 0);
    const data = bytes.subarray(dataStart, streamEnd(text, dataStart, dict, resolver));
    measure.streams += 1;
    const image = dict !== null && resolver.name(dict.get(PDFName.of('Subtype'))) === 'Image';
    const ceilings = image ? imageCeilings(dict, resolver, limits, measure) : streamCeilings(data.length, limits, measure);
    const ceiling = Math.min(...ceilings.map((entry) => entry.bytes));
    const decoded = await decodeChain(data, dict === null ? ['FlateDecode'] : resolver.filters(dict), dict === null ? null : resolver.earlyChange(dict), ceiling);
    if (decoded.overLimit) {
      const broken = ceilings.find((entry) => entry.bytes === ceiling)!;
      measure.refusal = { reason: `${image ? 'an image' : 'a stream'} at byte ${match.index} decompresses past ${broken.why}`, offset: match.index };
      return measure;
    }
    if (image) measure.imageBytes += decoded.length;
    else measure.decodedBytes += decoded.length;
  }
  return measure;
}

interface Ceiling {
  bytes: number;
  /** The limit in words, completing "decompresses past …". */
  why: string;
}

function megabytes(bytes: number): string {
  return bytes < MB ? `${Math.ceil(bytes / 1024)} KB` : `${Math.round((bytes / MB) * 10) / 10} MB`;
}

/** A stream other than an image: its own limit, what is left of the total, and the ratio limit past its floor. */
function streamCeilings(encodedBytes: number, limits: PdfLimits, measure: PdfMeasure): Ceiling[] {
  return [
    { bytes: limits.streamBytes, why: `${megabytes(limits.streamBytes)}, the most one stream may decode to` },
    { bytes: limits.totalBytes - measure.decodedBytes, why: `what is left of the ${megabytes(limits.totalBytes)} the file's streams may decode to together` },
    { bytes: Math.max(limits.ratioFloorBytes, limits.ratio * Math.max(1, encodedBytes)), why: `${limits.ratio} times its stored size (only a decompression bomb inflates this far)` },
  ];
}

/** An image: its own limit, what is left of all images' total, and (when its size is declared) what its pixels need. */
function imageCeilings(dict: PDFDict | null, resolver: Resolver, limits: PdfLimits, measure: PdfMeasure): Ceiling[] {
  const ceilings: Ceiling[] = [
    { bytes: limits.imageBytes, why: `${megabytes(limits.imageBytes)}, the most one image may decode to` },
    { bytes: limits.imageTotalBytes - measure.imageBytes, why: `what is left of the ${megabytes(limits.imageTotalBytes)} the file's images may decode to together` },
  ];
  const expected = dict === null ? null : resolver.imageDataBytes(dict);
  // A row's predictor byte and a little slack: data past this is nothing a reader draws, only inflates.
  if (expected !== null) ceilings.push({ bytes: expected + MB, why: `what its declared size needs (${megabytes(expected)}) by more than a megabyte` });
  return ceilings;
}

/** Decodes through each measured filter in turn, every stage's output under `ceiling`; stops at an image codec or a filter it cannot measure. */
async function decodeChain(data: Uint8Array, filters: readonly string[], earlyChange: number | null, ceiling: number): Promise<{ length: number; overLimit: boolean }> {
  let input = data;
  let length = data.length;
  for (const [index, filter] of filters.entries()) {
    if (!(filter in MEASURED_FILTERS)) return { length, overLimit: false };
    const last = index === filters.length - 1 || !(filters[index + 1]! in MEASURED_FILTERS);
    const decoded = await decodeMeasured(filter as keyof typeof MEASURED_FILTERS, input, ceiling, !last, earlyChange ?? 1);
    if (decoded.overLimit) return { length: decoded.length, overLimit: true };
    length = decoded.length;
    if (last) break;
    input = decoded.bytes ?? new Uint8Array();
  }
  return { length, overLimit: false };
}

/** Where a stream's data ends: the longer of what `/Length` says (when `endstream` follows it) and the first `endstream`, as either may be what a reader uses. */
function streamEnd(text: string, dataStart: number, dict: PDFDict | null, resolver: Resolver): number {
  const searched = text.indexOf('endstream', dataStart);
  const byKeyword = searched < 0 ? text.length : searched;
  const length = dict === null ? null : resolver.number(dict.get(PDFName.of('Length')));
  const byLength = length !== null && length >= 0 && dataStart + length <= text.length ? dataStart + length : -1;
  return Math.max(byKeyword, byLength);
}

interface ObjectHeaders {
  /** Where each object's body starts (after `obj`), in file order. */
  starts: number[];
  /** The last body start of each object number and generation, keyed `"N G"` (a later revision's copy wins, as in the cross-reference chain). */
  byReference: Map<string, number>;
}

function objectHeaders(text: string): ObjectHeaders {
  const starts: number[] = [];
  const byReference = new Map<string, number>();
  for (const match of text.matchAll(objectHeader)) {
    const bodyStart = match.index + match[0].length;
    starts.push(bodyStart);
    byReference.set(`${match[1]} ${match[2]}`, bodyStart);
  }
  return { starts, byReference };
}

function lastBefore(starts: readonly number[], at: number): { bodyStart: number } | null {
  let low = 0;
  let high = starts.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (starts[middle]! < at) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found < 0 ? null : { bodyStart: starts[found]! };
}

/** Reads dictionaries and resolves indirect references by the object headers in the file, one level deep. */
class Resolver {
  private readonly context = PDFContext.create();
  private readonly bytes: Uint8Array;
  private readonly text: string;
  private readonly headers: ObjectHeaders;

  constructor(bytes: Uint8Array, text: string, headers: ObjectHeaders) {
    this.bytes = bytes;
    this.text = text;
    this.headers = headers;
  }

  /** The dictionary written between `from` and `to` (an object's body up to the `stream` keyword), or null when it does not parse. */
  dictionaryBetween(from: number, to: number): PDFDict | null {
    const parsed = this.parse(from, to);
    return parsed instanceof PDFDict ? parsed : null;
  }

  /** Filter names in order; an indirect name that cannot be resolved is taken as Flate, the filter a bomb would use. */
  filters(dict: PDFDict): string[] {
    const filter = this.resolve(dict.get(PDFName.of('Filter')));
    if (filter === undefined) return [];
    if (filter instanceof PDFArray) return filter.asArray().map((item) => this.name(item) ?? 'FlateDecode');
    return [this.name(filter) ?? 'FlateDecode'];
  }

  earlyChange(dict: PDFDict): number | null {
    const params = this.resolve(dict.get(PDFName.of('DecodeParms')));
    const first = params instanceof PDFArray ? this.resolve(params.get(0)) : params;
    return first instanceof PDFDict ? this.number(first.get(PDFName.of('EarlyChange'))) : null;
  }

  /** The bytes an image's pixels take decoded (rows with a predictor byte each), or null when its size is not stated plainly. */
  imageDataBytes(dict: PDFDict): number | null {
    const width = this.number(dict.get(PDFName.of('Width')));
    const height = this.number(dict.get(PDFName.of('Height')));
    if (width === null || height === null || width <= 0 || height <= 0) return null;
    const mask = this.resolve(dict.get(PDFName.of('ImageMask')))?.toString() === 'true';
    const bits = mask ? 1 : (this.number(dict.get(PDFName.of('BitsPerComponent'))) ?? 8);
    const components = mask ? 1 : this.components(dict.get(PDFName.of('ColorSpace')));
    return height * (Math.ceil((width * components * bits) / 8) + 1);
  }

  /** Colour components of a colour space; four (the most a device space has) when it is not stated plainly. */
  private components(value: PDFObject | undefined): number {
    const space = this.resolve(value);
    const family = space instanceof PDFArray ? this.name(space.get(0)) : this.name(space);
    if (family === 'DeviceGray' || family === 'CalGray' || family === 'Indexed' || family === 'Separation' || family === 'G' || family === 'I') return 1;
    if (family === 'DeviceRGB' || family === 'CalRGB' || family === 'Lab' || family === 'RGB') return 3;
    if (family === 'DeviceN' && space instanceof PDFArray) {
      const names = this.resolve(space.get(1));
      if (names instanceof PDFArray) return Math.max(1, names.size());
    }
    return 4;
  }

  name(value: PDFObject | undefined): string | null {
    const resolved = this.resolve(value);
    return resolved instanceof PDFName ? resolved.decodeText() : null;
  }

  number(value: PDFObject | undefined): number | null {
    const resolved = this.resolve(value);
    return resolved instanceof PDFNumber ? resolved.asNumber() : null;
  }

  private resolve(value: PDFObject | undefined): PDFObject | undefined {
    if (!(value instanceof PDFRef)) return value;
    const bodyStart = this.headers.byReference.get(`${value.objectNumber} ${value.generationNumber}`);
    if (bodyStart === undefined) return undefined;
    const end = this.text.indexOf('endobj', bodyStart);
    const parsed = this.parse(bodyStart, end < 0 ? Math.min(this.text.length, bodyStart + 4096) : end);
    return parsed instanceof PDFRef ? undefined : (parsed ?? undefined);
  }

  private parse(from: number, to: number): PDFObject | null {
    try {
      return PDFObjectParser.forBytes(this.bytes.subarray(from, to), this.context).parseObject();
    } catch {
      return null;
    }
  }
}
