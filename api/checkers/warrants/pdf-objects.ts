import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFParser, PDFRawStream, PDFRef, PDFString, type PDFContext, type PDFObject } from 'pdf-lib';
import { decodeFlate } from './pdf-streams.ts';

/**
 * The object table of one saved revision, read by pdf-lib's parser from the bytes up to that revision's
 * `%%EOF` (pdf-lib reads a file front to back, later definitions replacing earlier ones, so a prefix is the
 * file as it stood after that save). Only the parser is used: no document model, nothing rewritten.
 */
export interface RevisionState {
  context: PDFContext;
  root: PDFDict | null;
  info: PDFDict | null;
  pages: PageEntry[];
}

export interface PageEntry {
  /** 1-based. */
  number: number;
  ref: PDFRef | null;
  dict: PDFDict;
}

/** Pages beyond this are not examined (the caller says so in the result). */
export const PAGE_LIMIT = 500;

export async function loadRevisionState(bytes: Uint8Array): Promise<RevisionState> {
  const context = await PDFParser.forBytesWithOptions(bytes, Number.POSITIVE_INFINITY, false, true).parseDocument();
  const root = asDict(context.lookup(context.trailerInfo.Root));
  const info = asDict(context.lookup(context.trailerInfo.Info));
  return { context, root, info, pages: root ? pageList(context, root) : [] };
}

/** Leaf pages in order, walking /Kids with a visited set so a looped page tree ends. */
function pageList(context: PDFContext, root: PDFDict): PageEntry[] {
  const pages: PageEntry[] = [];
  const seen = new Set<string>();
  const walk = (node: PDFObject | undefined, depth: number): void => {
    if (pages.length >= PAGE_LIMIT || depth > 32) return;
    const ref = node instanceof PDFRef ? node : null;
    if (ref) {
      if (seen.has(ref.toString())) return;
      seen.add(ref.toString());
    }
    const dict = asDict(context.lookup(node));
    if (!dict) return;
    const kids = asArray(context.lookup(dict.get(PDFName.of('Kids'))));
    if (kids) {
      for (let index = 0; index < kids.size(); index++) walk(kids.get(index), depth + 1);
    } else if (nameOf(context, dict.get(PDFName.of('Type'))) !== 'Pages') {
      pages.push({ number: pages.length + 1, ref, dict });
    }
  };
  walk(root.get(PDFName.of('Pages')), 0);
  return pages;
}

export function asDict(object: PDFObject | undefined): PDFDict | null {
  if (object instanceof PDFDict) return object;
  if (object instanceof PDFRawStream) return object.dict;
  return null;
}

export function asArray(object: PDFObject | undefined): PDFArray | null {
  return object instanceof PDFArray ? object : null;
}

/** Resolves `key` of `dict` through references. */
export function lookup(context: PDFContext, dict: PDFDict | null, key: string): PDFObject | undefined {
  if (!dict) return undefined;
  try {
    return context.lookup(dict.get(PDFName.of(key)));
  } catch {
    return undefined;
  }
}

export function nameOf(context: PDFContext, object: PDFObject | undefined): string | null {
  const resolved = object instanceof PDFRef ? context.lookup(object) : object;
  return resolved instanceof PDFName ? resolved.decodeText() : null;
}

export function textOf(context: PDFContext, object: PDFObject | undefined): string | null {
  const resolved = object instanceof PDFRef ? context.lookup(object) : object;
  if (resolved instanceof PDFString || resolved instanceof PDFHexString) return resolved.decodeText();
  if (resolved instanceof PDFName) return resolved.decodeText();
  if (resolved instanceof PDFNumber) return String(resolved.asNumber());
  return null;
}

export function numbersOf(context: PDFContext, object: PDFObject | undefined): number[] | null {
  const array = asArray(object instanceof PDFRef ? context.lookup(object) : object);
  if (!array) return null;
  const numbers: number[] = [];
  for (let index = 0; index < array.size(); index++) {
    const item = context.lookup(array.get(index));
    if (!(item instanceof PDFNumber)) return null;
    numbers.push(item.asNumber());
  }
  return numbers;
}

