import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { openPdf, renderPagePng } from './pdf.ts';
import { readDocument } from './read.ts';
import type { DocumentKind, IntakeDocument } from './types.ts';

function intake(bytes: Uint8Array, kind: DocumentKind, mime: string): IntakeDocument {
  return { bytes, kind, mime, sha256: '0'.repeat(64), filename: null };
}

const invoiceLines = ['TAX INVOICE', 'Invoice number: INV-20417', 'Total amount payable: $1,234.50'];

/** A three-page A4 text PDF, every page carrying the invoice lines and its page number. */
async function textPdf(pages = 3): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) {
    const page = pdf.addPage([595, 842]);
    [...invoiceLines, `Page ${n} of ${pages}`].forEach((line, index) => page.drawText(line, { x: 60, y: 760 - index * 28, size: 16, font }));
  }
  return pdf.save();
}

/** A PDF whose single page is only a picture of the text PDF's first page: no text layer at all. */
async function scannedPdf(): Promise<Uint8Array> {
  const png = await renderPagePng(await openPdf(await textPdf(1)), 1, 2);
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(png);
  pdf.addPage([595, 842]).drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
  return pdf.save();
}

test('a text PDF is read from its text layer, up to maxPages, with the whole page count', async () => {
  const read = await readDocument(intake(await textPdf(3), 'pdf', 'application/pdf'), { maxPages: 2, renderScale: 2, ocr: true });
  assert.equal(read.pageCount, 3);
  assert.deepEqual(read.pages.map((page) => [page.page, page.source]), [[1, 'text_layer'], [2, 'text_layer']]);
  assert.equal(read.pages[1]!.text, [...invoiceLines, 'Page 2 of 3'].join('\n'));
});

test('a PDF page without a text layer is drawn and read by OCR, boxes in points', async () => {
  const read = await readDocument(intake(await scannedPdf(), 'pdf', 'application/pdf'), { maxPages: 10, renderScale: 2, ocr: true });
  const page = read.pages[0]!;
  assert.equal(page.source, 'ocr');
  assert.match(page.text, /TAX INVOICE\nInvoice number: INV-20417\nTotal amount payable: \$1,234\.50/);
  assert.ok(page.confidence > 0.8, `mean word confidence ${page.confidence}`);
  assert.ok(Math.abs(page.width - 595) < 1 && Math.abs(page.height - 842) < 1, `page ${page.width}×${page.height}`);
  // "TAX INVOICE" was drawn at x 60 with its baseline 82 pt from the top at 16 pt: its box must sit there in
  // points, as one run (words a space apart), like the text layer's.
  const title = page.items.find((item) => item.text === 'TAX INVOICE')!;
  assert.ok(Math.abs(title.x - 60) < 3 && title.y > 60 && title.y < 82, `title at ${title.x},${title.y}`);
});

test('without OCR a scanned page stays empty rather than being guessed', async () => {
  const read = await readDocument(intake(await scannedPdf(), 'pdf', 'application/pdf'), { maxPages: 10, renderScale: 2, ocr: false });
  assert.equal(read.pages[0]!.source, 'text_layer');
  assert.equal(read.pages[0]!.text, '');
});

test('an image is turned upright by its EXIF orientation and read by OCR', async () => {
  const png = await renderPagePng(await openPdf(await textPdf(1)), 1, 2);
  // Stored rotated a quarter turn with orientation 6 ("rotate 90° clockwise to view"), as phone cameras do.
  const jpeg = await sharp(png).rotate(-90).jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toBuffer();
  const read = await readDocument(intake(new Uint8Array(jpeg), 'image', 'image/jpeg'), { maxPages: 10, renderScale: 2, ocr: true });
  assert.equal(read.pageCount, 1);
  assert.match(read.pages[0]!.text, /Invoice number: INV-20417/);
});

test('an image over the pixel cap is refused instead of decoded', async () => {
  const huge = await sharp({ create: { width: 8_000, height: 6_000, channels: 3, background: '#ffffff' } }).greyscale().png({ compressionLevel: 9 }).toBuffer();
  await assert.rejects(readDocument(intake(new Uint8Array(huge), 'image', 'image/png'), { maxPages: 10, renderScale: 2, ocr: true }), /pixel limit/);
});

