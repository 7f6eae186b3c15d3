import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument, rgb } from 'pdf-lib';
import sharp from 'sharp';
import { openPdf, renderPagePng } from './pdf.ts';

test('a page with filled and stroked paths renders, with the fill where the PDF draws it', async () => {
  const document = await PDFDocument.create();
  const page = document.addPage([200, 100]);
  page.drawRectangle({ x: 20, y: 20, width: 60, height: 60, color: rgb(0, 0, 0) });
  page.drawLine({ start: { x: 100, y: 50 }, end: { x: 180, y: 50 }, thickness: 2, color: rgb(0, 0, 0) });
  const pdf = await openPdf(await document.save());
  const png = await renderPagePng(pdf, 1, 1);
  await pdf.destroy();
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const grey = (x: number, y: number): number => data[y * info.width + x]!;
  assert.deepEqual([info.width, info.height], [200, 100]);
  assert.ok(grey(50, 50) < 30, 'inside the filled square is black');
  assert.ok(grey(150, 20) > 225, 'away from the drawing the page is white');
});
