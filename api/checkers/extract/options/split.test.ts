import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutPdf, readLayoutPdf, type LayoutPage } from '../../../../test/helpers/layout-pdf.ts';
import { seededRandom } from '../../../../test/helpers/seeded-random.ts';
import { recordMeasured } from '../../../../test/helpers/measured.ts';
import { split } from './split.ts';

const page = (title: string | null, lines: string[], footer: string, size = 16): LayoutPage => ({
  texts: [...(title ? [{ text: title, x: 50, top: 40, size }] : []), ...lines.map((text, i) => ({ text, x: 50, top: 90 + i * 14 })), { text: footer, x: 50, top: 800, size: 8 }],
});

test('three documents in one file: an invoice over two pages, a payslip, a two-page agreement', async () => {
  const bytes = await layoutPdf([
    page('TAX INVOICE', ['Invoice number INV-77', 'Bill to: Example Holdings', 'Subtotal 100.00'], 'Acme Supplies Pty Ltd  Page 1 of 2'),
    page(null, ['Line items continued', 'Amount due 110.00', 'Due date 30/04/2025'], 'Acme Supplies Pty Ltd  Page 2 of 2'),
    page('Payslip', ['Employee: J. Citizen', 'Pay period 01/04/2025 to 14/04/2025', 'Gross pay 3,200.00', 'Net pay 2,540.00', 'Superannuation guarantee 368.00'], 'Payroll services'),
    page('Services Agreement', ['This agreement is made between the parties named below.', 'Commencement date: 1 May 2025', 'Governing law: New South Wales'], 'Agreement Page 1'),
    page(null, ['Termination may occur on 30 days written notice.', 'Executed as an agreement.', 'Witness signature'], 'Agreement Page 2'),
  ]);
  const result = await split({ ...(await readLayoutPdf(bytes)), fields: {}, settings: true });
  assert.deepEqual(
    result.documents.map((document) => [document.pages, document.document_type]),
    [
      [[1, 2], 'tax_invoice'],
      [[3, 3], 'payslip'],
      [[4, 5], 'contract'],
    ],
  );
  assert.deepEqual(result.documents[0]!.cues, []);
  assert.ok(result.documents[1]!.cues.includes('page 2 was the last of its 2'), result.documents[1]!.cues.join('; '));
  assert.ok(result.documents[1]!.cues.includes('page 3 opens with a payslip title'));
  assert.ok(result.documents[2]!.cues.includes('page 4 is numbered 1 again'));
});

test('one document over pages whose numbers run on stays one document, its title repeated on each page', async () => {
  const bytes = await layoutPdf([
    page('Bank Statement', ['Statement period 1 March to 31 March', 'Opening balance 1,000.00', 'BSB 062-000'], 'Example Bank  Page 1 of 3'),
    page('Bank Statement', ['Transactions continued'], 'Example Bank  Page 2 of 3'),
    page(null, ['Closing balance 1,250.00'], 'Example Bank  Page 3 of 3'),
  ]);
  const result = await split({ ...(await readLayoutPdf(bytes)), fields: {}, settings: true });
  assert.deepEqual(result.documents, [{ pages: [1, 3], document_type: 'bank_statement', cues: [] }]);
});

test('two invoices side by side, no page numbers or headers, one font: the second opens with its own title and number', async () => {
  const bytes = await layoutPdf([
    page('TAX INVOICE', ['Invoice number INV-1', 'Total 110.00'], 'Printed copy'),
    page('TAX INVOICE', ['Invoice number INV-2', 'Total 220.00'], 'Printed copy'),
    page(null, ['Line items continued', 'Amount due 220.00'], 'Printed copy'),
  ]);
  const result = await split({ ...(await readLayoutPdf(bytes)), fields: {}, settings: true });
  assert.deepEqual(
    result.documents.map((document) => [document.pages, document.cues]),
    [
      [[1, 1], []],
      [[2, 3], ['page 2 opens with a tax invoice title', 'page 2 carries another invoice']],
    ],
  );
});

