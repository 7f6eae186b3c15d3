import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutPdf, readLayoutPdf } from '../../../../test/helpers/layout-pdf.ts';
import { locatePage, spanBox, textInBox } from './page-lines.ts';

test('the located text is the page text pdf.ts builds, and offsets map back to boxes', async () => {
  const { pages } = await readLayoutPdf(
    await layoutPdf([{ texts: [{ text: 'Total due', x: 50, top: 100 }, { text: '1,250.00', x: 300, top: 100 }, { text: 'Paid by card ending 4321', x: 50, top: 120 }] }]),
  );
  const located = locatePage(pages[0]!);
  assert.equal(located.text, pages[0]!.text);
  assert.equal(located.text, 'Total due\t1,250.00\nPaid by card ending 4321');
  const start = located.text.indexOf('1,250.00');
  const box = spanBox(located, start, start + 8)!;
  assert.deepEqual([box[0], box[1], box[3]], [300, 100, 10]);
  assert.equal(textInBox(located, [295, 95, 60, 20]), '1,250.00');
});

test('text without runs (a .docx, plain text) keeps its text and has no boxes', () => {
  const located = locatePage({ page: 1, width: 0, height: 0, source: 'text_layer', items: [], text: 'Invoice\n\nABN 51 824 753 556', confidence: 1 });
  assert.equal(located.text, 'Invoice\n\nABN 51 824 753 556');
  assert.deepEqual(located.lines.map((line) => [line.start, line.end, line.box]), [[0, 7, null], [9, 27, null]]);
  assert.equal(spanBox(located, 13, 27), null);
});
