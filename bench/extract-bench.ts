import { PDFDocument, StandardFonts } from 'pdf-lib';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { analyseExtraction } from '../api/checkers/extract/analyse.ts';
import { extractRequestOptions } from '../api/checkers/extract/options.ts';

export interface ExtractBenchResult {
  pages: number;
  /** Median of the rounds: pdfjs-dist alone opening the PDF and reading every page's text. */
  pdfjsMs: number;
  /** Median of the rounds: POST /v1/extract's analysis with `template: tax_invoice` and no options. */
  extractMs: number;
  ratio: number;
}

/** A 10-page tax invoice: a header block on page 1, then 40 line items a page, totals on the last page. */
async function tenPageInvoice(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let pageNumber = 1; pageNumber <= 10; pageNumber++) {
    const page = pdf.addPage([595, 842]);
    const line = (x: number, y: number, text: string) => page.drawText(text, { x, y: 842 - y, size: 10, font });
    if (pageNumber === 1) {
      ['Kestrel Civil Works Pty Ltd', 'ABN 51 824 753 556', 'TAX INVOICE', 'Invoice number: INV-20417', 'Invoice date: 3 May 2026', 'Bill to: Riverina Shire Council'].forEach((text, index) => line(50, 50 + index * 14, text));
    }
    for (let row = 0; row < 40; row++) {
      const y = 160 + row * 15;
      line(50, y, `Site works item ${pageNumber}.${row + 1}`);
      line(330, y, String((row % 9) + 1));
      line(400, y, '125.00');
      line(480, y, `${((row % 9) + 1) * 125}.00`);
    }
    if (pageNumber === 10) ['Subtotal: $225,000.00', 'GST: $22,500.00', 'Total: $247,500.00'].forEach((text, index) => line(360, 780 + index * 14, text));
  }
  return pdf.save();
}

async function pdfjsAlone(bytes: Uint8Array): Promise<void> {
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) await (await pdf.getPage(pageNumber)).getTextContent();
  await pdf.destroy();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * The speed goal for extraction (≤ 2× pdfjs alone): both timed in the same run, alternating, after
 * one warm-up each, so module loading and the machine's load fall on both alike.
 */
export async function benchExtract(rounds = 7): Promise<ExtractBenchResult> {
  const bytes = await tenPageInvoice();
  const options = extractRequestOptions.parse({ template: 'tax_invoice' });
  const document = { bytes, kind: 'pdf' as const, mime: 'application/pdf', sha256: '0'.repeat(64), filename: null };
  const extract = () => analyseExtraction([document], options, { now: '2026-06-01T00:00:00.000Z' });
  await pdfjsAlone(bytes);
  await extract();
  const pdfjsTimes: number[] = [];
  const extractTimes: number[] = [];
  for (let round = 0; round < rounds; round++) {
    let start = performance.now();
    await pdfjsAlone(bytes);
    pdfjsTimes.push(performance.now() - start);
    start = performance.now();
    await extract();
    extractTimes.push(performance.now() - start);
  }
  const pdfjsMs = median(pdfjsTimes);
  const extractMs = median(extractTimes);
  return { pages: 10, pdfjsMs, extractMs, ratio: extractMs / pdfjsMs };
}

if (import.meta.main) {
  const result = await benchExtract();
  process.stdout.write(`extract (template, no options), 10-page text PDF: ${result.extractMs.toFixed(0)} ms; pdfjs alone: ${result.pdfjsMs.toFixed(0)} ms; ratio ${result.ratio.toFixed(2)}× (goal ≤ 2×)\n`);
}
