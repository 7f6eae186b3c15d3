import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { intake, standInPdf } from '../../../test/helpers/identity-documents.ts';
import type { DocumentClassification, DocumentType, Shown } from '../document-types.ts';
import { analyseIdentity, judgeIdentity, type ClassifiedDocument } from './analyse.ts';
import { identityResult } from './result.ts';

const NOW = '2026-11-20T03:00:00.000Z';
const issuerDigestOf = (firstLine: string) => createHash('sha256').update(firstLine).digest('hex');

function doc(type: DocumentType | 'unrecognised', shows: Shown[], overrides: Partial<DocumentClassification> & { filename?: string } = {}): ClassifiedDocument {
  const { filename, ...classification } = overrides;
  return {
    filename: filename ?? `${type}.pdf`,
    unreadable: null,
    classification: { type, confidence: 0.9, cues: [], shows, expires: null, issued: null, issuerDigest: null, transactionLines: 0, pensionCard: false, zone: null, ...classification },
  };
}

const passport = doc('australian_passport', ['N', 'P', 'S'], { expires: '2031-01-01' });
const licence = doc('drivers_licence', ['N', 'P', 'A', 'S'], { expires: '2029-05-01' });
const medicare = doc('medicare_card', ['N'], { expires: '2030-08-31' });
const birth = doc('birth_certificate', ['N']);

test('AFP: a passport and a driver licence reach 100 points (70 + 40) with one primary and a photo', () => {
  const result = judgeIdentity('afp_100_point', [passport, licence], NOW);
  identityResult.parse(result);
  assert.equal(result.established, true);
  assert.equal(result.rule, 'points_accumulation');
  assert.equal(result.points, 110);
  assert.equal(result.target, 100);
  assert.equal(result.primaries, 1);
  assert.deepEqual(result.documents.map((entry) => [entry.points, entry.counts]), [[70, true], [40, true]]);
  assert.match(result.documents[1]!.note, /secondary document \(first\): 40 points/);
  assert.match(result.limitations, /not identity verification/);
  assert.match(result.limitations, /Document Verification Service \(DVS\)/);
});

test('AFP: a licence and a Medicare card make 65 points and no primary, and the reason says both', () => {
  const result = judgeIdentity('afp_100_point', [licence, medicare], NOW);
  assert.equal(result.established, false);
  assert.equal(result.points, 65);
  assert.equal(result.primaries, 0);
  assert.match(result.reason, /65 of 100 points/);
  assert.match(result.reason, /no primary document/);
});

test('AFP: 140 points without a primary document is not established; a further secondary scores 25, not 40', () => {
  const student = doc('student_id_card', ['N', 'P'], { expires: '2027-12-31' });
  const card = doc('bank_card', ['N', 'S'], { issuerDigest: issuerDigestOf('SOUTHERN CROSSWAY BANK'), expires: '2029-09-30' });
  const bill = doc('utility_bill', ['N', 'A'], { issuerDigest: issuerDigestOf('Brightwave Energy'), issued: '2026-10-05' });
  const result = judgeIdentity('afp_100_point', [licence, student, medicare, card, bill], NOW);
  assert.equal(result.points, 40 + 25 + 25 + 25 + 25);
  assert.equal(result.primaries, 0);
  assert.equal(result.established, false);
  assert.equal(result.reason, 'Not established: no primary document (at least 1 needed).');
  assert.equal(result.documents[1]!.points, 25);
  assert.match(result.documents[1]!.note, /\(further\)/);
});

