import assert from 'node:assert/strict';
import { test } from 'node:test';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { DocumentKind, IntakeDocument } from '../documents/types.ts';
import { readText } from './read-text.ts';

const NOW = '2026-06-10T02:00:00.000Z';

function intake(bytes: Uint8Array, kind: DocumentKind, mime: string, filename: string): IntakeDocument {
  return { bytes, kind, mime, filename, sha256: kind.padEnd(64, '0') };
}

async function twoPagePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const line of ['Revenue rose 12% (Smith 2020).', 'References: https://doi.org/10.1000/xyz123']) pdf.addPage([595, 842]).drawText(line, { x: 60, y: 760, size: 12, font });
  return pdf.save();
}

/** The smallest .docx Word and mammoth read: content types, the package relationship and one paragraph. */
async function docx(paragraph: string): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
  zip.file('_rels/.rels', '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
  zip.file('word/document.xml', `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${paragraph}</w:t></w:r></w:p></w:body></w:document>`);
  return zip.generateAsync({ type: 'uint8array' });
}

test('read_text gives each document its kind, page count, pages of text and whether OCR was used', async () => {
  const stages: string[] = [];
  const result = await readText(
    [
      intake(await twoPagePdf(), 'pdf', 'application/pdf', 'report.pdf'),
      intake(new TextEncoder().encode('Total: 4 + 5 = 9'), 'text', 'text/plain', 'notes.txt'),
      intake(new TextEncoder().encode('<html><body><p>See <a href="https://example.org/a">this</a>.</p><script>x()</script></body></html>'), 'html', 'text/html', 'page.html'),
      intake(await docx('Cited: doi:10.5555/12345678'), 'docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'memo.docx'),
    ],
    {},
    { now: NOW, progress: (stage) => stages.push(stage) },
  );
  assert.deepEqual(
    result.documents.map((document) => [document.filename, document.kind, document.page_count, document.ocr_used, document.pages.map((page) => [page.page, page.source, page.text])]),
    [
      ['report.pdf', 'pdf', 2, false, [[1, 'text_layer', 'Revenue rose 12% (Smith 2020).'], [2, 'text_layer', 'References: https://doi.org/10.1000/xyz123']]],
      ['notes.txt', 'text', 1, false, [[1, 'text_layer', 'Total: 4 + 5 = 9']]],
      ['page.html', 'html', 1, false, [[1, 'text_layer', 'See this.']]],
      ['memo.docx', 'docx', 1, false, [[1, 'text_layer', 'Cited: doi:10.5555/12345678']]],
    ],
  );
  assert.equal(result.documents[0]!.sha256, 'pdf'.padEnd(64, '0'));
  assert.deepEqual(stages, ['reading', 'reading', 'reading', 'reading']);
});

test('read_text stops at max_pages but reports the whole page count', async () => {
  const result = await readText([intake(await twoPagePdf(), 'pdf', 'application/pdf', 'report.pdf')], { max_pages: 1 }, { now: NOW });
  assert.equal(result.documents[0]!.page_count, 2);
  assert.equal(result.documents[0]!.pages.length, 1);
});
