import type { ZipFile } from 'yauzl';
import { DOCX_ENTRY_LIMIT, DOCX_INFLATED_LIMIT, IMAGE_PIXEL_LIMIT, PDF_PAGE_LIMIT } from './limits.ts';
import type { PdfMeasure } from './pdf-guard.ts';
import { DocumentRefused } from './refusal.ts';

/**
 * The guarded open: every reader of untrusted bytes (PDF, .docx, image) asks here first, inside the analysis
 * process, and nothing is parsed when the answer is no. What each check costs is bounded by the file's own
 * size; what it prevents is a reader asked to hold far more than the file (DocumentRefused, 422) or a
 * container read as something it is not (400). Checks passed are remembered per buffer, so the several
 * readers one analysis runs over the same bytes (page 1, the text, a render) measure the file once. The
 * limits are in limits.ts.
 */

const DOCX_RATIO = 400;
const DOCX_RATIO_FLOOR = 1024 * 1024;

const measured = new WeakMap<ArrayBufferLike, { start: number; end: number; measure: PdfMeasure | null }[]>();

/**
 * What reading this PDF would cost (pdf-guard.ts), measured once per buffer: the several readers one analysis
 * runs over the same bytes, or over a prefix of them (an earlier revision), share the measure.
 */
export async function measurePdfOnce(bytes: Uint8Array): Promise<PdfMeasure> {
  const known = rangeOf(bytes)?.measure;
  if (known) return known;
  // Loaded on first use: only analysis processes measure files (pdf-lib's parser reads the dictionaries).
  const { measurePdf } = await import('./pdf-guard.ts');
  const measure = await measurePdf(bytes);
  remember(bytes, measure);
  return measure;
}

/** Throws DocumentRefused when reading this PDF would decode past the limits (pdf-guard.ts says which). */
export async function guardPdf(bytes: Uint8Array): Promise<void> {
  const measure = await measurePdfOnce(bytes);
  if (measure.refusal !== null) {
    throw new DocumentRefused(`The PDF was not read: ${measure.refusal.reason}. A file that expands this far is a decompression bomb or badly made; send a copy saved again from the program that made it.`);
  }
}

/** Throws DocumentRefused when a PDF declares more pages than any document of this size holds. */
export function guardPageCount(pages: number): void {
  if (pages > PDF_PAGE_LIMIT) throw new DocumentRefused(`The PDF was not read: it declares ${pages} pages, and documents are read up to ${PDF_PAGE_LIMIT} pages.`);
}

/**
 * Throws DocumentRefused unless the bytes are a Word document's ZIP container within the limits: at most
 * `DOCX_ENTRY_LIMIT` entries (judged from the central directory before any entry is read), names that stay
 * inside the archive, entries that together inflate to at most `DOCX_INFLATED_LIMIT` and no large entry that
 * inflates hundreds of times, with `word/document.xml` among them. Every entry is inflated with yauzl, which
 * fails an entry that inflates past the size it declares, so the declared sizes the limits are judged on hold.
 */
export async function guardDocx(bytes: Uint8Array): Promise<void> {
  if (rangeOf(bytes) !== null) return;
  const { default: yauzl } = await import('yauzl');
  let zip: ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { lazyEntries: true, validateEntrySizes: true, strictFileNames: false, decodeStrings: true });
  } catch (error) {
    throw new DocumentRefused(`The document was not read: its ZIP container is damaged (${messageOf(error)}).`, 400);
  }
  try {
    if (zip.entryCount > DOCX_ENTRY_LIMIT) throw new DocumentRefused(`The document was not read: its ZIP container holds ${zip.entryCount} entries, and a Word document is read with at most ${DOCX_ENTRY_LIMIT}.`);
    let declared = 0;
    let holdsDocument = false;
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName === 'word/document.xml') holdsDocument = true;
      if (entry.uncompressedSize > DOCX_RATIO_FLOOR && entry.uncompressedSize > DOCX_RATIO * Math.max(1, entry.compressedSize)) {
        throw new DocumentRefused(`The document was not read: its entry ${entry.fileName} inflates ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))}-fold (a decompression bomb).`);
      }
      declared += entry.uncompressedSize;
      if (declared > DOCX_INFLATED_LIMIT) throw new DocumentRefused(`The document was not read: its entries inflate to more than ${DOCX_INFLATED_LIMIT / 1024 / 1024} MB together.`);
      if (entry.fileName.endsWith('/')) continue;
      await drain(await zip.openReadStreamPromise(entry));
    }
    if (!holdsDocument) throw new DocumentRefused('The document is a ZIP archive that holds no Word document (no word/document.xml); send the .docx itself, or a PDF.', 400);
  } catch (error) {
    if (error instanceof DocumentRefused) throw error;
    throw new DocumentRefused(`The document was not read: ${messageOf(error)}.`, 400);
  } finally {
    zip.close();
  }
  remember(bytes, null);
}

/** Turns sharp's pixel-limit error into a refusal; any other decoding error is the caller's to report. */
export function refusalOfImageError(error: unknown): unknown {
  return error instanceof Error && /pixel limit/i.test(error.message)
    ? new DocumentRefused(`The image was not read: it has more than ${IMAGE_PIXEL_LIMIT / 1_000_000} million pixels, the most an image is decoded with.`)
    : error;
}

async function drain(stream: NodeJS.ReadableStream): Promise<void> {
  for await (const _chunk of stream) {
    // Only the inflating matters: yauzl checks the size as the chunks pass.
  }
}

function rangeOf(bytes: Uint8Array): { measure: PdfMeasure | null } | null {
  return (measured.get(bytes.buffer) ?? []).find((range) => bytes.byteOffset >= range.start && bytes.byteOffset + bytes.byteLength <= range.end) ?? null;
}

function remember(bytes: Uint8Array, measure: PdfMeasure | null): void {
  const ranges = measured.get(bytes.buffer) ?? [];
  ranges.push({ start: bytes.byteOffset, end: bytes.byteOffset + bytes.byteLength, measure });
  measured.set(bytes.buffer, ranges);
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
}