test('AFP: a second document of a count-once type does not count; a second bank card counts only from another bank', () => {
  const result = judgeIdentity('afp_100_point', [passport, medicare, { ...medicare, filename: 'medicare-again.pdf' }], NOW);
  assert.deepEqual(result.documents.map((entry) => entry.counts), [true, true, false]);
  assert.match(result.documents[2]!.note, /counts once/);
  assert.equal(result.points, 95);
  const bankA = doc('bank_card', ['N'], { issuerDigest: issuerDigestOf('SOUTHERN CROSSWAY BANK'), filename: 'a.png' });
  const bankA2 = doc('bank_card', ['N'], { issuerDigest: issuerDigestOf('SOUTHERN CROSSWAY BANK'), filename: 'a2.png' });
  const bankB = doc('bank_card', ['N'], { issuerDigest: issuerDigestOf('HARBOURLINE CREDIT UNION'), filename: 'b.png' });
  const cards = judgeIdentity('afp_100_point', [passport, bankA, bankA2, bankB], NOW);
  assert.deepEqual(cards.documents.map((entry) => entry.counts), [true, true, false, true]);
  assert.match(cards.documents[2]!.note, /different organisation/);
  assert.equal(cards.points, 120);
});

test('AFP: an expired licence does not count; an Australian passport counts up to two years after expiry and not after', () => {
  const expiredLicence = doc('drivers_licence', ['N', 'P', 'A', 'S'], { expires: '2025-01-31' });
  const result = judgeIdentity('afp_100_point', [passport, expiredLicence], NOW);
  assert.equal(result.documents[1]!.counts, false);
  assert.equal(result.documents[1]!.note, 'expired 2025-01-31');
  assert.equal(result.points, 70);
  const recentlyExpired = judgeIdentity('afp_100_point', [doc('australian_passport', ['N', 'P', 'S'], { expires: '2025-06-01' }), licence], NOW);
  assert.equal(recentlyExpired.established, true);
  assert.match(recentlyExpired.documents[0]!.note, /expired 2025-06-01, within the 2 years allowed/);
  const longExpired = judgeIdentity('afp_100_point', [doc('australian_passport', ['N', 'P', 'S'], { expires: '2023-06-01' }), licence], NOW);
  assert.equal(longExpired.documents[0]!.counts, false);
  assert.equal(longExpired.primaries, 0);
});

test('AFP: a utility bill over 12 months old, a payslip and an unrecognised document do not count, each with its reason', () => {
  const oldBill = doc('utility_bill', ['N', 'A'], { issued: '2025-08-01' });
  const result = judgeIdentity('afp_100_point', [passport, licence, oldBill, doc('payslip', ['N']), doc('unrecognised', [])], NOW);
  assert.deepEqual(result.documents.map((entry) => entry.counts), [true, true, false, false, false]);
  assert.match(result.documents[2]!.note, /issued 2025-08-01, more than 12 months/);
  assert.equal(result.documents[3]!.note, 'a payslip is not on the AFP list');
  assert.match(result.documents[4]!.note, /not recognised/);
});

test('AFP: 145 points with a primary but no photo anywhere in the set is not established', () => {
  const card = doc('bank_card', ['N', 'S'], { issuerDigest: issuerDigestOf('BANK') });
  const bill = doc('utility_bill', ['N', 'A'], { issued: '2026-10-01' });
  const result = judgeIdentity('afp_100_point', [birth, medicare, card, bill], NOW);
  assert.equal(result.points, 145);
  assert.equal(result.established, false);
  assert.equal(result.reason, 'Not established: no counted document shows a photo.');
});

test('AUSTRAC: a driver licence with its photo satisfies the primary photographic path', () => {
  const result = judgeIdentity('austrac_safe_harbour', [licence, medicare], NOW);
  identityResult.parse(result);
  assert.equal(result.established, true);
  assert.equal(result.rule, 'category_path');
  assert.equal(result.satisfied_path, 'primary_photographic');
  assert.equal(result.points, null);
  assert.equal(result.primaries, 1);
  assert.deepEqual(result.documents.map((entry) => entry.counts), [true, false]);
  assert.equal(result.documents[1]!.note, 'a Medicare card is not on the AUSTRAC list');
});