/** What each kind of document prints on its first page, and on a page that carries on. */
const firstPages: Record<string, { title: string[]; lines: string[] }> = {
  tax_invoice: { title: ['TAX INVOICE', 'Tax Invoice'], lines: ['Invoice number INV-301', 'Bill to: Example Holdings', 'Description  Qty  Amount', 'Subtotal 900.00'] },
  payslip: { title: ['Payslip', 'PAY ADVICE'], lines: ['Employee: J. Citizen', 'Pay period 01/04/2025 to 14/04/2025', 'Gross pay 3,200.00', 'Net pay 2,540.00'] },
  bank_statement: { title: ['Bank Statement', 'Account Statement'], lines: ['Statement period 1 March to 31 March', 'Opening balance 1,000.00', 'BSB 062-000 Account 1234 5678'] },
  receipt: { title: ['RECEIPT', 'Sales receipt'], lines: ['2 x Screws 8.00', 'Total 8.00 includes GST', 'EFTPOS approved', 'Thank you'] },
  contract: { title: ['Services Agreement', 'Supply Contract'], lines: ['This agreement is made between the parties below.', 'Commencement date: 1 May 2025', 'Governing law: Victoria'] },
};
const laterLines: Record<string, string[]> = {
  tax_invoice: ['Line items continued', 'Freight 40.00', 'Amount due 990.00'],
  payslip: ['Leave balances', 'Annual leave 76.0 hours', 'Superannuation guarantee 368.00'],
  bank_statement: ['Transactions continued', '12/03 Transfer to savings 200.00', 'Closing balance 1,250.00'],
  receipt: ['Returns accepted within 30 days', 'Keep this for your records'],
  contract: ['The agreement continues in force until terminated.', 'Either party may terminate on notice.', 'Executed as an agreement.'],
};

test('measured on 20 generated files of 2 to 4 documents (same kinds side by side too): boundary precision and recall (floor 0.9)', async () => {
  const random = seededRandom(1505);
  const pick = <T,>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  let [found, right, labelled, exact, documentsLabelled] = [0, 0, 0, 0, 0];
  for (let file = 0; file < 20; file++) {
    const pages: LayoutPage[] = [];
    const truth: [number, number][] = [];
    const count = 2 + Math.floor(random() * 3);
    while (truth.length < count && pages.length < 9) {
      const type = pick(Object.keys(firstPages));
      const length = Math.min(1 + Math.floor(random() * 3), 10 - pages.length);
      const numbering = pick(['of', 'plain', 'none'] as const);
      const header = random() < 0.5 ? pick(['Acme Supplies Pty Ltd', 'Example Bank Limited', 'Northwind Payroll', 'Harbour Legal']) : null;
      truth.push([pages.length + 1, pages.length + length]);
      for (let n = 1; n <= length; n++) {
        const footer = numbering === 'of' ? `Page ${n} of ${length}` : numbering === 'plain' ? `Page ${n}` : 'Printed copy';
        const lines = n === 1 ? firstPages[type]!.lines : laterLines[type]!;
        pages.push({
          texts: [
            ...(header ? [{ text: header, x: 50, top: 20, size: 8 }] : []),
            ...(n === 1 ? [{ text: pick(firstPages[type]!.title), x: 50, top: 50, size: 16 }] : []),
            ...lines.map((text, i) => ({ text, x: 50, top: 100 + i * 14 })),
            { text: footer, x: 50, top: 810, size: 8 },
          ],
        });
      }
    }
    const result = await split({ ...(await readLayoutPdf(await layoutPdf(pages))), fields: {}, settings: true });
    const expectedStarts = new Set(truth.slice(1).map(([start]) => start));
    const foundStarts = result.documents.slice(1).map((document) => document.pages[0]!);
    labelled += expectedStarts.size;
    found += foundStarts.length;
    right += foundStarts.filter((start) => expectedStarts.has(start)).length;
    documentsLabelled += truth.length;
    exact += truth.filter(([start, end]) => result.documents.some((document) => document.pages[0] === start && document.pages[1] === end)).length;
  }
  const precision = right / found;
  const recall = right / labelled;
  console.log(`split: boundary precision ${precision.toFixed(3)} recall ${recall.toFixed(3)} (${right} right of ${found} found, ${labelled} labelled); documents with exact page ranges ${exact}/${documentsLabelled}`);
  assert.ok(precision >= 0.9, `precision ${precision}`);
  assert.ok(recall >= 0.9, `recall ${recall}`);
  // The capabilities reply (capabilities.ts) quotes the recorded figures.
  recordMeasured('extract-option-split', {
    corpus: '20 generated files of 2 to 4 documents, 1 to 3 pages each, numbered or not, with or without a running header (seeded)',
    truth: 'The generator records where each document it wrote starts and ends.',
    figures: { files: 20, boundaries: labelled, found, right, boundary_precision: precision, boundary_recall: recall, documents: documentsLabelled, exact_page_ranges: exact },
    floors: { boundary_precision: 0.9, boundary_recall: 0.9 },
  });
});
