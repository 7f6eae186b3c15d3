import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readLayoutPdf } from '../../../../test/helpers/layout-pdf.ts';
import { figures } from './figures.ts';
import { layout } from './layout.ts';
import { tables } from './tables.ts';

// pypdf's resources/example.pdf (fixtures/documents/real/SOURCES.md): a real producer's table with spanning cells.
const example = readLayoutPdf(new Uint8Array(readFileSync(new URL('../../../../fixtures/documents/real/pypdf-example.pdf', import.meta.url))));

test("pypdf's example.pdf: its table with cells spanning columns, read row by row", async () => {
  const result = await tables({ ...(await example), fields: {}, settings: true });
  assert.equal(result.length, 1);
  const [table] = result;
  assert.deepEqual(table!.header.map((name) => name.replace(/[^\p{L} _\d]/gu, '').trim()), ['column_1', 'Indonesia', 'Germany', 'Austria', 'France', 'Vatican']);
  assert.deepEqual(Object.values(table!.json[1]!), ['Capital', 'Jakarta', 'Berlin', 'Vienna', 'Paris', 'Vatican City']);
  assert.deepEqual(Object.values(table!.json[3]!), ['Population', '273.879.750 1', '83,190,556 2', '8,935,112 3', '67,413,000', '453']);
  // "Europe" spans Germany to France: it lands in the column it overlaps most, not fusing the columns.
  assert.deepEqual(Object.values(table!.json[0]!), ['Continent', 'Asia', '', '', 'Europe', '']);
});

test("pypdf's example.pdf: heading, paragraph and table blocks; its images", async () => {
  const read = await example;
  const { blocks } = await layout({ ...read, fields: {}, settings: true });
  assert.deepEqual(blocks.slice(0, 3).map((block) => [block.type, block.level, block.text.slice(0, 22)]), [
    ['heading', 1, 'Example document'],
    ['paragraph', null, 'Beautiful is better th'],
    ['table', null, '| column_1 | Indonesia'],
  ]);
  const images = await figures({ ...read, fields: {}, settings: { min_size: 0 } });
  assert.ok(images.length >= 2 && images.every((image) => image.page === 1 && image.kind === 'image'), JSON.stringify(images));
});
