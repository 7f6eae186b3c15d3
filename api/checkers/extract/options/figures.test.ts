import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutPdf, readLayoutPdf } from '../../../../test/helpers/layout-pdf.ts';
import { figures } from './figures.ts';

test('images drawn on PDF pages: page, box from the top-left, pixel size; small ones left out', async () => {
  const bytes = await layoutPdf([
    { texts: [{ text: 'Site photo', x: 50, top: 60 }], images: [{ x: 100, top: 200, width: 80, height: 60 }, { x: 300, top: 40, width: 8, height: 8 }] },
    { texts: [{ text: 'Scan', x: 50, top: 60 }], images: [{ x: 0, top: 0, width: 595, height: 842 }] },
  ]);
  const read = await readLayoutPdf(bytes);
  const result = await figures({ ...read, fields: {}, settings: true });
  assert.deepEqual(result, [
    { page: 1, bbox: [100, 200, 80, 60], kind: 'image', pixel_width: 40, pixel_height: 30, covers_page: false },
    { page: 2, bbox: [0, 0, 595, 842], kind: 'image', pixel_width: 40, pixel_height: 30, covers_page: true },
  ]);
  const all = await figures({ ...read, fields: {}, settings: { min_size: 0 } });
  assert.deepEqual(all[1]!.bbox, [300, 40, 8, 8]);
  // Only the pages the extract core read are looked at.
  assert.equal((await figures({ ...read, pages: read.pages.slice(0, 1), fields: {}, settings: true })).length, 1);
});
