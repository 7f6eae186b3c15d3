import { openPdf } from '../../../documents/pdf.ts';
import type { PdfDocument } from '../../../documents/pdf.ts';
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api.d.ts';
import type { IntakeDocument, PageText } from '../../../documents/types.ts';

/**
 * Runs `visit` over each page the extract core read, on the PDF itself (annotations and drawing operators
 * are not in the page text). Documents other than PDFs have no such pages: nothing is visited.
 */
export async function eachPdfPage<T>(document: IntakeDocument, pages: readonly PageText[], visit: (page: PDFPageProxy, pdf: PdfDocument) => Promise<T[]>): Promise<T[]> {
  if (document.kind !== 'pdf') return [];
  const pdf: PdfDocument = await openPdf(document.bytes);
  try {
    const found: T[] = [];
    for (const { page: pageNumber } of pages) {
      if (pageNumber > pdf.numPages) continue;
      const page = await pdf.getPage(pageNumber);
      try {
        found.push(...(await visit(page, pdf)));
      } finally {
        page.cleanup();
      }
    }
    return found;
  } finally {
    await pdf.destroy();
  }
}
