import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutPdf, readLayoutPdf } from '../../../../test/helpers/layout-pdf.ts';
import { grounding, valuePattern } from './grounding.ts';

test('values found where the text layer shows them: an amount as printed, an ISO date in its printed form, text', async () => {
  const bytes = await layoutPdf([
    { texts: [{ text: 'Invoice date', x: 50, top: 80 }, { text: '12 March 2025', x: 250, top: 80 }] },
    { texts: [{ text: 'Supplier', x: 50, top: 60 }, { text: 'Acme Supplies Pty Ltd', x: 250, top: 60 }, { text: 'Total', x: 50, top: 100 }, { text: '$1,250.00', x: 400, top: 100 }] },
  ]);
  const read = await readLayoutPdf(bytes);
  const fields = {
    total: { value: 1250, confidence: 0.9, page: 2 },
    invoice_date: { value: '2025-03-12', confidence: 0.9, page: 1 },
    supplier: { value: 'ACME Supplies Pty Ltd', confidence: 0.8, page: 1 },
    paid: { value: true, confidence: 0.6, page: 1 },
    reference: { value: 'PO-999', confidence: 0.5, page: 1 },
  };
  const result = await grounding({ ...read, fields, settings: true });
  assert.deepEqual(result['total']!.matched_text, '1,250.00');
  assert.equal(result['total']!.page, 2);
  assert.equal(result['total']!.text_layer_match, true);
  const total = result['total']!.bbox!;
  assert.ok(total[0]! > 400 && total[0]! < 410 && total[1] === 100, `total at ${total}`);
  assert.deepEqual([result['invoice_date']!.page, result['invoice_date']!.matched_text, result['invoice_date']!.bbox![0]], [1, '12 March 2025', 250]);
  // Looked for on its own page first, then on the others.
  assert.deepEqual([result['supplier']!.page, result['supplier']!.matched_text, result['supplier']!.bbox![0]], [2, 'Acme Supplies Pty Ltd', 250]);
  assert.deepEqual(result['paid'], { page: null, bbox: null, text_layer_match: false, matched_text: null });
  assert.deepEqual(result['reference'], { page: null, bbox: null, text_layer_match: false, matched_text: null });
});

test('on an OCR page the value is found but has no box; numbers inside longer numbers do not match', async () => {
  const pages = [{ page: 1, width: 595, height: 842, source: 'ocr' as const, confidence: 0.8, text: '', items: [{ text: 'Net pay 2,540.00', x: 10, y: 10, width: 100, height: 10, font: null }] }];
  const document = { bytes: new Uint8Array([1]), sha256: 'x', kind: 'image' as const, mime: 'image/png', filename: null };
  const result = await grounding({ document, pages, fields: { net: { value: 2540, confidence: 0.7, page: 1 } }, settings: true });
  assert.deepEqual(result['net'], { page: 1, bbox: null, text_layer_match: false, matched_text: '2,540.00' });
  assert.equal(valuePattern(540)!.test('2,540.00'), false);
  assert.equal(valuePattern('2025-01-03')!.test('on 3/1/2025'), true);
  assert.equal(valuePattern('2025-01-03')!.test('on 13/1/2025'), false);
  assert.equal(valuePattern('2026-10-23')!.exec('Invoice date: 23-Oct-2026')?.[1], '23-Oct-2026');
  // Month first only where no day-first reading exists: 05/21 can only be 21 May, 05/03 could be 5 March.
  assert.equal(valuePattern('2026-05-21')!.exec('Pay period: 05/21/2026')?.[1], '05/21/2026');
  assert.equal(valuePattern('2026-05-03')!.test('Paid 05/03/2026'), false);
});
