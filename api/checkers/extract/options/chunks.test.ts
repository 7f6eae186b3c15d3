import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readLayoutPdf } from '../../../../test/helpers/layout-pdf.ts';
import { reportPdf } from '../../../../test/helpers/report-pdf.ts';
import { chunkStrategies, chunks } from './chunks.ts';
import { layout } from './layout.ts';

const read = readLayoutPdf(await reportPdf());

test('every strategy: heading path and position on every chunk, text as its char span, a table never cut', async () => {
  const input = await read;
  const { blocks } = await layout({ ...input, fields: {}, settings: true });
  const table = blocks.find((block) => block.type === 'table')!;
  const [tableStart, tableEnd] = table.char_span as [number, number];
  for (const strategy of chunkStrategies) {
    for (const max_tokens of [8, 20, 512]) {
      const result = await chunks({ ...input, fields: {}, settings: { strategy, max_tokens, overlap: max_tokens === 20 ? 5 : 0 } });
      const label = `${strategy} max ${max_tokens}`;
      assert.ok(result.chunks.length > 0, label);
      for (const chunk of result.chunks) {
        const [start, end] = chunk.char_span as [number, number];
        assert.ok(chunk.heading_path.length > 0 && chunk.positions.length > 0, `${label}: chunk ${chunk.index} has headings and positions`);
        assert.equal(chunk.page, chunk.positions[0]!.page);
        // A table is inside a chunk or outside it, never cut across.
        const overlapsTable = start < tableEnd && tableStart < end;
        assert.ok(!overlapsTable || (start <= tableStart && end >= tableEnd), `${label}: chunk ${chunk.index} [${start}, ${end}) cuts the table [${tableStart}, ${tableEnd})`);
        if (!chunk.element_types.includes('table')) assert.ok(chunk.tokens <= max_tokens, `${label}: chunk ${chunk.index} has ${chunk.tokens} tokens`);
      }
      assert.equal(result.chunks.filter((chunk) => chunk.element_types.includes('table')).length, 1, label);
    }
  }
});

test('by_page, by_title and by_element boundaries follow pages, headings and blocks', async () => {
  const input = await read;
  const byPage = await chunks({ ...input, fields: {}, settings: { strategy: 'by_page' } });
  assert.deepEqual(byPage.chunks.map((chunk) => chunk.positions.map((position) => position.page)), [[1], [2]]);
  assert.deepEqual(byPage.chunks[1]!.heading_path, ['Site Safety Report', '3 Observations']);

  const byTitle = await chunks({ ...input, fields: {}, settings: true });
  assert.equal(byTitle.strategy, 'by_title');
  assert.deepEqual(
    byTitle.chunks.map((chunk) => chunk.text.split('\n')[0]),
    ['Site Safety Report', '1 Summary', '2 Readings', '3 Observations'],
  );
  assert.deepEqual(byTitle.chunks[2]!.heading_path, ['Site Safety Report', '2 Readings']);
  assert.deepEqual(byTitle.chunks[2]!.element_types, ['heading', 'table', 'paragraph']);
  // A table larger than the size is a chunk of its own, whole.
  const small = await chunks({ ...input, fields: {}, settings: { strategy: 'by_title', max_tokens: 10 } });
  const tableChunk = small.chunks.find((chunk) => chunk.element_types.includes('table'))!;
  assert.deepEqual(tableChunk.element_types, ['table']);
  assert.equal(tableChunk.text, '| Location | Noise dB | Dust |\n| --- | --- | --- |\n| Gate | 78 | Low |\n| Crane pad | 85 | High |');
  assert.deepEqual(tableChunk.positions, [{ page: 1, bbox: [50, 250, 370.56, 42] }]);

  const byElement = await chunks({ ...input, fields: {}, settings: { strategy: 'by_element' } });
  const { blocks } = await layout({ ...input, fields: {}, settings: true });
  assert.deepEqual(byElement.chunks.map((chunk) => chunk.text), blocks.map((block) => block.text));
});

test('fixed windows overlap by the tokens asked; sentences are never cut by by_sentence', async () => {
  const input = await read;
  const fixed = await chunks({ ...input, fields: {}, settings: { strategy: 'fixed', max_tokens: 12, overlap: 4 } });
  const [first, second] = fixed.chunks as [(typeof fixed.chunks)[0], (typeof fixed.chunks)[0]];
  assert.equal(first.tokens, 12);
  assert.equal(first.text, 'Site Safety Report\n\n1 Summary\n\nThe inspection on 3 March found the');
  assert.equal(second.text.startsWith('3 March found the site'), true);
  const sentences = await chunks({ ...input, fields: {}, settings: { strategy: 'by_sentence', max_tokens: 30 } });
  const paragraph = 'The inspection on 3 March found the site in good order. Two items need attention before the next pour. Details follow in the sections below.';
  for (const sentence of paragraph.split(/(?<=\.) /)) assert.ok(sentences.chunks.some((chunk) => chunk.text.includes(sentence)), sentence);
  await assert.rejects(chunks({ ...input, fields: {}, settings: { strategy: 'fixed', max_tokens: 10, overlap: 10 } }), /overlap must be smaller/);
  await assert.rejects(chunks({ ...input, fields: {}, settings: { strategy: 'semantic' } }));
});
