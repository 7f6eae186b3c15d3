import { PDFDocument, PDFRawStream, type PDFObject, type PDFRef } from 'pdf-lib';

/**
 * Incremental updates the way an editor appends them: the original bytes untouched, then the objects that
 * changed, a cross-reference section for them and a trailer pointing back (/Prev) to the one before.
 * pdf-lib only writes whole files, so the appending is done here.
 */

function serialise(object: PDFObject): Uint8Array {
  const bytes = new Uint8Array(object.sizeInBytes());
  object.copyBytesInto(bytes, 0);
  return bytes;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

const latin1 = (text: string): Uint8Array => Buffer.from(text, 'latin1');

export interface UpdateOptions {
  /** Text written before the first object, e.g. ExifTool's `%BeginExifToolUpdate` line. */
  prefix?: string;
  /** Keep only these changed objects (e.g. streams only). */
  keep?: (object: PDFObject) => boolean;
}

/**
 * Opens `original`, lets `change` edit the document, and appends every object that then differs from the
 * original (or is new) as one incremental update.
 */
export async function appendChanges(original: Uint8Array, change: (document: PDFDocument) => Promise<void> | void, options: UpdateOptions = {}): Promise<Uint8Array> {
  const [pristine, edited] = await Promise.all([PDFDocument.load(original, { updateMetadata: false }), PDFDocument.load(original, { updateMetadata: false })]);
  await change(edited);
  const changed: [PDFRef, PDFObject][] = [];
  for (const [ref, object] of edited.context.enumerateIndirectObjects()) {
    const before = pristine.context.lookup(ref);
    if (before && sameBytes(serialise(before), serialise(object))) continue;
    if (options.keep && !options.keep(object)) continue;
    changed.push([ref, object]);
  }
  const trailer = edited.context.trailerInfo;
  const entries = [`/Size ${edited.context.largestObjectNumber + 1}`, `/Root ${String(trailer.Root)}`, ...(trailer.Info ? [`/Info ${trailer.Info.toString()}`] : [])];
  return appendObjects(original, changed.map(([ref, object]) => ({ ref: ref.toString().replace(/ R$/, ''), bytes: serialise(object) })), entries.join(' '), options.prefix);
}

/** Page content streams of `source` put in place of the same-numbered streams of `original`, as an update. */
export async function appendContentFrom(original: Uint8Array, source: Uint8Array, options: UpdateOptions = {}): Promise<Uint8Array> {
  const donor = await PDFDocument.load(source, { updateMetadata: false });
  return appendChanges(
    original,
    (document) => {
      for (const [ref, object] of donor.context.enumerateIndirectObjects()) {
        if (object instanceof PDFRawStream && document.context.lookup(ref) instanceof PDFRawStream) document.context.assign(ref, object);
      }
    },
    { ...options, keep: (object) => object instanceof PDFRawStream },
  );
}

/** Appends objects given as "num gen" + serialised body, with their xref section and a trailer. */
export function appendObjects(original: Uint8Array, objects: { ref: string; bytes: Uint8Array }[], trailerEntries: string, prefix = ''): Uint8Array {
  const text = Buffer.from(original).toString('latin1');
  const prev = /startxref\s+(\d+)\s*%%EOF\s*$/.exec(text)?.[1];
  if (prev === undefined) throw new Error('the original has no startxref at its end');
  const parts: Uint8Array[] = [original, latin1(prefix)];
  let offset = original.length + prefix.length;
  const offsets: [string, number][] = [];
  for (const object of objects) {
    const head = latin1(`${object.ref} obj\n`);
    const tail = latin1('\nendobj\n');
    offsets.push([object.ref, offset]);
    parts.push(head, object.bytes, tail);
    offset += head.length + object.bytes.length + tail.length;
  }
  const sorted = offsets.sort((a, b) => Number(a[0].split(' ')[0]) - Number(b[0].split(' ')[0]));
  let xref = 'xref\n';
  for (const [ref, at] of sorted) {
    const [num, gen] = ref.split(' ');
    xref += `${num} 1\n${String(at).padStart(10, '0')} ${gen!.padStart(5, '0')} n \n`;
  }
  parts.push(latin1(`${xref}trailer\n<< ${trailerEntries} /Prev ${prev} >>\nstartxref\n${offset}\n%%EOF\n`));
  return Buffer.concat(parts);
}
