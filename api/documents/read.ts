import { readDocxText } from './docx.ts';
import { normaliseImage, withoutRuledLines } from './image.ts';
import { openOcrSession, type OcrSession } from './ocr.ts';
import { embeddedXmlFiles, openPdf, readPageText, renderPagePng, type EmbeddedFile, type PdfDocument } from './pdf.ts';
import { htmlText, textPage } from './plain-text.ts';
import type { IntakeDocument, PageText } from './types.ts';

/**
 * A PDF page whose text layer has fewer visible characters than this is treated as a scan and read by OCR
 * (a scanned page often carries a stray page number or a producer stamp and nothing else).
 */
const minTextLayerCharacters = 20;

/**
 * A text layer with fewer words than this, and more numbers than words, is read as values typed onto a form
 * whose labels are drawn (outlined or scanned artwork, e.g. a pay statement filled in over its template): the
 * page is read by OCR as well and the reading with more words is kept.
 */
const drawnLabelsMaxWords = 30;

export interface ReadOptions {
  /** Pages read from a PDF, from the first. */
  maxPages: number;
  /** Pixels per PDF point when a page is drawn for OCR (2 = 144 dpi). */
  renderScale: number;
  /** false: pages without a text layer stay empty instead of being drawn and read by OCR. */
  ocr: boolean;
  /** true: a PDF's XML attachments (an embedded e-invoice) are read too. */
  embeddedFiles?: boolean;
  /** Keep the picture each OCR'd page was read from (`ReadDocument.ocrImages`), for a reader that looks again at part of it. */
  keepOcrImages?: boolean;
}

/** The upright PNG an OCR'd page was read from; its pixels per point are `png width / page width`. */
export interface OcrImage {
  page: number;
  png: Uint8Array;
}

export interface ReadDocument {
  /** Pages the document has (1 for an image, text, HTML or .docx). */
  pageCount: number;
  /** The pages read, at most `maxPages`. */
  pages: PageText[];
  /** A PDF's XML attachments, when `embeddedFiles` asked for them. */
  embedded?: EmbeddedFile[];
  /** With `keepOcrImages`, the picture of each page read by OCR; otherwise empty. */
  ocrImages: OcrImage[];
}

/**
 * The text of any accepted document, page by page: a PDF's text layer, with OCR of the pages that have
 * none; an image by OCR; .docx, plain text and HTML as one page of text. OCR runs in `session` when one is
 * given (its owner closes it, so several documents share one worker); otherwise one worker serves the
 * whole document and is terminated before this returns. Throws when the bytes cannot be parsed as their kind.
 */
export async function readDocument(document: IntakeDocument, options: ReadOptions, session?: OcrSession): Promise<ReadDocument> {
  const ocr = session ?? openOcrSession();
  try {
    return await readByKind(document, options, ocr);
  } finally {
    if (session === undefined) await ocr.close();
  }
}

async function readByKind(document: IntakeDocument, options: ReadOptions, ocr: OcrSession): Promise<ReadDocument> {
  const ocrImages: OcrImage[] = [];
  const keep = (image: OcrImage) => {
    if (options.keepOcrImages) ocrImages.push(image);
  };
  switch (document.kind) {
    case 'pdf':
      return { ...(await readPdf(document.bytes, options, ocr, keep)), ocrImages };
    case 'image':
      return { pageCount: 1, pages: [await readImage(document.bytes, options, ocr, keep)], ocrImages };
    case 'docx':
      return { pageCount: 1, pages: [await readDocxText(document.bytes)], ocrImages };
    case 'text':
      return { pageCount: 1, pages: [textPage(decodeText(document.bytes))], ocrImages };
    case 'html':
      return { pageCount: 1, pages: [textPage(htmlText(decodeText(document.bytes)))], ocrImages };
  }
}

async function readPdf(bytes: Uint8Array, options: ReadOptions, ocr: OcrSession, keep: (image: OcrImage) => void): Promise<Omit<ReadDocument, 'ocrImages'>> {
  const pdf = await openPdf(bytes);
  try {
    const pages: PageText[] = [];
    for (let pageNumber = 1; pageNumber <= Math.min(options.maxPages, pdf.numPages); pageNumber++) {
      pages.push(await readPdfPage(pdf, pageNumber, options, ocr, keep));
    }
    return { pageCount: pdf.numPages, pages, ...(options.embeddedFiles ? { embedded: await embeddedXmlFiles(pdf) } : {}) };
  } finally {
    await pdf.destroy();
  }
}

/** A page's text layer, or its OCR reading when the layer is empty or holds only a form's typed-in values and OCR reads more words. */
async function readPdfPage(pdf: PdfDocument, pageNumber: number, options: ReadOptions, ocr: OcrSession, keep: (image: OcrImage) => void): Promise<PageText> {
  const page = await readPageText(pdf, pageNumber);
  const empty = visibleCharacters(page.text) < minTextLayerCharacters;
  if (!options.ocr || !(empty || labelsLookDrawn(page.text))) return page;
  const png = await renderPagePng(pdf, pageNumber, options.renderScale);
  const read = await (await ocr.reader()).readPage(png, pageNumber, options.renderScale);
  if (!empty && wordCount(read.text) <= wordCount(page.text)) return page;
  keep({ page: pageNumber, png });
  return read;
}

async function readImage(bytes: Uint8Array, options: ReadOptions, ocr: OcrSession, keep: (image: OcrImage) => void): Promise<PageText> {
  const image = await normaliseImage(bytes, { forOcr: options.ocr });
  if (!options.ocr) return { page: 1, width: image.width / image.scale, height: image.height / image.scale, source: 'ocr', items: [], text: '', confidence: 0 };
  keep({ page: 1, png: image.png });
  return (await ocr.reader()).readPage(await withoutRuledLines(image.png), 1, image.scale);
}

/** Whether a text layer holds mostly numbers and few words, as a form's typed-in values without its labels do. */
function labelsLookDrawn(text: string): boolean {
  const words = wordCount(text);
  return words < drawnLabelsMaxWords && words < (text.match(/\d[\d.,]*/g) ?? []).length;
}

/** Runs of three or more letters. */
function wordCount(text: string): number {
  return (text.match(/\p{L}{3,}/gu) ?? []).length;
}

function visibleCharacters(text: string): number {
  return text.replace(/\s/g, '').length;
}

/** UTF-8 with a byte-order mark dropped; invalid bytes become U+FFFD rather than failing the read. */
function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}
