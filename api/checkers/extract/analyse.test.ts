import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { DocumentKind, IntakeDocument } from '../../documents/types.ts';
import { analyseExtraction } from './analyse.ts';
import { type ExtractRequestOptions, extractRequestOptions } from './options.ts';

const context = { now: '2026-06-01T00:00:00.000Z' };

function document(bytes: Uint8Array, kind: DocumentKind): IntakeDocument {
  return { bytes, kind, mime: kind === 'pdf' ? 'application/pdf' : 'text/plain', sha256: '0'.repeat(64), filename: null };
}

function text(lines: string[]): IntakeDocument {
  return document(new TextEncoder().encode(lines.join('\n')), 'text');
}

function extract(input: IntakeDocument, request: ExtractRequestOptions) {
  return analyseExtraction([input], extractRequestOptions.parse(request), context);
}

/** Three pages, each line drawn as "label" at x 50 and its value at x 300 (a two-cell line), page numbers at the foot. */
async function pdf(pages: [string, string][][]): Promise<Uint8Array> {
  const built = await PDFDocument.create();
  const font = await built.embedFont(StandardFonts.Helvetica);
  pages.forEach((lines, index) => {
    const page = built.addPage([595, 842]);
    lines.forEach(([label, value], line) => {
      page.drawText(label, { x: 50, y: 780 - line * 20, size: 11, font });
      page.drawText(value, { x: 300, y: 780 - line * 20, size: 11, font });
    });
    page.drawText(`Page ${index + 1} of ${pages.length}`, { x: 50, y: 40, size: 8, font });
  });
  return built.save();
}

test('custom fields by name, synonym, description and type: amounts, dates, checkboxes, yes/no', async () => {
  const input = text([
    'Purchase order',
    'Invoice No.: PO-7781',
    'Amount payable: AUD 1,204.50',
    'Delivery date: 03/04/2026',
    '[x] Goods received in full',
    '[ ] Damaged on arrival',
    '☑ Signed by receiver',
    'Insured: No',
  ]);
  const result = await extract(input, {
    fields: [
      'Invoice number',
      { name: 'Total', type: 'amount', question: 'What is the amount payable?' },
      { name: 'Delivered', type: 'date', description: 'The delivery date' },
      { name: 'Goods received in full', type: 'boolean' },
      { name: 'Damaged on arrival', type: 'boolean' },
      { name: 'Signed by receiver', type: 'boolean' },
      { name: 'Insured', type: 'boolean' },
      { name: 'Purchase order number', type: 'text' },
    ],
  });
  assert.equal(result.mode, 'fields');
  assert.deepEqual(
    Object.fromEntries(Object.entries(result.fields).map(([name, field]) => [name, field.value])),
    {
      'Invoice number': 'PO-7781',
      Total: 1204.5,
      Delivered: '2026-04-03',
      'Goods received in full': true,
      'Damaged on arrival': false,
      'Signed by receiver': true,
      Insured: false,
    },
  );
  assert.deepEqual(result.not_found, ['Purchase order number']);
  assert.ok(Object.values(result.fields).every((field) => field.page === 1 && field.confidence > 0.9 && field.confidence <= 1));
});

test('the country hint decides the order of a numeric date: day first for AU and IN, month first for US', async () => {
  const input = text(['Payment date: 03/04/2026']);
  const field = { name: 'Payment date', type: 'date' } as const;
  assert.equal((await extract(input, { fields: [field], country: 'AU' })).fields['Payment date']!.value, '2026-04-03');
  assert.equal((await extract(input, { fields: [field], country: 'IN' })).fields['Payment date']!.value, '2026-04-03');
  assert.equal((await extract(input, { fields: [field], country: 'US' })).fields['Payment date']!.value, '2026-03-04');
});

test('with neither fields nor template the document is classified and its type’s fields applied', async () => {
  const result = await extract(text(['Kestrel Civil Works Pty Ltd', 'ABN 51 824 753 556', 'TAX INVOICE', 'Invoice number: INV-2041', 'Date: 3 May 2026', 'Subtotal: $100.00', 'GST: $10.00', 'Total: $110.00']), {});
  assert.equal(result.mode, 'classified');
  assert.equal(result.document_type, 'tax_invoice');
  assert.deepEqual(result.fields['supplier_name']?.value, 'Kestrel Civil Works Pty Ltd');
  assert.deepEqual(
    [result.fields['supplier_abn']?.value, result.fields['invoice_number']?.value, result.fields['invoice_date']?.value, result.fields['gst']?.value, result.fields['total']?.value],
    ['51 824 753 556', 'INV-2041', '2026-05-03', 10, 110],
  );
  assert.deepEqual(result.not_found, ['due_date', 'buyer_name', 'buyer_abn', 'description']);
  assert.ok(result.capabilities_used.includes('classify.rules') && result.capabilities_used.includes('template.tax_invoice'));
});

