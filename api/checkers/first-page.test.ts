import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument, concatTransformationMatrix, drawObject, popGraphicsState, pushGraphicsState } from 'pdf-lib';
import sharp from 'sharp';
import { intake, imageStandIns, standInPdf } from '../../test/helpers/identity-documents.ts';
import { openOcrReader, type OcrReader } from '../documents/ocr.ts';
import type { DocumentClassification } from './document-types.ts';
import { classifyFirstPages, largestPdfImageShare } from './first-page.ts';

const NOW = '2026-11-20T00:00:00.000Z';

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

test('documents whose classification is known take it and are not read again; only new classifications are reported', async () => {
  const [licence, payslip] = [await standInPdf('drivers_licence'), await standInPdf('payslip')];
  const reported = new Map<string, DocumentClassification>();
  const readAlone = await classifyFirstPages([licence, payslip], { now: NOW, firstPageClassified: (sha256, classification) => reported.set(sha256, classification) });
  assert.deepEqual(reported, new Map([[licence.sha256, readAlone[0]!.classification], [payslip.sha256, readAlone[1]!.classification]]));

  // The licence's known classification says passport: a reply that follows it proves the licence was not read.
  const passport: DocumentClassification = { type: 'australian_passport', confidence: 1, cues: ['"PASSPORT"'], shows: ['N', 'S'], expires: null, issued: null, issuerDigest: null, transactionLines: 0, pensionCard: false, zone: null };
  const reads: string[] = [];
  const stages: string[] = [];
  const known = await classifyFirstPages([licence, payslip], { now: NOW, firstPages: new Map([[licence.sha256, passport]]), firstPageClassified: (sha256) => reads.push(sha256), progress: (stage) => stages.push(stage) });
  assert.deepEqual(reads, [payslip.sha256]);
  assert.deepEqual(stages, ['reading document 2 of 2']);
  assert.deepEqual(known[0]!.classification, passport);
  assert.deepEqual(known[1], readAlone[1]);
});

test('the same bytes twice in one request are read once', async () => {
  const payslip = await standInPdf('payslip');
  const reads: string[] = [];
  const classified = await classifyFirstPages([payslip, { ...payslip, filename: 'again.pdf' }], { now: NOW, firstPageClassified: (sha256) => reads.push(sha256) });
  assert.deepEqual(reads, [payslip.sha256]);
  assert.deepEqual(classified.map((document) => [document.filename, document.classification.type]), [['payslip.pdf', 'payslip'], ['again.pdf', 'payslip']]);
});

test('every picture of one analysis is read by one OCR worker, terminated when the analysis ends, even after a document fails', async () => {
  const pictures = (await imageStandIns(['medicare_card', 'utility_bill'])).map((standIn) => standIn.document);
  const broken = intake(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]), 'image', 'image/png', 'broken.png');
  let started = 0;
  let closed = 0;
  const countingStart = async (): Promise<OcrReader> => {
    started++;
    const reader = await openOcrReader();
    return { ...reader, close: async () => { closed++; await reader.close(); } };
  };
  const classified = await classifyFirstPages([pictures[0]!, broken, pictures[1]!], { now: NOW }, countingStart);
  assert.equal(started, 1);
  assert.equal(closed, 1);
  assert.deepEqual(classified.map((document) => document.classification.type), ['medicare_card', 'unrecognised', 'utility_bill']);
  assert.match(classified[1]!.unreadable ?? '', /./);
  // The LSTM engine does not adapt between pictures: the bill reads alike after the card and on its own.
  const alone = await classifyFirstPages([pictures[1]!], { now: NOW });
  assert.deepEqual(alone[0], classified[2]);
});

test('when the OCR worker fails to start, each picture is unreadable with the reason, is not reported to be kept, and the other documents are still classified', async () => {
  const [picture] = (await imageStandIns(['medicare_card'])).map((standIn) => standIn.document);
  const payslip = await standInPdf('payslip');
  const reported: string[] = [];
  const classified = await classifyFirstPages([picture!, payslip], { now: NOW, firstPageClassified: (sha256) => reported.push(sha256) }, () => Promise.reject(new Error('the OCR model is missing')));
  assert.deepEqual(classified.map((document) => [document.classification.type, document.unreadable]), [['unrecognised', 'the OCR model is missing'], ['payslip', null]]);
  assert.deepEqual(reported, [payslip.sha256]);
});
