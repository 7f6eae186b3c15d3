import { openOcrReader, openOcrSession, type OcrReader, type OcrSession } from '../documents/ocr.ts';
import { openMrzOcrReader, openMrzOcrSession, type MrzOcrReader, type MrzOcrSession } from '../documents/ocr-mrz.ts';
import { openPdf, pdfLibraries, renderPagePng } from '../documents/pdf.ts';
import { readDocument } from '../documents/read.ts';
import type { IntakeDocument, PageText } from '../documents/types.ts';
import { classifyPage, type DocumentClassification, type PageImageFacts, type ZoneSummary } from './document-types.ts';
import { readPicture, wordsIn } from './first-page-picture.ts';
import { mrzDate } from './identity/mrz.ts';
import { printedAgreement, readPrintedFields } from './identity/printed-fields.ts';
import { readMrz, type MrzRead } from './identity/mrz-read.ts';
import type { AnalysisContext } from './types.ts';

/** Page 1 of a document as the identity and pack checkers classify it: its text, what pictures it holds and its machine-readable zone. */
export interface FirstPage {
  page: PageText | null;
  images: PageImageFacts;
  /** The zone found and read on page 1 (null when the page shows none: no line there looks like one). */
  zone: MrzRead | null;
}

/**
 * One read of page 1 (OCR when there is no text layer, so a photographed card still reads; a picture as
 * first-page-picture.ts reads it; a PDF page that is one picture under a few words of text layer by OCR
 * too), in `ocr`'s worker when one is given, then the machine-readable zone where page 1 shows one
 * (identity/mrz-read.ts), in `shapes`' worker. For a PDF the same page's drawing operations are also walked to measure its
 * largest picture, because a scanned licence inside a PDF shows its photo only as an embedded image.
 * Sessions not given are opened here and closed before this returns.
 */
export async function readFirstPage(document: IntakeDocument, ocr?: OcrSession, shapes?: MrzOcrSession): Promise<FirstPage> {
  const lines = ocr ?? openOcrSession();
  const zoneReader = shapes ?? openMrzOcrSession();
  try {
    if (document.kind === 'image') {
      const { page, zone } = await readPicture(document.bytes, lines, zoneReader);
      return { page, images: { isImage: true, largestImageShare: 1 }, zone };
    }
    const { pages, ocrImages } = await readDocument(document, { maxPages: 1, renderScale: 2, ocr: true, keepOcrImages: true }, lines);
    let page = pages[0] ?? null;
    let picture = ocrImages[0]?.png ?? null;
    const largestImageShare = document.kind === 'pdf' ? await largestPdfImageShare(document.bytes) : 0;
    if (document.kind === 'pdf' && page?.source === 'text_layer' && largestImageShare >= PICTURE_PAGE_SHARE && page.text.replace(/\s/g, '').length < PICTURE_PAGE_TEXT) {
      // A photo or scan saved as a PDF by a browser or a phone: its text layer is a header or a footer, the document is the picture.
      const drawn = await renderFirstPage(document.bytes);
      const read = await (await lines.reader()).readPage(drawn, 1, PICTURE_RENDER_SCALE);
      if (wordsIn(read) > wordsIn(page)) [page, picture] = [read, drawn];
    }
    const read = page === null ? null : await readMrz(page, picture, { shapes: zoneReader, lines });
    const zone = read?.zone ? read : null;
    return { page, images: { isImage: false, largestImageShare }, zone };
  } finally {
    if (ocr === undefined) await lines.close();
    if (shapes === undefined) await zoneReader.close();
  }
}

/** A page mostly one picture: its largest image covers at least this share of it. */
const PICTURE_PAGE_SHARE = 0.15;
/** ...and its text layer has fewer visible characters than this. */
const PICTURE_PAGE_TEXT = 200;
const PICTURE_RENDER_SCALE = 2;

async function renderFirstPage(bytes: Uint8Array): Promise<Uint8Array> {
  const pdf = await openPdf(bytes);
  try {
    return await renderPagePng(pdf, 1, PICTURE_RENDER_SCALE);
  } finally {
    await pdf.destroy();
  }
}

/** A zone as the classification keeps it: no name, number or date of birth (see ZoneSummary); `page` gives the printed fields it is compared with. */
export function summariseZone(read: MrzRead | null, now: string, page: PageText | null = null): ZoneSummary | null {
  const zone = read?.zone;
  if (!read || !zone) return null;
  const printed = readPrintedFields(page, monthFirstDates(page, zone.fields.issuing_state));
  const expiryVerifies = zone.checks.some((check) => check.name === 'expiry_date' && check.valid);
  return {
    format: zone.format,
    document_code: zone.fields.document_code,
    issuing_state: zone.fields.issuing_state,
    expires: expiryVerifies ? mrzDate(zone.fields.expiry_date, 'expiry', now) : null,
    checks: zone.checks.map((check) => ({ name: check.name, valid: check.valid })),
    valid: zone.valid,
    corrections: zone.corrections.map((correction) => ({ ...correction })),
    adjustments: read.adjustments,
    printed_agrees: printedAgreement(printed, zone, now),
    where: read.band ? `page 1, pixels ${read.band.left},${read.band.top} ${read.band.width}x${read.band.height}` : 'page 1, text layer',
  };
}

