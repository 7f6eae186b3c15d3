import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutPdf, readLayoutPdf, type LayoutPage } from '../../../../test/helpers/layout-pdf.ts';
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
  assert.ok(result.documents[1]!.cues.includes('page 3 opens as a payslip'));
  assert.ok(result.documents[2]!.cues.includes('page 4 is numbered 1 again'));
});

test('one document over pages whose numbers run on stays one document', async () => {
  const bytes = await layoutPdf([
    page('Bank Statement', ['Statement period 1 March to 31 March', 'Opening balance 1,000.00', 'BSB 062-000'], 'Example Bank  Page 1 of 3'),
    page(null, ['Transactions continued'], 'Example Bank  Page 2 of 3'),
    page(null, ['Closing balance 1,250.00'], 'Example Bank  Page 3 of 3'),
  ]);
  const result = await split({ ...(await readLayoutPdf(bytes)), fields: {}, settings: true });
  assert.deepEqual(result.documents, [{ pages: [1, 3], document_type: 'bank_statement', cues: [] }]);
});
