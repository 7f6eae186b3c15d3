import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accuracyByType, imageStandIns, printAccuracy, scannedPdfStandIn } from '../../test/helpers/identity-documents.ts';
import { classifyPage, type DocumentType } from './document-types.ts';
import { readFirstPage } from './first-page.ts';

/** Documents people often photograph rather than download: six card types and two paper documents (each OCR read costs seconds). */
const photographed: DocumentType[] = [
  'australian_passport',
  'foreign_passport',
  'drivers_licence',
  'proof_of_age_card',
  'medicare_card',
  'bank_card',
  'utility_bill',
  'payslip',
];

test('pictures of documents are classified by OCR (per-type accuracy printed, floor 0.9) and photo-bearing cards show P', async () => {
  const standIns = await imageStandIns(photographed);
  const results = [];
  for (const standIn of standIns) {
    const { page, images } = await readFirstPage(standIn.document);
    results.push({ standIn, classification: classifyPage(page, images) });
  }
  const byType = accuracyByType(results);
  printAccuracy('document-type accuracy, pictures read by OCR', byType);
  for (const [type, tally] of byType) assert.ok(tally.correct / tally.total >= 0.9, `${type}: ${tally.correct}/${tally.total} below 0.9`);
  const licence = results.find(({ standIn }) => standIn.label === 'drivers_licence')!.classification;
  assert.deepEqual(licence.shows, ['N', 'P', 'A', 'S']);
  assert.equal(licence.expires, '2030-03-14');
  const medicare = results.find(({ standIn }) => standIn.label === 'medicare_card')!.classification;
  assert.deepEqual(medicare.shows, ['N'], 'a Medicare card carries no photo even as a picture');
});

test('a scanned licence inside a PDF (no text layer) is read by OCR and its page picture counts as the photo', async () => {
  const scan = await scannedPdfStandIn('drivers_licence');
  const { page, images } = await readFirstPage(scan.document);
  assert.equal(page?.source, 'ocr');
  assert.ok(images.largestImageShare > 0.2, `picture share ${images.largestImageShare}`);
  const classification = classifyPage(page, images);
  assert.equal(classification.type, 'drivers_licence');
  assert.deepEqual(classification.shows, ['N', 'P', 'A', 'S']);
});