test('plain text, HTML and .docx become one page of text', async () => {
  const options = { maxPages: 10, renderScale: 2, ocr: true };
  const text = await readDocument(intake(new TextEncoder().encode('Invoice number: 7\r\n\r\n\r\nTotal: $5'), 'text', 'text/plain'), options);
  assert.deepEqual([text.pageCount, text.pages[0]!.text], [1, 'Invoice number: 7\n\nTotal: $5']);
  const html = '<html><head><title>x</title><style>p{}</style></head><body><h1>Tax\n   invoice</h1><p>ABN: 51 824 753 556<br>Date: 3 May 2026</p><table><tr><td>Item</td><td>$5</td></tr></table><script>1</script></body></html>';
  const fromHtml = await readDocument(intake(new TextEncoder().encode(html), 'html', 'text/html'), options);
  assert.equal(fromHtml.pages[0]!.text, 'Tax invoice\nABN: 51 824 753 556\nDate: 3 May 2026\nItem\t$5');
  const docx = await readFile(new URL('../../fixtures/documents/extraction/reading/tables.docx', import.meta.url));
  const fromDocx = await readDocument(intake(new Uint8Array(docx), 'docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'), options);
  assert.equal(fromDocx.pages[0]!.text, 'Above\n\nTop left\n\nTop right\n\nBottom left\n\nBottom right\n\nBelow');
});

test('HTML5 sectioning and list elements end a line, so words on either side of them are never glued together', async () => {
  const html = '<html><body><nav>Home | Contact</nav><main><article><p>Our shire report</p></article><aside>Related</aside><figure><img src="c.png"><figcaption>Figure 1</figcaption></figure><ul><li>One</li></ul><form>Search</form></main><details><summary>More</summary>Notes</details></body></html>';
  const read = await readDocument(intake(new TextEncoder().encode(html), 'html', 'text/html'), { maxPages: 10, renderScale: 2, ocr: true });
  assert.deepEqual(read.pages[0]!.text.split(/\s+/), ['Home', '|', 'Contact', 'Our', 'shire', 'report', 'Related', 'Figure', '1', 'One', 'Search', 'More', 'Notes']);
});

test('a word tesseract reads right but scores 0 is kept: only low-confidence words without a letter or digit are dropped', async () => {
  // A corpus scan (a 200 dpi JPEG, blurred and speckled, in a PDF) whose due date "1 July 2024"
  // tesseract reads correctly but scores 0.
  const scan = await readFile(new URL('../../fixtures/documents/extraction/corpus/scans/tax_invoice-15-scan.pdf', import.meta.url));
  const read = await readDocument(intake(new Uint8Array(scan), 'pdf', 'application/pdf'), { maxPages: 1, renderScale: 2, ocr: true });
  assert.match(read.pages[0]!.text, /24 June 2024\t1 July 2024\tHillview Property Group/);
});

/** A form whose labels are a picture (as a pay statement's artwork is) and whose values are typed over it as text. */
async function formWithDrawnLabels(labels: boolean): Promise<Uint8Array> {
  const artwork = await PDFDocument.create();
  const artworkFont = await artwork.embedFont(StandardFonts.Helvetica);
  const sheet = artwork.addPage([595, 842]);
  if (labels) ['Earnings Statement', 'Gross Pay', 'Federal Income Tax', 'Net Pay', 'Pay date'].forEach((line, index) => sheet.drawText(line, { x: 60, y: 760 - index * 40, size: 16, font: artworkFont }));
  const png = await renderPagePng(await openPdf(await artwork.save()), 1, 2);
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  page.drawImage(await pdf.embedPng(png), { x: 0, y: 0, width: 595, height: 842 });
  ['1,291.40', '129.14', '830.00', '03/08/2017'].forEach((value, index) => page.drawText(value, { x: 360, y: 720 - index * 40, size: 16, font }));
  return pdf.save();
}

test('a text layer of typed-in values over drawn labels is read by OCR too, and OCR is kept only when it reads more words', async () => {
  const drawn = await readDocument(intake(await formWithDrawnLabels(true), 'pdf', 'application/pdf'), { maxPages: 1, renderScale: 2, ocr: true });
  assert.equal(drawn.pages[0]!.source, 'ocr');
  assert.match(drawn.pages[0]!.text, /Gross Pay/);
  assert.match(drawn.pages[0]!.text, /830\.00/);
  const valuesOnly = await readDocument(intake(await formWithDrawnLabels(false), 'pdf', 'application/pdf'), { maxPages: 1, renderScale: 2, ocr: true });
  assert.equal(valuesOnly.pages[0]!.source, 'text_layer');
  const withoutOcr = await readDocument(intake(await formWithDrawnLabels(true), 'pdf', 'application/pdf'), { maxPages: 1, renderScale: 2, ocr: false });
  assert.equal(withoutOcr.pages[0]!.source, 'text_layer');
});
