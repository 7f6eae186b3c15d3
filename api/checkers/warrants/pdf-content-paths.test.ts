import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { simplePdf, textLines } from '../../../test/helpers/pdf-files.ts';
import { analyseWarrant } from './analyse.ts';
import { contentEvents } from './pdf-content-stream.ts';

const latin1 = (text: string): Uint8Array => Buffer.from(text, 'latin1');

test('a rectangle drawn point by point under a transformation is a filled box where it lands on the page', () => {
  // pdf-lib's drawRectangle: translate, then move/line/close and fill.
  const events = contentEvents(latin1('q 1 1 1 rg 1 0 0 1 68 695 cm 0 0 m 0 20 l 160 20 l 160 0 l h f Q'));
  assert.deepEqual(events, [{ kind: 'fill', box: { x0: 68, y0: 695, x1: 228, y1: 715 }, white: true, order: 0 }]);
});

test('a curve counts with its control points, and a stroked path leaves no fill', () => {
  const events = contentEvents(latin1('1 g 10 10 m 50 90 90 90 100 10 c h f 0 g 200 200 m 300 300 l S'));
  assert.deepEqual(events, [{ kind: 'fill', box: { x0: 10, y0: 10, x1: 100, y1: 90 }, white: true, order: 0 }]);
});

test('a white path-drawn box over a figure is reported as a cover', async () => {
  const bytes = simplePdf({ pages: [`${textLines(['TAX INVOICE 2041', 'Total due 1200.00'])}\nq 1 1 1 rg 1 0 0 1 68 735 cm 0 0 m 0 16 l 140 16 l 140 0 l h f Q`] });
  const result = await analyseWarrant([{ bytes, sha256: createHash('sha256').update(bytes).digest('hex'), kind: 'pdf', mime: 'application/pdf', filename: null }], {}, { now: '2026-03-01T00:00:00Z' });
  const cover = result.signals.find((signal) => signal.code === 'white_box_over_text');
  assert.match(cover?.found ?? '', /hiding "Total due 1200\.00"/);
});
