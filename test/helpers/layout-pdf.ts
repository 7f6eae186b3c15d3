import { PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { openPdf, readPagesText } from '../../api/documents/pdf.ts';
import type { IntakeDocument, PageText } from '../../api/documents/types.ts';

/** A run of text placed by its top-left corner, in points from the page's top-left (as PageText reads it). */
export interface PlacedText {
  text: string;
  x: number;
  top: number;
  size?: number;
  bold?: boolean;
}

export interface LayoutPage {
  texts: PlacedText[];
  /** Link annotations to a URL or to a page of the same PDF (1-based), boxes from the top-left. */
  links?: { x: number; top: number; width: number; height: number; url?: string; toPage?: number }[];
  /** Images drawn at these boxes, from the top-left. */
  images?: { x: number; top: number; width: number; height: number }[];
}

export const A4 = { width: 595, height: 842 };

/** A PDF whose every run of text, link and image sits where the caller says (pdf-lib, standard fonts). */
export async function layoutPdf(pages: LayoutPage[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();
  const image = await pdf.embedPng(png);
  const added = pages.map(() => pdf.addPage([A4.width, A4.height]));
  for (const [index, spec] of pages.entries()) {
    const page = added[index]!;
    for (const run of spec.texts) {
      const size = run.size ?? 10;
      // pdfjs reports a run's top as baseline minus font size: put the baseline one size below the top.
      page.drawText(run.text, { x: run.x, y: A4.height - run.top - size, size, font: run.bold ? bold : regular });
    }
    for (const box of spec.images ?? []) page.drawImage(image, { x: box.x, y: A4.height - box.top - box.height, width: box.width, height: box.height });
    const annotations = (spec.links ?? []).map((link) =>
      pdf.context.register(
        pdf.context.obj({
          Type: 'Annot',
          Subtype: 'Link',
          Rect: [link.x, A4.height - link.top - link.height, link.x + link.width, A4.height - link.top],
          Border: [0, 0, 0],
          ...(link.toPage ? { Dest: [added[link.toPage - 1]!.ref, 'Fit'] } : { A: { Type: 'Action', S: 'URI', URI: PDFString.of(link.url ?? '') } }),
        }),
      ),
    );
    if (annotations.length > 0) page.node.set(PDFName.of('Annots'), pdf.context.obj(annotations));
  }
  return pdf.save({ useObjectStreams: false });
}

/** The bytes as an intake document and the pages pdf.ts reads from them: what an option receives. */
export async function readLayoutPdf(bytes: Uint8Array): Promise<{ document: IntakeDocument; pages: PageText[] }> {
  const pdf = await openPdf(bytes);
  try {
    const pages = await readPagesText(pdf);
    return { document: { bytes, sha256: 'test', kind: 'pdf', mime: 'application/pdf', filename: 'test.pdf' }, pages };
  } finally {
    await pdf.destroy();
  }
}
