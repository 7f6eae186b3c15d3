import type { ReadTextOptions, ReadTextResult } from '../checkers/read-text.ts';
import type { DocumentFormat } from '../documents/sniff.ts';
import type { AnalysisPool } from '../checkers/_runner/pool.ts';
import type { DocumentKind, IntakeDocument } from '../documents/types.ts';
import type { FileReading } from './files.ts';

/** The formats a bid file may be (judged from the content by api/documents/sniff.ts): PDF, .docx, plain text and images. */
export const BID_FILE_FORMATS: readonly DocumentFormat[] = ['pdf', 'docx', 'text', 'png', 'jpeg', 'webp', 'bmp', 'tiff'];

/** Pages of a PDF whose text is read and kept; a longer document keeps its first pages' text. */
export const MAX_READ_PAGES = 500;

/** The pool's name of the reading step (api/checkers/registry.ts). */
const READ_TEXT = 'read_text';

/** What a file name's extension claims the content is, for the extensions bid files come with. */
const KIND_OF_EXTENSION: Readonly<Record<string, DocumentKind>> = {
  pdf: 'pdf',
  docx: 'docx',
  txt: 'text',
  text: 'text',
  md: 'text',
  csv: 'text',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  webp: 'image',
  bmp: 'image',
  tif: 'image',
  tiff: 'image',
};

const KIND_NAMES: Readonly<Record<DocumentKind, string>> = { pdf: 'a PDF', docx: 'a Word document', text: 'plain text', image: 'an image', html: 'an HTML page' };

/**
 * Why a file whose name claims one kind but whose content is another is refused, or null when they agree
 * (or the name claims nothing we know). A mislabelled file is nearly always the wrong file, and the name
 * travels with it to whoever opens the link.
 */
export function nameMismatch(filename: string | null, kind: DocumentKind): string | null {
  const extension = filename?.match(/\.([A-Za-z0-9]+)$/)?.[1]?.toLowerCase();
  const claimed = extension === undefined ? undefined : KIND_OF_EXTENSION[extension];
  if (claimed === undefined || claimed === kind) return null;
  return `${filename} is named as ${KIND_NAMES[claimed]} (.${extension}) but its content is ${KIND_NAMES[kind]}; check you chose the right file, or rename it to match what it is.`;
}

/** A file the guarded open refused, or whose reading needed more memory than a document may use: never stored. */
export interface RefusedFile {
  status: 'refused';
  httpStatus: 400 | 422;
  detail: string;
}

/**
 * Reads every page's text in an analysis process (`read_text`: the text layer, OCR of pages without one,
 * .docx and text as one page). When OCR makes the read outlast the pool's time limit, the text layer alone is
 * read again, so a long scanned tender still gives the pages that carry text. A file refused by the guarded
 * open (a decompression bomb, a ZIP that is no Word document) or stopped at the memory ceiling comes back as
 * `refused`, for the caller to answer without storing it. Throws `AnalysisPoolFullError` when the pool
 * refuses the work at once (the caller answers 503 and stores nothing).
 */
export async function readFilePages(pool: AnalysisPool, document: IntakeDocument, now: Date): Promise<FileReading | RefusedFile> {
  const read = (options: ReadTextOptions) => pool.run<ReadTextResult>({ analysis: READ_TEXT, documents: [document], options, now: now.toISOString() });
  let outcome = await read({ max_pages: MAX_READ_PAGES, ocr: true });
  let detail: string | null = null;
  if (!outcome.ok && outcome.failure === 'timeout' && document.kind === 'pdf') {
    outcome = await read({ max_pages: MAX_READ_PAGES, ocr: false });
    detail = 'Reading the scanned pages took too long, so only the text the PDF carries was kept; pages without it are empty.';
  }
  if (!outcome.ok && outcome.failure === 'refused') return { status: 'refused', httpStatus: outcome.status, detail: outcome.detail };
  if (!outcome.ok && outcome.failure === 'memory') return { status: 'refused', httpStatus: 422, detail: `The file was not kept: ${outcome.detail}` };
  if (!outcome.ok) return { status: 'failed', pageCount: 0, pages: [], detail: `The file is kept, but its text could not be read: ${outcome.detail}` };
  const [readResult] = outcome.result.documents;
  if (readResult === undefined) return { status: 'failed', pageCount: 0, pages: [], detail: 'The file is kept, but the reader returned no text for it.' };
  const capped = readResult.page_count > MAX_READ_PAGES ? `Only the first ${MAX_READ_PAGES} of ${readResult.page_count} pages were read.` : null;
  return {
    status: 'read',
    pageCount: readResult.page_count,
    pages: readResult.pages.map((page) => ({ n: page.page, text: page.text, source: page.source })),
    detail: [detail, capped].filter((line) => line !== null).join(' ') || null,
  };
}
