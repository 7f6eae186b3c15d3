/**
 * The shapes every checker and the bid area share for a document that came in (api/checkers/_runner/intake.ts)
 * and for what was read from it (api/documents/pdf.ts, ocr.ts, image.ts, docx.ts). Kept free of any
 * library type so a worker thread can receive them by structured clone.
 */

/** What the content says the file is (judged by `file-type` and a few text checks, never by the file name). */
export type DocumentKind = 'pdf' | 'image' | 'docx' | 'text' | 'html';

/** A document as a checker receives it: whole bytes, already within the 25 MB limit and non-empty. */
export interface IntakeDocument {
  bytes: Uint8Array;
  /** Lowercase hex SHA-256 of `bytes`: the content-cache key with the options. */
  sha256: string;
  kind: DocumentKind;
  /** The sniffed media type, e.g. `application/pdf`, `image/jpeg`, `text/plain`. */
  mime: string;
  /** The name the caller gave (metadata only: never a path, never used to judge the type), or null. */
  filename: string | null;
}

/**
 * One run of text on a page. Coordinates are in PDF points with the origin at the page's top-left corner
 * (y grows downwards), so a box reads the way a person looks at the page. For OCR pages the units are
 * points too (the render scale is divided out).
 */
export interface TextItem {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** The font's name as the PDF declares it (e.g. `ABCDEF+Helvetica`), or null for OCR. */
  font: string | null;
}

/** The text of one page, with where each run sits. */
export interface PageText {
  /** 1-based. */
  page: number;
  width: number;
  height: number;
  /** `text_layer` when the PDF carries the text; `ocr` when it was read from a render. */
  source: 'text_layer' | 'ocr';
  items: TextItem[];
  /** The page's text in reading order, lines joined with `\n`. */
  text: string;
  /** Mean OCR word confidence 0..1 for OCR pages; 1 for text-layer pages. */
  confidence: number;
}
