import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { intake, standInPdf } from '../../../test/helpers/identity-documents.ts';
import type { DocumentClassification, DocumentType } from '../document-types.ts';
import { analysePack, judgePack, type PackDocument } from './analyse.ts';

const NOW = '2026-11-20T00:00:00.000Z';
import { packOptions, packSchemes } from './options.ts';
import { packResult } from './result.ts';

function doc(type: DocumentType | 'unrecognised', filename: string, overrides: Partial<DocumentClassification> = {}): PackDocument {
  return { filename, unreadable: null, classification: { type, confidence: 0.9, cues: [], shows: ['N'], expires: null, issued: null, issuerDigest: null, transactionLines: 0, pensionCard: false, zone: null, ...overrides } };
}

test('income_proof: licence, two payslips and a statement complete the pack; optional slots stay open without making it incomplete', () => {
  const result = judgePack({ scheme: 'income_proof' }, [doc('payslip', 'oct.pdf', { issued: '2026-10-31' }), doc('bank_statement', 'sept.pdf', { issued: '2026-09-30' }), doc('drivers_licence', 'licence.jpg'), doc('payslip', 'sep.pdf', { issued: '2026-09-30' })], NOW);
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
  const result = judgePack({ scheme: 'income_proof' }, [doc('australian_passport', 'passport.pdf'), doc('medicare_card', 'medicare.png'), doc('payslip', 'oct.pdf', { issued: '2026-10-31' }), doc('unrecognised', 'photo.jpg'), doc('australian_passport', 'passport-copy.pdf')], NOW);
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
  const result = judgePack({ requirements: [{ key: 'either', accepts: ['payslip', 'tax_notice_of_assessment'] }, 'tax_notice_of_assessment'] }, [doc('tax_notice_of_assessment', 'noa.pdf'), doc('payslip', 'pay.pdf')], NOW);
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
  ], NOW);
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
  const rental = judgePack({ scheme: 'rental_application' }, [doc('drivers_licence', 'licence.pdf'), doc('employment_letter', 'letter.pdf')], NOW);
  assert.deepEqual(rental.missing, ['rental_history']);
  const income = judgePack({ scheme: 'income_proof' }, [doc('bank_statement', 'statement.pdf', { transactionLines: 3 })], NOW);
  assert.deepEqual(income.flags, []);
});

test('custom requirements: a repeated type name becomes numbered slots, and an optional object slot does not block completion', () => {
  const result = judgePack({ requirements: ['payslip', 'payslip', { key: 'address', accepts: ['utility_bill', 'rates_notice'], optional: true }] }, [doc('payslip', 'a.pdf'), doc('payslip', 'b.pdf')], NOW);
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
  assert.throws(() => judgePack({ scheme: 'mortgage' }, [], NOW), /Unknown pack scheme "mortgage"/);
});

test('analysePack reads each generated PDF once and fills the rental slots end to end', async () => {
  const documents = [await standInPdf('drivers_licence'), await standInPdf('payslip'), await standInPdf('rental_ledger'), await standInPdf('bank_statement')];
  const result = await analysePack(documents, { scheme: 'rental_application' }, { now: '2026-11-20T00:00:00.000Z' });
  packResult.parse(result);
  assert.equal(result.complete, true);
  assert.deepEqual(result.documents.map((entry) => entry.classified_type), ['drivers_licence', 'payslip', 'rental_ledger', 'bank_statement']);
  assert.deepEqual(result.flags.map((flag) => flag.code), ['rental.bank_statement_with_transactions']);
});

test('a slot that asks for a recent document is left unfilled when the date could not be read or is too old, and says why', () => {
  const undated = doc('payslip', 'undated.pdf');
  const old = doc('payslip', 'old.pdf', { issued: '2026-01-15' });
  const result = judgePack({ scheme: 'income_proof' }, [doc('drivers_licence', 'licence.jpg'), undated, old, doc('bank_statement', 'statement.pdf', { issued: '2026-11-01' })], NOW);
  assert.deepEqual(result.missing, ['income_recent', 'income_previous']);
  const reasons = new Map(result.unmatched_documents.map((entry) => [entry.filename, entry.reason]));
  assert.match(reasons.get('undated.pdf')!, /^its date could not be read from page 1, and "Most recent payslip[^"]*" takes a payslip only when dated within 62 days; .*"Previous consecutive payslip/);
  assert.match(reasons.get('old.pdf')!, /^dated 2026-01-15, 309 days before the check, and "Most recent payslip/);
  // The same undated payslip fills a slot whose meaning does not depend on a date.
  const rental = judgePack({ scheme: 'rental_application' }, [undated], NOW);
  assert.equal(rental.slots.find((slot) => slot.key === 'income')!.matched, 'undated.pdf');
});

test('every built-in slot whose label asks for a recent, previous or current document has a recency rule for each type it accepts', () => {
  const dated = Object.values(packSchemes).flatMap((scheme) => scheme.slots).filter((slot) => /\b(most recent|recent|previous|current|within)\b/i.test(slot.label) || slot.key.includes('recent'));
  assert.ok(dated.length >= 5);
  for (const slot of dated) {
    const within = slot.recency?.within_days ?? {};
    assert.deepEqual(slot.accepts.filter((type) => !(type in within)), [], slot.key);
  }
});

async function realPayslip(name: string) {
  return intake(new Uint8Array(await readFile(new URL(`../../../fixtures/corpora/payslips/${name}`, import.meta.url))), 'pdf', 'application/pdf', name);
}

test('real payslips: one whose pay date is not read from page 1 never fills "Most recent payslip"; a dated one fills it while recent', async () => {
  // Gusto's sample is classed a payslip but its dates are not read (part of its text layer is glyph codes); ADP's prints
  // "Pay date: 03/08/2017" beside "Period ending: 02/28/2017", so its dates are month first: paid 8 March 2017.
  const documents = [await realPayslip('sensible-gusto_sample.pdf'), await realPayslip('gcp-pydocs-ldai-paystub-adp.pdf')];
  const income = await analysePack(documents, { scheme: 'income_proof' }, { now: '2017-03-20T00:00:00.000Z' });
  packResult.parse(income);
  assert.deepEqual(income.documents.map((entry) => entry.classified_type), ['payslip', 'payslip']);
  assert.equal(income.slots.find((slot) => slot.key === 'income_recent')!.matched, 'gcp-pydocs-ldai-paystub-adp.pdf');
  assert.equal(income.slots.find((slot) => slot.key === 'income_previous')!.matched, null);
  assert.match(income.unmatched_documents.find((entry) => entry.filename === 'sensible-gusto_sample.pdf')!.reason, /its date could not be read from page 1/);
  const later = await analysePack(documents, { scheme: 'income_proof' }, { now: '2026-11-20T00:00:00.000Z' });
  assert.deepEqual(later.slots.filter((slot) => slot.key.startsWith('income_')).map((slot) => slot.matched), [null, null]);
  assert.match(later.unmatched_documents.find((entry) => entry.filename === 'gcp-pydocs-ldai-paystub-adp.pdf')!.reason, /^dated 2017-03-08, \d+ days before the check/);
});
