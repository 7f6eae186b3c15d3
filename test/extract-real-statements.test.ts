import { test } from 'node:test';
import { measureAndPrintCorpusFields } from './helpers/real-fields.ts';
import { recordMeasured } from './helpers/measured.ts';

/**
 * Issue 26 part 2: statement fields read from real bank and card statements (fixtures/corpora/statements: 28 files,
 * US bank layouts with placeholder data, AWS and Google samples, an OCBC card statement, three MT940 files; its
 * README says how the truth was made). Each file is read as an upload is (OCR for the pictures and image-only PDFs)
 * and extracted with the bank-statement template; per field, the share of the documents whose truth has the field
 * that get that value in that field. Printed per document and recorded in measured/extract-real-statements.json.
 */
const FIELDS = {
  bank_name: 'name',
  account_holder: 'name',
  account_number: 'account',
  statement_period_start: 'date',
  statement_period_end: 'date',
  opening_balance: 'amount',
  closing_balance: 'amount',
} as const;

test('real bank and card statements: each field in the right field (issue 26 part 2)', { timeout: 900_000 }, async () => {
  const { documents, figures } = await measureAndPrintCorpusFields('Real statements', 'statements', 'bank_statement', FIELDS);
  recordMeasured('extract-real-statements', {
    corpus: `fixtures/corpora/statements (${documents} real bank and card statements: 23 PDFs, 2 pictures, 3 MT940 files; US 23, NL 2, PL 1, SG 1, one printing no country; none from AU or NZ)`,
    truth: 'Each statement read by hand from its rendered pages, text layer or MT940 text (fixtures/corpora/statements/README.md); no product code made a label.',
    figures,
    floors: FLOORS,
  });
});

/**
 * Floors a little under the figures measured when they were set (two documents fewer on most fields fail), so a fall
 * shows; the issue sets none for statements.
 */
const FLOORS = { bank_name: 0.6, account_holder: 0.45, account_number: 0.6, statement_period_start: 0.6, statement_period_end: 0.65, opening_balance: 0.5, closing_balance: 0.5, all_fields: 0.58 };
