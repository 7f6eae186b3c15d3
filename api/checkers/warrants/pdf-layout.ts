/**
 * The byte layout of a PDF: where each saved revision ends, where its cross-reference section sits and where
 * its /Prev chain leads. Neither pdf-lib nor pdfjs-dist exposes these (both hide revisions behind one merged
 * object table), so this module reads them itself with a few anchored patterns over the raw bytes.
 */

export interface RevisionLayout {
  /** 0 = the original file, 1 = the first incremental update, … */
  index: number;
  /** First byte of this revision's section (0 for the original). */
  start: number;
  /** Byte just after this revision's `%%EOF`: the file as it stood after this save is `bytes[0, end)`. */
  end: number;
  /** Offset where the `startxref` keyword of this revision begins. */
  startxrefAt: number;
  /** The offset `startxref` names. */
  xrefOffset: number;
  /** What sits at `xrefOffset`: a classic table, a cross-reference stream, or nothing recognisable. */
  xrefKind: 'table' | 'stream' | 'missing';
  /** /Prev of this revision's trailer or cross-reference stream, when present. */
  prev: number | null;
  /** /XRefStm of a hybrid-reference file's trailer, when present. */
  xrefStm: number | null;
}

export interface PdfLayout {
  /** Offset of `%PDF-`, or -1 when the file has no header. */
  headerOffset: number;
  version: string | null;
  /** Offset of every `%%EOF` marker, wherever it is. */
  eofMarkers: number[];
  /** The revisions in file order (a linearised file's first-page section is not a revision of its own). */
  revisions: RevisionLayout[];
  linearized: boolean;
  /** Bytes after the last `%%EOF` that are not whitespace. */
  trailingBytes: number;
  /** Offsets of every `N G obj` header, keyed `"N G"`, in file order. */
  objectHeaders: Map<string, number[]>;
  encrypted: boolean;
  /** Offset of the last trailer's /Encrypt entry, when the file is encrypted. */
  encryptAt: number | null;
  objectStreams: number;
  /** The first object stream's header, when there is one. */
  firstObjectStream: { object: string; offset: number } | null;
}

/** One byte per character, so string offsets are byte offsets. */
export function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

const revisionEnd = /startxref\s+(\d+)\s*%%EOF/g;
const objectHeader = /(?<![0-9])(\d{1,10})\s+(\d{1,5})\s+obj\b/g;

export function scanLayout(bytes: Uint8Array): PdfLayout {
  const text = latin1(bytes);
  const headerOffset = text.indexOf('%PDF-');
  const version = headerOffset >= 0 ? (/%PDF-(\d\.\d)/.exec(text.slice(headerOffset, headerOffset + 16))?.[1] ?? null) : null;
  const eofMarkers: number[] = [];
  for (let at = text.indexOf('%%EOF'); at >= 0; at = text.indexOf('%%EOF', at + 5)) eofMarkers.push(at);
  const lastEof = eofMarkers.at(-1);
  const trailingBytes = lastEof === undefined ? 0 : text.slice(lastEof + 5).replace(/[\s\0]+/g, '').length;
  const linearized = /\/Linearized\b/.test(text.slice(Math.max(0, headerOffset), Math.max(0, headerOffset) + 1024));

  const ends: { startxrefAt: number; xrefOffset: number; end: number }[] = [];
  for (const match of text.matchAll(revisionEnd)) ends.push({ startxrefAt: match.index, xrefOffset: Number(match[1]), end: match.index + match[0].length });
  // A linearised file opens with a first-page cross-reference section and its own %%EOF; that section and the
  // main body form one revision, so the first end is dropped when the file is linearised.
  if (linearized && ends.length > 1 && ends[0]!.xrefOffset < ends[0]!.startxrefAt && text.slice(ends[0]!.end, ends[1]!.startxrefAt).includes(' obj')) ends.shift();

  const revisions: RevisionLayout[] = ends.map((end, index) => {
    const kind = xrefKindAt(text, end.xrefOffset);
    const trailer = trailerText(text, end.xrefOffset, kind, end.startxrefAt);
    return {
      index,
      start: index === 0 ? 0 : ends[index - 1]!.end,
      end: end.end,
      startxrefAt: end.startxrefAt,
      xrefOffset: end.xrefOffset,
      xrefKind: kind,
      prev: numberKey(trailer, 'Prev'),
      xrefStm: numberKey(trailer, 'XRefStm'),
    };
  });

  const objectHeaders = new Map<string, number[]>();
  for (const match of text.matchAll(objectHeader)) {
    const key = `${match[1]} ${match[2]}`;
    const list = objectHeaders.get(key);
    if (list) list.push(match.index);
    else objectHeaders.set(key, [match.index]);
  }
  const encrypted = /\/Encrypt\s*(\d+\s+\d+\s+R|<<)/.test(trailersOf(text, revisions));
  return {
    headerOffset,
    version,
    eofMarkers,
    revisions,
    linearized,
    trailingBytes,
    objectHeaders,
    encrypted,
    encryptAt: encrypted ? lastMatch(text, /\/Encrypt\s*(\d+\s+\d+\s+R|<<)/g) : null,
    objectStreams: (text.match(/\/Type\s*\/ObjStm\b/g) ?? []).length,
    firstObjectStream: firstObjectStream(text, objectHeaders),
  };
}

function lastMatch(text: string, pattern: RegExp): number | null {
  let last: number | null = null;
  for (const match of text.matchAll(pattern)) last = match.index;
  return last;
}

