import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { extractionResult } from '../api/checkers/extract/result.ts';
import { identityResult } from '../api/checkers/identity/result.ts';
import { packResult } from '../api/checkers/pack/result.ts';
import { checkerApp, postFiles, type CheckerApp } from './helpers/checker-app.ts';
import { generateExtractionCorpus } from './helpers/extraction-corpus.ts';
import { standInPdf } from './helpers/identity-documents.ts';

/** The routes over the real analyses, in threads, as `npm start` serves them: one call each, checked against the reply schemas. */
describe('checker routes over the real analyses', () => {
  let checker: CheckerApp;
  before(async () => (checker = await checkerApp({ real: ['extract_document', 'identity_check', 'check_pack'] })));
  after(() => checker.close());

  it('identity-check classifies a passport, a licence and a utility bill under the AFP 100-point scheme', async () => {
    const documents = await Promise.all((['australian_passport', 'drivers_licence', 'utility_bill'] as const).map((type) => standInPdf(type)));
    const reply = await postFiles(checker.app, '/v1/identity-check', 'files', documents.map((document) => ({ bytes: document.bytes, name: document.filename! })));
    assert.equal(reply.status, 200);
    const result = identityResult.parse(await reply.json());
    assert.deepEqual(result.documents.map((document) => document.classified_type), ['australian_passport', 'drivers_licence', 'utility_bill']);
    assert.equal(result.scheme.id, 'afp_100_point');
  });

  it('check-pack fills an income_proof slot with a payslip', async () => {
    const payslip = await standInPdf('payslip');
    const reply = await postFiles(checker.app, '/v1/check-pack?scheme=income_proof', 'files', [{ bytes: payslip.bytes, name: 'payslip.pdf' }]);
    assert.equal(reply.status, 200);
    const result = packResult.parse(await reply.json());
    assert.deepEqual(result.documents.map((document) => document.classified_type), ['payslip']);
    assert.ok(result.slots.some((slot) => slot.matched === 'payslip.pdf'));
  });

  it('extract reads a tax invoice by its template', async () => {
    const invoice = (await generateExtractionCorpus()).find((document) => document.template === 'tax_invoice')!;
    const reply = await postFiles(checker.app, `/v1/extract?template=tax_invoice&country=${invoice.country}`, 'file', [{ bytes: invoice.pdf, name: 'invoice.pdf' }]);
    assert.equal(reply.status, 200);
    const result = extractionResult.parse(await reply.json());
    assert.equal(result.document_type, 'tax_invoice');
    const found = Object.keys(result.fields).filter((name) => name in invoice.truth);
    assert.ok(found.length >= Object.keys(invoice.truth).length * 0.8, `found ${found.join(', ')} of ${Object.keys(invoice.truth).join(', ')}`);
  });
});