/** The first filter of a stream's /Filter, or null for an unfiltered stream. */
export function filterOf(context: PDFContext, stream: PDFRawStream): string | null {
  const filter = context.lookup(stream.dict.get(PDFName.of('Filter')));
  if (filter instanceof PDFName) return filter.decodeText();
  if (filter instanceof PDFArray) return filter.size() === 1 ? nameOf(context, filter.get(0)) : 'several';
  return null;
}

/** A stream's decoded bytes (Flate or unfiltered only, capped), or null. */
export function streamBytes(context: PDFContext, object: PDFObject | undefined): Uint8Array | null {
  const stream = object instanceof PDFRef ? context.lookup(object) : object;
  if (!(stream instanceof PDFRawStream)) return null;
  return decodeFlate(stream.contents, filterOf(context, stream));
}

/** The decoded content streams of a page, joined as the viewer reads them. */
export function pageContent(context: PDFContext, page: PDFDict): Uint8Array {
  const contents = page.get(PDFName.of('Contents'));
  const resolved = contents instanceof PDFRef ? context.lookup(contents) : contents;
  const parts: Uint8Array[] = [];
  if (resolved instanceof PDFArray) {
    for (let index = 0; index < resolved.size(); index++) parts.push(streamBytes(context, resolved.get(index)) ?? new Uint8Array());
  } else {
    parts.push(streamBytes(context, resolved) ?? new Uint8Array());
  }
  return Buffer.concat(parts.flatMap((part) => [part, Buffer.from('\n')]));
}

/**
 * Whether two objects are the same as written: references by number, strings by their bytes (a literal and a
 * hex string of the same bytes are equal, as pyHanko compares them), dictionaries by key set and values,
 * streams by dictionary and encoded bytes.
 */
export function sameValue(a: PDFObject | undefined, b: PDFObject | undefined, depth = 0): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (depth > 64) return false;
  if (a instanceof PDFRef || b instanceof PDFRef) return a instanceof PDFRef && b instanceof PDFRef && a.objectNumber === b.objectNumber && a.generationNumber === b.generationNumber;
  if (a instanceof PDFNumber || b instanceof PDFNumber) return a instanceof PDFNumber && b instanceof PDFNumber && a.asNumber() === b.asNumber();
  const textual = (value: PDFObject): value is PDFString | PDFHexString => value instanceof PDFString || value instanceof PDFHexString;
  if (textual(a) || textual(b)) return textual(a) && textual(b) && Buffer.from(a.asBytes()).equals(Buffer.from(b.asBytes()));
  if (a instanceof PDFRawStream || b instanceof PDFRawStream) {
    return a instanceof PDFRawStream && b instanceof PDFRawStream && sameValue(a.dict, b.dict, depth + 1) && Buffer.from(a.contents).equals(Buffer.from(b.contents));
  }
  if (a instanceof PDFArray || b instanceof PDFArray) {
    return a instanceof PDFArray && b instanceof PDFArray && a.size() === b.size() && a.asArray().every((item, index) => sameValue(item, b.get(index), depth + 1));
  }
  if (a instanceof PDFDict || b instanceof PDFDict) {
    if (!(a instanceof PDFDict && b instanceof PDFDict)) return false;
    const keysA = a.keys().map((key) => key.decodeText());
    const keysB = new Set(b.keys().map((key) => key.decodeText()));
    return keysA.length === keysB.size && keysA.every((key) => keysB.has(key) && sameValue(a.get(PDFName.of(key)), b.get(PDFName.of(key)), depth + 1));
  }
  return a.toString() === b.toString();
}

/** Keys of two dictionaries whose values differ as written, leaving out `ignored`. */
export function differingKeys(a: PDFDict, b: PDFDict, ignored: ReadonlySet<string> = new Set()): string[] {
  const keys = new Set([...a.keys(), ...b.keys()].map((key) => key.decodeText()));
  return [...keys].filter((key) => !ignored.has(key) && !sameValue(a.get(PDFName.of(key)), b.get(PDFName.of(key)))).sort();
}
