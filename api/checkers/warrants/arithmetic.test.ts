import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PageText } from '../../documents/types.ts';
import { arithmeticSignals } from './arithmetic.ts';

function page(text: string, number = 1): PageText {
  return { page: number, width: 595, height: 842, source: 'text_layer', items: [], text, confidence: 1 };
}

const header = 'Description\tQty\tUnit price\tAmount';
const goodInvoice = [
  'TAX INVOICE',
  'Harbour Plumbing Pty Ltd\tABN 12 345 678 901',
  'Invoice number\tINV-2041',
  header,
  'Call-out fee\t1\t$95.00\t$95.00',
  'Labour (hours)\t2.5\t$110.00\t$275.00',
  'Copper pipe 15 mm\t4\t$12.35\t$49.40',
  'Subtotal\t$419.40',
  'GST (10%)\t$41.94',
  'Total (incl. GST)\t$461.34',
].join('\n');

test('a consistent invoice raises no arithmetic signal', () => {
  assert.deepEqual(arithmeticSignals([page(goodInvoice)]), []);
});

test('a line whose amount is not quantity times unit price is named with its numbers', () => {
  const signals = arithmeticSignals([page(goodInvoice.replace('Copper pipe 15 mm\t4\t$12.35\t$49.40', 'Copper pipe 15 mm\t4\t$12.35\t$94.40'))]);
  const line = signals.find((signal) => signal.code === 'arith_line_item_mismatch');
  assert.ok(line);
  assert.match(line.found, /4 × 12\.35 = 49\.40, but the line says 94\.40/);
  assert.deepEqual(line.where, { page: 1, field: 'line 7: Copper pipe 15 mm' });
  // The changed amount no longer adds up to the subtotal either.
  const subtotal = signals.find((signal) => signal.code === 'arith_items_subtotal_mismatch');
  assert.match(subtotal?.found ?? '', /add up to 464\.40, but the subtotal says 419\.40/);
});

test('an altered total is reported against subtotal plus GST', () => {
  const signals = arithmeticSignals([page(goodInvoice.replace('$461.34', '$561.34'))]);
  assert.deepEqual(
    signals.map((signal) => [signal.code, signal.where.field]),
    [['arith_total_mismatch', 'Total']],
  );
  assert.match(signals[0]!.found, /419\.40 \+ GST 41\.94 = 461\.34, but the total says 561\.34/);
});

test('GST that is not 10% of the subtotal is reported with the expected figure', () => {
  const signals = arithmeticSignals([page(goodInvoice.replace('GST (10%)\t$41.94', 'GST (10%)\t$45.94').replace('$461.34', '$465.34'))]);
  assert.deepEqual(
    signals.map((signal) => signal.code),
    ['arith_gst_not_ten_percent'],
  );
  assert.match(signals[0]!.found, /GST is 45\.94, but 10% of the subtotal 419\.40 is 41\.94/);
  assert.equal(signals[0]!.severity, 'medium');
});

test('on a GST-inclusive receipt GST is checked as one eleventh of the total', () => {
  const receipt = ['Item\tQty\tPrice\tTotal', 'Coffee beans 1 kg\t2\t$38.50\t$77.00', 'Filter papers\t1\t$11.00\t$11.00', 'Total\t$88.00', 'GST included in total\t$8.00'].join('\n');
  assert.deepEqual(arithmeticSignals([page(receipt)]), []);
  const wrong = arithmeticSignals([page(receipt.replace('$8.00', '$9.50'))]);
  assert.deepEqual(
    wrong.map((signal) => signal.code),
    ['arith_gst_not_ten_percent'],
  );
  assert.match(wrong[0]!.found, /one eleventh of the GST-inclusive total 88\.00 is 8\.00/);
});

test('a cent of rounding per line is tolerated', () => {
  const rounded = [header, 'Widget\t3\t$3.333\t$10.00', 'Gadget\t3\t$3.333\t$10.00', 'Subtotal\t$20.01', 'GST\t$2.00', 'Total\t$22.01'].join('\n');
  assert.deepEqual(arithmeticSignals([page(rounded)]), []);
});

test('items on one page and the totals on the next are reconciled together', () => {
  const first = [header, 'Consulting\t10\t$150.00\t$1,500.00', 'Travel\t1\t$320.00\t$320.00'].join('\n');
  const second = ['Subtotal\t$1,820.00', 'GST\t$182.00', 'Total\t$2,102.00'].join('\n');
  const signals = arithmeticSignals([page(first), page(second, 2)]);
  assert.deepEqual(
    signals.map((signal) => [signal.code, signal.where.page]),
    [['arith_total_mismatch', 2]],
  );
});

test('a letter with figures but no invoice table raises nothing', () => {
  const letter = ['Dear Ms Chen,', 'Your account balance of $1,250.00 is due on 14 March.', 'Total paid this year\t$3,400.00', 'Yours sincerely'].join('\n');
  assert.deepEqual(arithmeticSignals([page(letter)]), []);
});

test('labels: "Total GST" is the tax and "Amount due (inc GST)" the total', () => {
  const invoice = [header, 'Design work\t4\t$125.00\t$500.00', 'Sub-total\t$500.00', 'Total GST\t$50.00', 'Amount due (inc GST)\t$650.00'].join('\n');
  assert.deepEqual(
    arithmeticSignals([page(invoice)]).map((signal) => [signal.code, signal.found]),
    [['arith_total_mismatch', 'Subtotal 500.00 + GST 50.00 = 550.00, but the total says 650.00.']],
  );
});

test('GST below 10% on an invoice that mentions GST-free items is only low', () => {
  const mixed = [header, 'Fresh fruit box (GST-free)\t2\t$40.00\t$80.00', 'Delivery\t1\t$20.00\t$20.00', 'Subtotal\t$100.00', 'GST\t$2.00', 'Total\t$102.00'].join('\n');
  const signals = arithmeticSignals([page(mixed)]);
  assert.deepEqual(
    signals.map((signal) => [signal.code, signal.severity]),
    [['arith_gst_not_ten_percent', 'low']],
  );
  assert.match(signals[0]!.found, /mentions GST-free items/);
});

test('receipt lines "quantity x item, amount" are added up against the GST-inclusive total', () => {
  const receipt = ['Ironbark Joinery Pty Ltd', 'TAX INVOICE / RECEIPT', '11 x Switchboard upgrade\t553.52', '12 x Training course - first aid\t398.40', '11 x Switchboard upgrade\t50.82', 'TOTAL\t$1,002.74', 'GST included\t$91.16', 'Paid by: EFTPOS'].join('\n');
  assert.deepEqual(arithmeticSignals([page(receipt)]), []);
  const raised = arithmeticSignals([page(receipt.replace('TOTAL\t$1,002.74', 'TOTAL\t$1,092.74').replace('$91.16', '$99.34'))]);
  assert.deepEqual(
    raised.map((signal) => [signal.code, signal.found]),
    [['arith_total_mismatch', 'The 3 line items add up to 1002.74 (1102.08 with GST 99.34), but the total says 1092.74.']],
  );
});