/** A document as the identity and pack judgements see it: its name and what page 1 was classified as. */
export interface ClassifiedDocument {
  filename: string | null;
  classification: DocumentClassification;
  /** Why the document could not be read, when it could not. */
  unreadable: string | null;
}

/**
 * Each document classified from page 1, in order. A document an earlier request classified
 * (`context.firstPages`) takes that classification; the others are read, all in one OCR worker (and one
 * zone-reading worker, started only when a page shows a zone) terminated before this returns, and each new classification (never the page's text) is told to
 * `context.firstPageClassified` for the route to keep. A document that could not be read is not told.
 * `startOcr` starts that worker (tests count starts through it).
 */
export async function classifyFirstPages(
  documents: IntakeDocument[],
  context: AnalysisContext,
  startOcr: () => Promise<OcrReader> = openOcrReader,
  startZoneReader: () => Promise<MrzOcrReader> = openMrzOcrReader,
): Promise<ClassifiedDocument[]> {
  const ocr = openOcrSession(startOcr);
  const shapes = openMrzOcrSession(startZoneReader);
  // The same bytes sent twice in one request are read once too.
  const classifications = new Map(context.firstPages);
  try {
    const classified: ClassifiedDocument[] = [];
    for (const [index, document] of documents.entries()) {
      try {
        let classification = classifications.get(document.sha256);
        if (classification === undefined) {
          context.progress?.(`reading document ${index + 1} of ${documents.length}`);
          const read = await readFirstPage(document, ocr, shapes);
          classification = classifyPage(read.page, read.images, summariseZone(read.zone, context.now, read.page));
          classifications.set(document.sha256, classification);
          context.firstPageClassified?.(document.sha256, classification);
        }
        classified.push({ filename: document.filename, classification, unreadable: null });
      } catch (error) {
        classified.push({ filename: document.filename, classification: classifyPage(null, { isImage: false, largestImageShare: 0 }), unreadable: error instanceof Error ? error.message : String(error) });
      }
    }
    return classified;
  } finally {
    await Promise.all([ocr.close(), shapes.close()]);
  }
}

/** Documents of the United States print dates month first (05/31/28); the rest of the corpus's issuers day first. */
export function monthFirstDates(page: PageText | null, issuingState: string | null): boolean {
  return issuingState === 'USA' || /UNITED STATES|\bU\.?S\.?A\b|AAMVA|\bDL\b|\b4[ABD] ?(EXP|ISS|DL|NUMBER)/i.test(page?.text ?? '');
}

type Matrix = [number, number, number, number, number, number];

/** The share of page 1's area covered by its largest image: images are drawn into the unit square under the current matrix. */
export async function largestPdfImageShare(bytes: Uint8Array): Promise<number> {
  // pdfjs through pdfLibraries, never a static import: loaded before canvas-globals.ts, pdfjs would install the
  // Path2D of the canvas copy it nests, which the page canvas rejects, and every scanned page drawing a path would fail to render.
  const { pdfjs } = await pdfLibraries();
  const pdf = await openPdf(bytes);
  try {
    const page = await pdf.getPage(1);
    try {
      const [x0, y0, x1, y1] = page.view as [number, number, number, number];
      const pageArea = Math.abs((x1 - x0) * (y1 - y0)) || 1;
      const operators = await page.getOperatorList();
      let matrix: Matrix = [1, 0, 0, 1, 0, 0];
      const saved: Matrix[] = [];
      let largest = 0;
      for (let index = 0; index < operators.fnArray.length; index++) {
        const op = operators.fnArray[index];
        const args = operators.argsArray[index] as unknown[] | null;
        if (op === pdfjs.OPS.save) saved.push(matrix);
        else if (op === pdfjs.OPS.restore || op === pdfjs.OPS.paintFormXObjectEnd) matrix = saved.pop() ?? matrix;
        else if (op === pdfjs.OPS.paintFormXObjectBegin) {
          // A form (a scanner's or pdf-lib's wrapper around an image) draws under its own matrix, undone at its end.
          saved.push(matrix);
          const formMatrix = args?.[0] as ArrayLike<number> | null | undefined;
          if (formMatrix && formMatrix.length === 6) matrix = multiply(matrix, Array.from(formMatrix) as Matrix);
        }
        else if (op === pdfjs.OPS.transform && args) matrix = multiply(matrix, args as Matrix);
        else if (op === pdfjs.OPS.paintImageXObject || op === pdfjs.OPS.paintInlineImageXObject || op === pdfjs.OPS.paintImageMaskXObject) {
          // The unit square's image under the matrix is a parallelogram whose area is |det|.
          largest = Math.max(largest, Math.abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]) / pageArea);
        }
      }
      return Math.min(1, largest);
    } finally {
      page.cleanup();
    }
  } finally {
    await pdf.destroy();
  }
}

function multiply(current: Matrix, next: Matrix): Matrix {
  const [a, b, c, d, e, f] = current;
  const [a2, b2, c2, d2, e2, f2] = next;
  return [a2 * a + b2 * c, a2 * b + b2 * d, c2 * a + d2 * c, c2 * b + d2 * d, e2 * a + f2 * c + e, e2 * b + f2 * d + f];
}
