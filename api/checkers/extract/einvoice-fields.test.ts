import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PageText } from '../../documents/types.ts';
import type { EInvoice } from './einvoice.ts';
import { einvoiceFields } from './einvoice-fields.ts';

const invoice: EInvoice = {
  syntax: 'ubl',
  profile: null,
  type_code: '380',
  invoice_number: 'INV-2026-041',
  invoice_date: '2026-03-04',
  due_date: '2026-05-03',
  currency: 'USD',
  seller_name: 'Harbor Supplies',
  seller_tax_ids: [],
  buyer_name: null,
  buyer_tax_ids: [],
  subtotal: null,
  tax: null,
  grand_total: 110,
  payable: 110,
  line_total: null,
  tax_breakdown: [],
  lines: [],
  payee_accounts: [],
  paths: {},
};

const page = (text: string): PageText => ({ page: 1, width: 612, height: 792, source: 'text_layer', confidence: 1, items: [], text });

test('printed dates are read in the order the document writes them: month first here, so 03/04/2026 is 4 March', () => {
  // 03/25/2026 can only be month first, so 03/04/2026 is 4 March and 05/03/2026 is 3 May, as the XML says; read
  // day first they would be 3 April and 5 March, and neither XML date would be found printed.
  const fields = einvoiceFields(invoice, [page('Harbor Supplies\nInvoice INV-2026-041\nDate 03/04/2026\nDue 05/03/2026\nShipped 03/25/2026\nTotal 110.00')], {}, 'US');
  assert.deepEqual(fields.invoice_date, { value: '2026-03-04', confidence: 0.98, page: 1 });
  assert.deepEqual(fields.due_date, { value: '2026-05-03', confidence: 0.98, page: 1 });
});

test('on a day-first page a date is never also read month first, so XML dates printed only that way are not corroborated', () => {
  // 25/03/2026 says day first: 04/03/2026 is 4 March and 05/04/2026 is 5 April, not the XML's 3 April and 4 May.
  const monthFirstXml: EInvoice = { ...invoice, invoice_date: '2026-04-03', due_date: '2026-05-04' };
  const fields = einvoiceFields(monthFirstXml, [page('Harbor Supplies\nInvoice INV-2026-041\nDate 04/03/2026\nDue 05/04/2026\nShipped 25/03/2026\nTotal 110.00')], {}, 'AU');
  assert.equal(fields.invoice_date?.confidence, 0.6);
  assert.equal(fields.due_date?.confidence, 0.6);
});