test('AUSTRAC: a birth certificate and a rates notice from last month satisfy the non-photographic path; a five-month-old bill does not', () => {
  const rates = doc('rates_notice', ['N', 'A'], { issued: '2026-10-15' });
  const satisfied = judgeIdentity('austrac_safe_harbour', [birth, rates], NOW);
  assert.equal(satisfied.satisfied_path, 'primary_non_photographic_and_secondary');
  assert.match(satisfied.reason, /birth_certificate\.pdf and rates_notice\.pdf/);
  const staleBill = doc('utility_bill', ['N', 'A'], { issued: '2026-06-10' });
  const notSatisfied = judgeIdentity('austrac_safe_harbour', [birth, staleBill], NOW);
  assert.equal(notSatisfied.established, false);
  assert.equal(notSatisfied.satisfied_path, null);
  assert.match(notSatisfied.documents[1]!.note, /more than 3 months/);
  assert.match(notSatisfied.reason, /counted 0 primary photographic identification document, 1 primary non-photographic identification document, 0 secondary identification document/);
});

test('AUSTRAC: a licence copy without its photo, and a Centrelink card that is not a pension card, do not count', () => {
  const textOnlyLicence = doc('drivers_licence', ['N', 'A', 'S']);
  const healthCareCard = doc('centrelink_card', ['N', 'A'], { pensionCard: false });
  const result = judgeIdentity('austrac_safe_harbour', [textOnlyLicence, healthCareCard], NOW);
  assert.equal(result.established, false);
  assert.match(result.documents[0]!.note, /no photograph was found/);
  assert.match(result.documents[1]!.note, /pension card/);
  const pension = judgeIdentity('austrac_safe_harbour', [doc('centrelink_card', ['N', 'A'], { pensionCard: true }), doc('tax_notice_of_assessment', ['N', 'A'], { issued: '2026-08-14' })], NOW);
  assert.equal(pension.satisfied_path, 'primary_non_photographic_and_secondary');
});

test('analyseIdentity reads generated PDFs end to end, and copes with 11 documents (the route refuses more than 10)', async () => {
  const documents = [await standInPdf('australian_passport'), await standInPdf('drivers_licence')];
  const result = await analyseIdentity(documents, { scheme: 'afp_100_point' }, { now: NOW });
  assert.equal(result.established, true);
  assert.equal(result.points, 110);
  assert.deepEqual(result.documents.map((entry) => entry.classified_type), ['australian_passport', 'drivers_licence']);
  assert.deepEqual(result.documents[1]!.shows, ['N', 'P', 'A', 'S']);
  const types: DocumentType[] = ['australian_passport', 'drivers_licence', 'medicare_card', 'bank_card', 'utility_bill', 'rates_notice', 'birth_certificate', 'citizenship_certificate', 'payslip', 'tax_invoice'];
  const eleven = [...(await Promise.all(types.map((type) => standInPdf(type)))), intake(new TextEncoder().encode('%PDF-1.7 broken'), 'pdf', 'application/pdf', 'broken.pdf')];
  const progress: string[] = [];
  const many = await analyseIdentity(eleven, { scheme: 'austrac_safe_harbour' }, { now: NOW, progress: (stage) => progress.push(stage) });
  identityResult.parse(many);
  assert.equal(many.documents.length, 11);
  assert.equal(progress.length, 11);
  assert.equal(many.satisfied_path, 'primary_photographic');
  assert.equal(many.documents[10]!.counts, false);
  assert.match(many.documents[10]!.note, /^could not be read: /);
});

test('a document that counts only while recent does not count when its issue date could not be read (a real AWS invoice classed a utility bill once counted 25 points)', () => {
  const undated = doc('utility_bill', ['N', 'A'], { filename: 'aws-invoice.pdf' });
  const dated = doc('utility_bill', ['N', 'A'], { filename: 'power.pdf', issued: '2026-10-01' });
  const result = judgeIdentity('afp_100_point', [passport, undated], NOW);
  const verdict = result.documents.find((document) => document.filename === 'aws-invoice.pdf')!;
  assert.equal(verdict.counts, false);
  assert.equal(verdict.points, 0);
  assert.match(verdict.note, /issue date could not be read/);
  assert.equal(judgeIdentity('afp_100_point', [passport, dated], NOW).documents.find((document) => document.filename === 'power.pdf')!.counts, true);
  assert.equal(judgeIdentity('austrac_safe_harbour', [undated], NOW).documents[0]!.counts, false);
});
