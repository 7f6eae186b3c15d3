import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutPdf, readLayoutPdf } from '../../../../test/helpers/layout-pdf.ts';
import { reportPdf } from '../../../../test/helpers/report-pdf.ts';
import { layout } from './layout.ts';

test('blocks with types, heading levels and paths, boxes and reading order; two columns read one after the other', async () => {
  const result = await layout({ ...(await readLayoutPdf(await reportPdf())), fields: {}, settings: true });
  const summary = result.blocks.map((block) => [block.order, block.type, block.level, block.page, block.text.slice(0, 28)]);
  assert.deepEqual(summary, [
    [0, 'heading', 1, 1, 'Site Safety Report'],
    [1, 'heading', 2, 1, '1 Summary'],
    [2, 'paragraph', null, 1, 'The inspection on 3 March fo'],
    [3, 'list', null, 1, '• Replace the damaged edge p'],
    [4, 'heading', 2, 1, '2 Readings'],
    [5, 'table', null, 1, '| Location | Noise dB | Dust'],
    [6, 'paragraph', null, 1, 'Readings were taken at noon.'],
    [7, 'heading', 2, 2, '3 Observations'],
    [8, 'paragraph', null, 2, 'Left column first line of te'],
    [9, 'paragraph', null, 2, 'Right column begins with thi'],
  ]);
  const paragraph = result.blocks[2]!;
  assert.equal(paragraph.text, 'The inspection on 3 March found the site in good order. Two items need attention before the next pour. Details follow in the sections below.');
  assert.deepEqual(paragraph.heading_path, ['Site Safety Report', '1 Summary']);
  assert.deepEqual(paragraph.bbox.slice(0, 2), [50, 104]);
  assert.equal(paragraph.bbox[3], 36);
  assert.equal(result.blocks[3]!.text.split('\n').length, 3);
  assert.equal(result.blocks[5]!.text, '| Location | Noise dB | Dust |\n| --- | --- | --- |\n| Gate | 78 | Low |\n| Crane pad | 85 | High |');
  assert.deepEqual(result.blocks[9]!.heading_path, ['Site Safety Report', '3 Observations']);
  // char spans tile the reading-order text with blank lines between blocks.
  assert.deepEqual(result.blocks[0]!.char_span, [0, 18]);
  assert.equal(result.blocks[1]!.char_span[0], 20);
});

test('labels keep their values on their line: a key-value block is not cut into two columns', async () => {
  const bytes = await layoutPdf([
    {
      texts: [
        { text: 'Invoice number:', x: 50, top: 80 },
        { text: 'INV-2041 issued to Example Holdings Pty Ltd', x: 250, top: 80 },
        { text: 'Date of issue:', x: 50, top: 96 },
        { text: '12 March 2025, payable within 30 days', x: 250, top: 96 },
      ],
    },
  ]);
  const result = await layout({ ...(await readLayoutPdf(bytes)), fields: {}, settings: true });
  assert.deepEqual(result.blocks.map((block) => block.text), ['Invoice number: INV-2041 issued to Example Holdings Pty Ltd Date of issue: 12 March 2025, payable within 30 days']);
});