test('the payee of a payment advice is the issuer, so is the name beside a head line opening with the buyer, and an item row names nobody', async () => {
  const result = await extract(
    text([
      'TAX INVOICE\tInvoice Date\tHarbour Signs',
      'Kauri Bakery\t15 Mar 2020\t23 Main Street',
      'Description\tQuantity\tUnit Price\tAmount NZD',
      'Company van signage\t1.00\t470.65\t470.65',
      'Subtotal\t470.65',
      'TOTAL NZD\t541.25',
      'PAYMENT ADVICE\tCustomer\tKauri Bakery',
      'To: Harbour Signs\tAmount Due\t541.25',
    ]),
    { template: 'tax_invoice' },
  );
  assert.deepEqual([result.fields['supplier_name']?.value, result.fields['buyer_name']?.value], ['Harbour Signs', 'Kauri Bakery']);
  const bill = await extract(
    text(['To:\tJordan Walsh Consulting\tInvoice Date\tMelrose Parking', '23 Main Street\t1 Nov 2016\tP O Box 123', 'Description\tQuantity\tAmount', 'Company car park\t1.00\t135.00', 'Total\t135.00']),
    { template: 'tax_invoice' },
  );
  assert.deepEqual([bill.fields['supplier_name']?.value, bill.fields['buyer_name']?.value], ['Melrose Parking', 'Jordan Walsh Consulting']);
  const items = await extract(text(['Description\tQuantity\tAmount', 'Company car park\t1.00\t135.00', 'Total\t135.00']), { template: 'tax_invoice' });
  assert.equal(items.fields['supplier_name'], undefined);
});

test('an unrecognised document gives every "Label: value" it shows', async () => {
  const result = await extract(text(['Membership renewal', 'Member name: Isla Kowalski', 'Member number: 88123', 'Renewal due: 1 July 2026']), {});
  assert.equal(result.document_type, 'unrecognised');
  assert.deepEqual(
    Object.fromEntries(Object.entries(result.fields).map(([name, field]) => [name, field.value])),
    { member_name: 'Isla Kowalski', member_number: '88123', renewal_due: '1 July 2026' },
  );
  assert.deepEqual(result.not_found, []);
});

test('pages read, the page limit and the page count; a value past the limit is not found', async () => {
  const bytes = await pdf([[['Invoice number', 'INV-1']], [['Due date', '14/05/2026']], [['Total', '$99.00']]]);
  const result = await extract(document(bytes, 'pdf'), { template: 'tax_invoice', max_pages: 2 });
  assert.deepEqual([result.pages_read, result.page_limit, result.page_count], [2, 2, 3]);
  assert.equal(result.fields['due_date']?.page, 2);
  assert.ok(result.not_found.includes('total'));
  assert.match(result.limitations, /^Extraction is not verification, and the document is never stored/);
});

test('each enabled option adds its key; grounding gives fields their box on the text layer', async () => {
  const bytes = await pdf([[['Invoice number', 'INV-1'], ['Total', '$99.00']]]);
  const result = await extract(document(bytes, 'pdf'), { template: 'tax_invoice', options: { grounding: true, flag_below: 0.99 } });
  assert.ok('grounding' in result && 'flag_below' in result);
  assert.ok(!('tables' in result));
  assert.ok(result.capabilities_used.includes('grounding') && result.capabilities_used.includes('flag_below'));
  const total = result.fields['total']!;
  assert.equal(total.text_layer_match, true);
  const [x, y, width] = total.bbox!;
  assert.ok(x! >= 300 && x! < 310 && y! > 70 && y! < 85 && width! > 20, `total at ${total.bbox}`);
  assert.deepEqual((result['flag_below'] as { fields: { name: string }[] }).fields.map((field) => field.name).sort(), ['invoice_number', 'total']);
});

test('classify alone skips field extraction', async () => {
  const result = await extract(text(['PAYSLIP', 'Employee: Mia Rossi', 'Gross pay: $1,000.00', 'Net pay: $800.00']), { options: { classify: true } });
  assert.equal(result.mode, 'classify_only');
  assert.equal(result.document_type, 'payslip');
  assert.deepEqual([result.fields, result.not_found], [{}, []]);
  assert.ok('classify' in result);
});

test('an Australian tax invoice: GST-exclusive, GST and GST-inclusive totals by their labels, the name over the ABN as issuer', async () => {
  const input = text([
    "Mike's Big Bikes",
    'ABN XX XXX XXX XXX',
    'Date: 05/07/2010',
    'To: MPM Mega Wares',
    'Tyson Vale SA 9999',
    'TAX INVOICE No. 1010',
    'TOTAL (excl GST)\t1,041.00',
    'TOTAL GST AMOUNT PAYABLE\t104.10',
    'TOTAL AMOUNT PAYABLE (incl GST)\t1,145.10',
  ]);
  const result = await extract(input, { template: 'tax_invoice', country: 'AU' });
  assert.deepEqual(
    [result.fields['supplier_name']?.value, result.fields['invoice_date']?.value, result.fields['gst']?.value, result.fields['total']?.value],
    ["Mike's Big Bikes", '2010-07-05', 104.1, 1145.1],
  );
});