/** The object whose dictionary first says /Type /ObjStm: the last object header before that mark. */
function firstObjectStream(text: string, headers: Map<string, number[]>): PdfLayout['firstObjectStream'] {
  const mark = /\/Type\s*\/ObjStm\b/.exec(text);
  if (!mark) return null;
  let best: PdfLayout['firstObjectStream'] = null;
  for (const [object, offsets] of headers) {
    for (const offset of offsets) if (offset < mark.index && (!best || offset > best.offset)) best = { object: `${object} R`, offset };
  }
  return best;
}

function xrefKindAt(text: string, offset: number): RevisionLayout['xrefKind'] {
  if (offset <= 0 || offset >= text.length) return 'missing';
  const head = text.slice(offset, offset + 64);
  if (/^\s*xref\b/.test(head)) return 'table';
  if (/^\s*\d+\s+\d+\s+obj\b/.test(head) && /\/Type\s*\/XRef\b/.test(text.slice(offset, offset + 2048))) return 'stream';
  return 'missing';
}

/** The trailer dictionary text (classic) or the cross-reference stream's dictionary text for one revision. */
function trailerText(text: string, xrefOffset: number, kind: RevisionLayout['xrefKind'], startxrefAt: number): string {
  if (kind === 'table') {
    const at = text.lastIndexOf('trailer', startxrefAt);
    return at > xrefOffset ? text.slice(at, startxrefAt) : '';
  }
  if (kind === 'stream') {
    const streamAt = text.indexOf('stream', xrefOffset);
    return streamAt > 0 ? text.slice(xrefOffset, Math.min(streamAt, xrefOffset + 4096)) : '';
  }
  return '';
}

function trailersOf(text: string, revisions: RevisionLayout[]): string {
  return revisions.map((revision) => trailerText(text, revision.xrefOffset, revision.xrefKind, revision.startxrefAt)).join('\n');
}

function numberKey(dictText: string, key: string): number | null {
  const match = new RegExp(`/${key}\\s+(\\d+)(?!\\s+\\d+\\s+R)`).exec(dictText);
  return match ? Number(match[1]) : null;
}

/** Where the /Prev chain from the last revision leads: the offsets visited, and how it ended. */
export function followPrevChain(bytes: Uint8Array, layout: PdfLayout, limit = 64): { visited: number[]; problem: 'cycle' | 'dangling' | 'too_long' | null; at: number | null } {
  const last = layout.revisions.at(-1);
  if (!last) return { visited: [], problem: null, at: null };
  const text = latin1(bytes);
  const byOffset = new Map(layout.revisions.map((revision) => [revision.xrefOffset, revision]));
  const visited: number[] = [last.xrefOffset];
  let prev = last.prev;
  while (prev !== null) {
    if (visited.includes(prev)) return { visited, problem: 'cycle', at: prev };
    if (visited.length >= limit) return { visited, problem: 'too_long', at: prev };
    const kind = xrefKindAt(text, prev);
    if (kind === 'missing') return { visited, problem: 'dangling', at: prev };
    visited.push(prev);
    const known = byOffset.get(prev);
    // A linearised file's first-page table is reached by /Prev too; read its /Prev straight from the bytes.
    prev = known ? known.prev : numberKey(trailerText(text, prev, kind, text.indexOf('startxref', prev)), 'Prev');
  }
  return { visited, problem: null, at: null };
}

/** Entries of classic cross-reference tables checked at most, per revision. */
export const XREF_ENTRY_LIMIT = 5000;

export interface XrefMismatch {
  revision: number;
  checked: number;
  wrong: number;
  first: { object: number; offset: number } | null;
}

/**
 * In-use entries of each classic table whose offset does not land on that object's `N G obj` header. A
 * program that saves a PDF writes exact offsets; wrong ones mean the bytes were changed by hand (or the file
 * was damaged) after it was written.
 */
export function xrefTableMismatches(bytes: Uint8Array, layout: PdfLayout): XrefMismatch[] {
  const text = latin1(bytes);
  const mismatches: XrefMismatch[] = [];
  for (const revision of layout.revisions) {
    if (revision.xrefKind !== 'table') continue;
    const tableEnd = text.indexOf('trailer', revision.xrefOffset);
    const table = text.slice(revision.xrefOffset, tableEnd < 0 ? revision.startxrefAt : tableEnd);
    let checked = 0;
    let wrong = 0;
    let first: XrefMismatch['first'] = null;
    let object = 0;
    for (const line of table.split(/\r\n|\r|\n/)) {
      const header = /^\s*(\d+)\s+(\d+)\s*$/.exec(line);
      if (header) {
        object = Number(header[1]);
        continue;
      }
      const entry = /^\s*(\d{10})\s+(\d{5})\s+([nf])/.exec(line);
      if (!entry) continue;
      const current = object++;
      if (entry[3] !== 'n' || checked >= XREF_ENTRY_LIMIT) continue;
      checked += 1;
      const offset = Number(entry[1]);
      // Exactly at the header: not at whitespace before it, not inside a longer number.
      const exact = new RegExp(`^${current}\\s+${Number(entry[2])}\\s+obj\\b`).test(text.slice(offset, offset + 32)) && !/\d/.test(text.charAt(offset - 1));
      if (!exact) {
        wrong += 1;
        first ??= { object: current, offset };
      }
    }
    if (wrong > 0) mismatches.push({ revision: revision.index, checked, wrong, first });
  }
  return mismatches;
}
