import { normaliseImage } from '../documents/image.ts';
import { openPdf, renderPagePng } from '../documents/pdf.ts';
import type { IntakeDocument } from '../documents/types.ts';
import type { AnalysisContext } from '../checkers/types.ts';

/**
 * Draws one page of a bid file as a PNG. It runs in a pool thread (`render_page` in
 * api/checkers/registry.ts), under the pool's time and memory caps, because the bytes are untrusted.
 */

/** Pixels per PDF point: 1.5 is 108 dpi, readable on screen at a fraction of a print render's size. */
export const RENDER_SCALE = 1.5;

export interface RenderPageOptions {
  /** 1-based. */
  page: number;
}

export interface RenderedPage {
  png: Uint8Array;
}

/**
 * Page `options.page` of a PDF drawn at `RENDER_SCALE`, or an image upright as PNG (an image has one page).
 * Throws for other kinds (text and .docx have no fixed page layout to draw) and for a page the PDF lacks.
 */
export async function renderPage(documents: IntakeDocument[], options: RenderPageOptions, context: AnalysisContext): Promise<RenderedPage> {
  const [document] = documents;
  if (document === undefined || documents.length !== 1) throw new Error('render_page draws one document at a time');
  context.progress?.('rendering');
  if (document.kind === 'image') {
    if (options.page !== 1) throw new Error(`an image has one page, not ${options.page}`);
    return { png: (await normaliseImage(document.bytes)).png };
  }
  if (document.kind !== 'pdf') throw new Error(`a ${document.kind} document has no fixed pages to draw`);
  const pdf = await openPdf(document.bytes);
  try {
    if (options.page < 1 || options.page > pdf.numPages) throw new Error(`the PDF has ${pdf.numPages} pages, not ${options.page}`);
    return { png: await renderPagePng(pdf, options.page, RENDER_SCALE) };
  } finally {
    await pdf.destroy();
  }
}
