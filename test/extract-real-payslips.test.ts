import { test } from 'node:test';
import { measureAndPrintCorpusFields } from './helpers/real-fields.ts';
import { recordMeasured } from './helpers/measured.ts';

/**
 * Issue 26 part 2: payslip fields read from real pay stubs (fixtures/corpora/payslips: 10 files, US payroll vendors'
 * and document-AI samples, three pictures and one PDF with drawn labels read by OCR; its README says how the truth was
 * made). Each file is read as an upload is and extracted with the payslip template; per field, the share of the
 * documents whose truth has the field that get that value in that field. Printed per document and recorded in
 * measured/extract-real-payslips.json. `tax_withheld` is the federal income tax withheld (the truth's convention
 * for US stubs; state tax and FICA are other lines).
 */
const FIELDS = {
  employer_name: 'name',
  employee_name: 'name',
  pay_period_start: 'date',
  pay_period_end: 'date',
  payment_date: 'date',
  gross_pay: 'amount',
  net_pay: 'amount',
  tax_withheld: 'amount',
} as const;

test('real payslips: each field in the right field (issue 26 part 2)', { timeout: 600_000 }, async () => {
  const { documents, figures } = await measureAndPrintCorpusFields('Real payslips', 'payslips', 'payslip', FIELDS);
  recordMeasured('extract-real-payslips', {
    corpus: `fixtures/corpora/payslips (${documents} real US pay stubs: ADP, Gusto, Paylocity, a school district, a university, a small employer; 7 PDFs, 3 pictures; none from AU or NZ)`,
    truth: 'Each stub read by hand from its rendered page and text layer (fixtures/corpora/payslips/README.md); no product code made a label.',
    figures,
    floors: FLOORS,
  });
});

/**
 * Floors a little under the figures measured when they were set (one document fewer on most fields fails), so a fall
 * shows; the issue sets none for payslips.
 */
const FLOORS = { employer_name: 0.75, employee_name: 0.55, pay_period_start: 0.75, pay_period_end: 0.75, payment_date: 0.75, gross_pay: 0.55, net_pay: 0.55, tax_withheld: 0.75, all_fields: 0.68 };
