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
