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
  assert.deepEqual([paragraph.bbox![0], paragraph.bbox![1], paragraph.bbox![3]], [50, 104, 36]);
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

test('text without page geometry (a .docx read as one page): its lines as blocks without boxes', async () => {
  const pages = [{ page: 1, width: 0, height: 0, source: 'text_layer' as const, items: [], confidence: 1, text: 'Lease Agreement\n\nThe tenant pays rent monthly.\n- Bond: four weeks\n- Keys: two sets' }];
  const document = { bytes: new Uint8Array([1]), sha256: 'x', kind: 'docx' as const, mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', filename: null };
  const result = await layout({ document, pages, fields: {}, settings: true });
  assert.deepEqual(
    result.blocks.map((block) => [block.type, block.text, block.bbox]),
    [
      ['paragraph', 'Lease Agreement', null],
      ['paragraph', 'The tenant pays rent monthly.', null],
      ['list', '- Bond: four weeks', null],
      ['list', '- Keys: two sets', null],
    ],
  );
});
