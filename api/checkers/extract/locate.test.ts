import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PageText } from '../../documents/types.ts';
import { FieldLocator } from './locate.ts';
import { templates } from './templates.ts';

/** A page as OCR returns it: lines of tab-separated cells, read with the given confidence. */
function ocrPage(lines: string[][]): PageText {
  return { page: 1, width: 595, height: 842, source: 'ocr', items: [], text: lines.map((cells) => cells.join('\t')).join('\n'), confidence: 0.9 };
}

/** Every label any template knows, as the extract analysis hands them to the locator. */
const everyLabel = Object.values(templates).flatMap((template) => template.fields.flatMap((rule) => [...rule.labels, ...(rule.rangeLabels ?? [])]));

function locate(page: PageText, template: keyof typeof templates, field: string) {
  const rule = templates[template].fields.find((candidate) => candidate.name === field)!;
  return new FieldLocator([page], everyLabel, 'AU').locate(rule)?.value ?? null;
}

test('on an OCR page a heading of more words read with a slip beats the shorter label it starts with', () => {
  const page = ocrPage([
    ['Invoice mumber', 'Issue date', 'Due date', 'Customer'],
    ['INV-61764', '24/02/2026', '10/03/2026', 'Gumtree Early Learning'],
  ]);
  assert.equal(locate(page, 'tax_invoice', 'invoice_number'), 'INV-61764');
  assert.equal(locate(page, 'tax_invoice', 'due_date'), '2026-03-10');
});

test('on an OCR page an exact label is not taken for a label of as many words one letter away', () => {
  // "Date" is one letter from the contract label "dated": the receipt's own label must still hold.
  const page = ocrPage([['Receipt No: 805135'], ['Date: 06/09/2025 08:08']]);
  assert.equal(locate(page, 'receipt', 'date'), '2025-09-06');
});

test('on an OCR page a label whose r ran into the next n or m reads as its label: "Tem" is Term', () => {
  const page = ocrPage([['Agreement date', '22 January 2025'], ['Tem', '12 months'], ['Cantradt value', '$131,500.00']]);
  assert.equal(locate(page, 'contract', 'term'), '12 months');
});

test('on a scan of several pages the first placement wins, even when a later page was read more clearly', () => {
  const firstPage = { ...ocrPage([['Description', 'Qty', 'Unit price', 'Amount'], ['Network cabling (per point)', '10', '144.82', '1,448.20']]), confidence: 0.88 };
  const secondPage = { ...ocrPage([['Description', 'Qty', 'Unit price', 'Amount'], ['Labour - site attendance', '12', '838.02', '10,056.24']]), page: 2, confidence: 0.94 };
  const rule = templates.tax_invoice.fields.find((candidate) => candidate.name === 'description')!;
  assert.deepEqual(new FieldLocator([firstPage, secondPage], everyLabel, 'AU').locate(rule), { value: 'Network cabling (per point)', confidence: 0.75, page: 1 });
});

/** A text-layer page without geometry: lines of tab-separated cells. */
function textPage(lines: string[][]): PageText {
  return { page: 1, width: 612, height: 792, source: 'text_layer', items: [], text: lines.map((cells) => cells.join('\t')).join('\n'), confidence: 1 };
}

test('a balance dated "on" or "as of" gives its amount from the next cell and its date to the statement period', () => {
  const page = textPage([['Beginning balance on June 10, 2021', '$2,825.37'], ['Ending Balance, as of July 9, 2021', '$2,736.04']]);
  assert.equal(locate(page, 'bank_statement', 'opening_balance'), 2825.37);
  assert.equal(locate(page, 'bank_statement', 'closing_balance'), 2736.04);
  assert.equal(locate(page, 'bank_statement', 'statement_period_start'), '2021-06-10');
  assert.equal(locate(page, 'bank_statement', 'statement_period_end'), '2021-07-09');
});

test("a transaction row's date before a balance label is the row's; the label still reads", () => {
  const page = textPage([['09/01 Beginning Balance', '$15,611.96'], ['09/30 Ending Balance', '$53,486.15']]);
  assert.equal(locate(page, 'bank_statement', 'opening_balance'), 15611.96);
  assert.equal(locate(page, 'bank_statement', 'closing_balance'), 53486.15);
});

test('an account number opens what follows its label, masked or short as printed; "Account Type: …" is another label', () => {
  assert.equal(locate(textPage([['Account Type: 5/3 BUS ELITE CKG'], ['Account Number: 79']]), 'bank_statement', 'account_number'), '79');
  assert.equal(locate(textPage([['Account Number: xxxxxx1234']]), 'bank_statement', 'account_number'), 'xxxxxx1234');
  assert.equal(locate(textPage([['Account number', 'PL29 1140 1081 0000 2670 0200 1002']]), 'bank_statement', 'account_number'), 'PL29114010810000267002001002');
});

test('an amount ruled out by the other fields gives way to the next one beside its label', () => {
  const page = textPage([['Gross Earnings', '80.00', '4,278.47', '150,541.41']]);
  const rule = templates.payslip.fields.find((candidate) => candidate.name === 'gross_pay')!;
  const locator = new FieldLocator([page], everyLabel, 'AU');
  assert.equal(locator.locate(rule)?.value, 80);
  assert.equal(locator.locate(rule, (value) => Number(value) >= 3096.49)?.value, 4278.47);
});

test("with no label, a statement's holder is the name over a street address, never a company's", () => {
  const page = textPage([['ACME SUPPLIES PTY LTD'], ['1 Main St'], ['Questions?'], ['DOMINIC BOGDAN', 'Available by phone 24 hours a day'], ['', 'We accept all relay calls'], ['111 LAKES RD']]);
  assert.equal(locate(page, 'bank_statement', 'account_holder'), 'DOMINIC BOGDAN');
  assert.equal(locate(textPage([['ACME SUPPLIES PTY LTD'], ['1 Main St']]), 'bank_statement', 'account_holder'), null);
});
