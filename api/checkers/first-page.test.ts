import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument, concatTransformationMatrix, drawObject, popGraphicsState, pushGraphicsState } from 'pdf-lib';
import sharp from 'sharp';
import { largestPdfImageShare } from './first-page.ts';

async function squarePng(): Promise<Uint8Array> {
  return new Uint8Array(await sharp({ create: { width: 40, height: 40, channels: 3, background: '#888888' } }).png().toBuffer());
}

test('the largest image is measured by the area it is drawn at, including under a form XObject\'s own matrix', async () => {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([400, 400]);
  const image = await pdf.embedPng(await squarePng());
  // A form drawing the image at 200 x 200, whose /Matrix halves it: 100 x 100 of the 400 x 400 page.
  const form = pdf.context.formXObject([pushGraphicsState(), concatTransformationMatrix(200, 0, 0, 200, 0, 0), drawObject('Im1'), popGraphicsState()], {
    BBox: [0, 0, 400, 400],
    Matrix: [0.5, 0, 0, 0.5, 0, 0],
    Resources: { XObject: { Im1: image.ref } },
  });
  const formName = page.node.newXObject('Fm', pdf.context.register(form));
  page.pushOperators(drawObject(formName));
  page.drawImage(image, { x: 300, y: 300, width: 50, height: 50 });
  assert.equal(await largestPdfImageShare(await pdf.save()), (100 * 100) / (400 * 400));
});

test('a page with text and no image has no picture share', async () => {
  const pdf = await PDFDocument.create();
  pdf.addPage([300, 300]).drawText('Statement');
  assert.equal(await largestPdfImageShare(await pdf.save()), 0);
});
