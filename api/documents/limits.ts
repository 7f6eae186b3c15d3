/**
 * The limits the guarded open (guard.ts) holds documents to, in a module of their own so that the server's
 * thread can judge a ZIP's entry count without loading any document engine.
 */

/** Pixels an image may have to be decoded (sharp's `limitInputPixels`, pdfjs's `maxImageSize`): an A4 page scanned at 600 dpi is 35 million. */
export const IMAGE_PIXEL_LIMIT = 40_000_000;
/** Pages a PDF may declare; more than any document of 25 MB holds, and far fewer than a page-tree bomb claims. */
export const PDF_PAGE_LIMIT = 50_000;
/** Entries a Word document's ZIP container may hold (a real .docx holds tens to a few hundred). */
export const DOCX_ENTRY_LIMIT = 5_000;
/** What a Word document's entries may inflate to together. */
export const DOCX_INFLATED_LIMIT = 192 * 1024 * 1024;
