import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { test } from 'node:test';
import { classifyPage, type DocumentType } from '../api/checkers/document-types.ts';
import { readFirstPage } from '../api/checkers/first-page.ts';
import { analyseIdentity } from '../api/checkers/identity/analyse.ts';
import { analysePack } from '../api/checkers/pack/analyse.ts';
import type { IntakeDocument } from '../api/documents/types.ts';
import { imageStandIns, intake, people, scannedPdfStandIn, standInPdf } from './helpers/identity-documents.ts';

/**
 * The sample documents in fixtures/documents/identity/, for a person to send to /v1/identity-check and
 * /v1/check-pack. They are generator output: `UPDATE_GOLDEN=1` rewrites them; this test checks each still
 * reads as its type and that the README's example calls give the answers it describes.
 */
const folder = new URL('../fixtures/documents/identity/', import.meta.url);

const samples: { file: string; type: DocumentType; make: () => Promise<IntakeDocument> }[] = [
  { file: 'australian-passport.pdf', type: 'australian_passport', make: () => standInPdf('australian_passport') },
  { file: 'drivers-licence.png', type: 'drivers_licence', make: async () => (await imageStandIns(['drivers_licence']))[0]!.document },
  { file: 'drivers-licence-scan.pdf', type: 'drivers_licence', make: async () => (await scannedPdfStandIn('drivers_licence')).document },
  { file: 'medicare-card.pdf', type: 'medicare_card', make: () => standInPdf('medicare_card') },
  { file: 'birth-certificate.pdf', type: 'birth_certificate', make: () => standInPdf('birth_certificate') },
  { file: 'utility-bill.pdf', type: 'utility_bill', make: () => standInPdf('utility_bill') },
  { file: 'payslip.pdf', type: 'payslip', make: () => standInPdf('payslip') },
  { file: 'payslip-previous.pdf', type: 'payslip', make: () => standInPdf('payslip', 1, people[0]) },
  { file: 'bank-statement.pdf', type: 'bank_statement', make: () => standInPdf('bank_statement') },
  { file: 'rental-ledger.pdf', type: 'rental_ledger', make: () => standInPdf('rental_ledger') },
  { file: 'credit-card-statement.pdf', type: 'credit_card_statement', make: () => standInPdf('credit_card_statement') },
];

async function committed(file: string): Promise<IntakeDocument> {
  const bytes = new Uint8Array(await readFile(new URL(file, folder)));
  return file.endsWith('.png') ? intake(bytes, 'image', 'image/png', file) : intake(bytes, 'pdf', 'application/pdf', file);
}

test('each sample document in fixtures/documents/identity reads as its type', async () => {
  if (process.env.UPDATE_GOLDEN === '1') {
    for (const sample of samples) await writeFile(new URL(sample.file, folder), (await sample.make()).bytes);
  }
  for (const sample of samples) {
    const { page, images } = await readFirstPage(await committed(sample.file));
    assert.equal(classifyPage(page, images).type, sample.type, sample.file);
  }
});

test('the README examples: passport and licence make 110 AFP points; a rental pack with a bank statement is complete and flagged', async () => {
  const identity = await analyseIdentity([await committed('australian-passport.pdf'), await committed('drivers-licence-scan.pdf')], { scheme: 'afp_100_point' }, { now: '2026-11-20T00:00:00.000Z' });
  assert.equal(identity.established, true);
  assert.equal(identity.points, 110);
  const pack = await analysePack(
    [await committed('australian-passport.pdf'), await committed('payslip.pdf'), await committed('rental-ledger.pdf'), await committed('bank-statement.pdf')],
    { scheme: 'rental_application' },
    { now: '2026-11-20T00:00:00.000Z' },
  );
  assert.equal(pack.complete, true);
  assert.deepEqual(pack.flags.map((flag) => [flag.filename, flag.code]), [['bank-statement.pdf', 'rental.bank_statement_with_transactions']]);
});
