import assert from 'node:assert/strict';
import { test } from 'node:test';
import { standInPdf } from '../../../test/helpers/identity-documents.ts';
import type { DocumentClassification, DocumentType } from '../document-types.ts';
import { analysePack, judgePack, type PackDocument } from './analyse.ts';
import { packOptions } from './options.ts';
import { packResult } from './result.ts';

function doc(type: DocumentType | 'unrecognised', filename: string, overrides: Partial<DocumentClassification> = {}): PackDocument {
  return { filename, unreadable: null, classification: { type, confidence: 0.9, cues: [], shows: ['N'], expires: null, issued: null, issuerDigest: null, transactionLines: 0, pensionCard: false, zone: null, ...overrides } };
}

test('income_proof: licence, two payslips and a statement complete the pack; optional slots stay open without making it incomplete', () => {
  const result = judgePack({ scheme: 'income_proof' }, [doc('payslip', 'oct.pdf'), doc('bank_statement', 'sept.pdf'), doc('drivers_licence', 'licence.jpg'), doc('payslip', 'sep.pdf')]);
  packResult.parse(result);
  assert.deepEqual(result.scheme, { id: 'income_proof', name: 'Proof of income' });
  assert.equal(result.complete, true);
  assert.deepEqual(result.missing, []);
  assert.deepEqual(
    result.slots.map((slot) => [slot.key, slot.matched]),
    [
      ['photo_identity', 'licence.jpg'],
      ['income_recent', 'oct.pdf'],
      ['income_previous', 'sep.pdf'],
      ['bank_statement', 'sept.pdf'],
      ['employment_confirmation', null],
      ['government_income', null],
    ],
  );
  assert.deepEqual(result.unmatched_documents, []);
  assert.deepEqual(result.flags, []);
});

test('income_proof: a missing second payslip and bank statement are listed; an extra and an unrecognised document are unmatched with reasons', () => {
  const result = judgePack({ scheme: 'income_proof' }, [doc('australian_passport', 'passport.pdf'), doc('medicare_card', 'medicare.png'), doc('payslip', 'oct.pdf'), doc('unrecognised', 'photo.jpg'), doc('australian_passport', 'passport-copy.pdf')]);
  assert.equal(result.complete, false);
  assert.deepEqual(result.missing, ['income_previous', 'bank_statement']);
  assert.deepEqual(result.unmatched_documents, [
    { filename: 'medicare.png', classified_type: 'medicare_card', reason: 'a Medicare card is not asked for here' },
    { filename: 'photo.jpg', classified_type: 'unrecognised', reason: 'not recognised as a document type this checker knows from its first page' },
    { filename: 'passport-copy.pdf', classified_type: 'australian_passport', reason: 'every slot that takes an Australian passport is already filled' },
  ]);
});

test('a document that fits two slots goes where it leaves the most required slots filled, whatever the upload order', () => {
  // The notice arrives first and fits the first slot; taking it there greedily would leave the notice-only slot empty.
  const result = judgePack({ requirements: [{ key: 'either', accepts: ['payslip', 'tax_notice_of_assessment'] }, 'tax_notice_of_assessment'] }, [doc('tax_notice_of_assessment', 'noa.pdf'), doc('payslip', 'pay.pdf')]);
  assert.equal(result.complete, true);
  assert.deepEqual(
    result.slots.map((slot) => [slot.key, slot.matched]),
    [
      ['either', 'pay.pdf'],
      ['tax_notice_of_assessment', 'noa.pdf'],
    ],
  );
});

test('rental_application: an unredacted bank statement and a credit card statement are flagged with the Victorian rule they break', () => {
  const result = judgePack({ scheme: 'rental_application' }, [
    doc('drivers_licence', 'licence.pdf'),
    doc('payslip', 'pay.pdf'),
    doc('tenancy_reference', 'ref.pdf'),
    doc('bank_statement', 'statement.pdf', { transactionLines: 3 }),
    doc('bank_statement', 'redacted.pdf', { transactionLines: 0 }),
    doc('credit_card_statement', 'card.pdf'),
  ]);
  assert.equal(result.complete, true);
  assert.deepEqual(
    result.flags.map((flag) => [flag.filename, flag.code]),
    [
      ['statement.pdf', 'rental.bank_statement_with_transactions'],
      ['card.pdf', 'rental.credit_card_statement'],
    ],
  );
  for (const flag of result.flags) assert.match(flag.source, /Residential Tenancies Act 1997 \(Vic\) s 30C/);
  assert.deepEqual(
    result.unmatched_documents.map((entry) => entry.filename),
    ['statement.pdf', 'redacted.pdf', 'card.pdf'],
  );
});

test('rental_application without rental history is missing it; the same bank statement is not flagged in an income pack', () => {
  const rental = judgePack({ scheme: 'rental_application' }, [doc('drivers_licence', 'licence.pdf'), doc('employment_letter', 'letter.pdf')]);
  assert.deepEqual(rental.missing, ['rental_history']);
  const income = judgePack({ scheme: 'income_proof' }, [doc('bank_statement', 'statement.pdf', { transactionLines: 3 })]);
  assert.deepEqual(income.flags, []);
});

test('custom requirements: a repeated type name becomes numbered slots, and an optional object slot does not block completion', () => {
  const result = judgePack({ requirements: ['payslip', 'payslip', { key: 'address', accepts: ['utility_bill', 'rates_notice'], optional: true }] }, [doc('payslip', 'a.pdf'), doc('payslip', 'b.pdf')]);
  assert.deepEqual(result.scheme, { id: 'custom', name: 'Custom requirements' });
  assert.deepEqual(
    result.slots.map((slot) => [slot.key, slot.label, slot.optional, slot.satisfied]),
    [
      ['payslip', 'Payslip', false, true],
      ['payslip_2', 'Payslip', false, true],
      ['address', 'Utility bill (electricity, gas, water, telephone, internet) or Council rates notice', true, false],
    ],
  );
  assert.equal(result.complete, true);
});

test('pack options: either a known scheme or requirements of known types, with a message naming what was wrong', () => {
  assert.equal(packOptions.safeParse({ scheme: 'rental_application' }).success, true);
  assert.equal(packOptions.safeParse({ requirements: ['payslip', { key: 'id', accepts: ['drivers_licence'] }] }).success, true);
  assert.equal(packOptions.safeParse({}).success, false);
  assert.equal(packOptions.safeParse({ scheme: 'income_proof', requirements: ['payslip'] }).success, false);
  const unknown = packOptions.safeParse({ requirements: ['payslipp'] });
  assert.equal(unknown.success, false);
  assert.match(JSON.stringify(unknown.error?.issues), /payslipp/);
  assert.throws(() => judgePack({ scheme: 'mortgage' }, []), /Unknown pack scheme "mortgage"/);
});

test('analysePack reads each generated PDF once and fills the rental slots end to end', async () => {
  const documents = [await standInPdf('drivers_licence'), await standInPdf('payslip'), await standInPdf('rental_ledger'), await standInPdf('bank_statement')];
  const result = await analysePack(documents, { scheme: 'rental_application' }, { now: '2026-11-20T00:00:00.000Z' });
  packResult.parse(result);
  assert.equal(result.complete, true);
  assert.deepEqual(result.documents.map((entry) => entry.classified_type), ['drivers_licence', 'payslip', 'rental_ledger', 'bank_statement']);
  assert.deepEqual(result.flags.map((flag) => flag.code), ['rental.bank_statement_with_transactions']);
});
