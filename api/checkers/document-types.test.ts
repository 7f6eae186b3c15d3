import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PageText } from '../documents/types.ts';
import { accuracyByType, pdfStandIns, printAccuracy } from '../../test/helpers/identity-documents.ts';
import { classifyPage, datesIn, documentTypeNames } from './document-types.ts';
import { readFirstPage } from './first-page.ts';

const noPicture = { isImage: false, largestImageShare: 0 };

function textPage(text: string): PageText {
  return { page: 1, width: 595, height: 842, source: 'text_layer', items: [], text, confidence: 1 };
}

test('every document type is classified correctly from its text-layer PDF stand-ins (per-type accuracy printed, floor 0.9)', async () => {
  const standIns = await pdfStandIns();
  const results = [];
  for (const standIn of standIns) {
    const { page, images } = await readFirstPage(standIn.document);
    results.push({ standIn, classification: classifyPage(page, images) });
  }
  const byType = accuracyByType(results);
  printAccuracy('document-type accuracy, text-layer PDFs', byType);
  assert.deepEqual([...byType.keys()].sort(), [...documentTypeNames].sort(), 'every type has stand-ins');
  for (const [type, tally] of byType) assert.ok(tally.correct / tally.total >= 0.9, `${type}: ${tally.correct}/${tally.total} below 0.9`);
  const misses = results.filter(({ standIn, classification }) => classification.type !== standIn.label).map(({ standIn, classification }) => `${standIn.document.filename} -> ${classification.type}`);
  assert.ok(results.length - misses.length >= 0.9 * results.length, misses.join(', '));
});

test('a photo is shown for a photo-bearing card whose PDF page holds its portrait, and never for a type without one', async () => {
  const standIns = await pdfStandIns();
  const licence = standIns.find((standIn) => standIn.document.filename === 'drivers_licence-1.pdf')!;
  const medicare = standIns.find((standIn) => standIn.document.filename === 'medicare_card-1.pdf')!;
  const licencePage = await readFirstPage(licence.document);
  assert.ok(licencePage.images.largestImageShare > 0.01 && licencePage.images.largestImageShare < 0.05, `portrait share ${licencePage.images.largestImageShare}`);
  const licenceClass = classifyPage(licencePage.page, licencePage.images);
  assert.deepEqual(licenceClass.shows, ['N', 'P', 'A', 'S']);
  assert.equal(licenceClass.expires, '2030-03-14');
  // The same licence text with no picture on the page: the letters say what the page shows, not what the type could.
  assert.deepEqual(classifyPage(licencePage.page, noPicture).shows, ['N', 'A', 'S']);
  const medicarePage = await readFirstPage(medicare.document);
  assert.equal(medicarePage.images.largestImageShare, 0);
  assert.deepEqual(classifyPage(medicarePage.page, { isImage: true, largestImageShare: 1 }).shows, ['N']);
});

test('the first line is kept only as a digest: equal for the same issuer, different for another, never the line itself', () => {
  const statement = (firstLine: string) => classifyPage(textPage(`${firstLine}\nStatement\nOpening balance $10.00\nClosing balance $12.00\nBSB 062-999`), noPicture);
  const [first, again, other] = [statement('JANE Q CITIZEN'), statement('JANE Q CITIZEN'), statement('Harbourline Bank')];
  assert.equal(first.type, 'bank_statement');
  assert.match(first.issuerDigest ?? '', /^[0-9a-f]{64}$/);
  assert.equal(again.issuerDigest, first.issuerDigest);
  assert.notEqual(other.issuerDigest, first.issuerDigest);
  assert.doesNotMatch(JSON.stringify(first), /JANE|CITIZEN/);
});

test('text naming no known document is unrecognised with confidence 0', () => {
  const classification = classifyPage(textPage('Minutes of the committee meeting\nApologies: none\nNext meeting Tuesday'), noPicture);
  assert.equal(classification.type, 'unrecognised');
  assert.equal(classification.confidence, 0);
  assert.deepEqual(classification.shows, []);
  assert.equal(classifyPage(null, noPicture).type, 'unrecognised');
});

test('an extract is told from a full birth certificate, and a foreign passport from an Australian one by its machine-readable zone', () => {
  assert.equal(classifyPage(textPage('BIRTH CERTIFICATE EXTRACT\nRegistry of Births, Deaths and Marriages'), noPicture).type, 'birth_extract');
  assert.equal(classifyPage(textPage('BIRTH CERTIFICATE\nRegistry of Births, Deaths and Marriages\nMother\tFather'), noPicture).type, 'birth_certificate');
  const foreign = classifyPage(textPage('PASSPORT\nNationality CANADIAN\nP<CANEXAMPLE<<JO<<<<<<<<'), noPicture);
  assert.equal(foreign.type, 'foreign_passport');
  assert.ok(foreign.cues.some((name) => name.includes('machine-readable zone')), foreign.cues.join(', '));
  assert.equal(classifyPage(textPage('PASSPORT\nAUSTRALIA\nP<AUSEXAMPLE<<JO<<<<<<<<'), noPicture).type, 'australian_passport');
});

test('a utility bill headed "Tax invoice" is still a utility bill when it shows metering', () => {
  const bill = classifyPage(textPage('Example Energy\nTax invoice ABN 11 222 333 444\nElectricity\nSupply address 1 Test St\nUsage 200 kWh\nAmount due $100.00'), noPicture);
  assert.equal(bill.type, 'utility_bill');
});

test('dates read in the forms documents print them; a card month reads as its last day; impossible dates are dropped', () => {
  assert.deepEqual(datesIn('Expiry 14/03/2030, issued 3 MAR 2021, period 2026-09-30, VALID TO 02/2028, bogus 31/02/2026'), ['2030-03-14', '2021-03-03', '2026-09-30', '2028-02-29']);
});

test('transaction lines are counted on a statement page, not its balance lines', () => {
  const statement = classifyPage(textPage('Statement\nBSB 062-000\nOpening balance $10.00\n03/09/2026 SALARY 3,150.00 3,160.00\n05/09/2026 GROCER 84.20 3,075.80\nClosing balance $3,075.80'), noPicture);
  assert.equal(statement.type, 'bank_statement');
  assert.equal(statement.transactionLines, 2);
});
