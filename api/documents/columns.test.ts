import assert from 'node:assert/strict';
import { test } from 'node:test';
import { columnText } from './columns.ts';
import { readingOrder } from './pdf.ts';
import type { TextItem } from './types.ts';

const run = (text: string, x: number, y: number, width = text.length * 5): TextItem => ({ text, x, y, width, height: 10, font: null });

/** A two-column page: a whole-width title, then 12 lines a column, the right column's lines at the same heights. */
function twoColumnPage(): TextItem[] {
  const items = [run('A Title Running Across Both Columns Of The Page', 150, 40, 300)];
  for (let line = 0; line < 12; line++) {
    const y = 80 + line * 14;
    items.push(run(line % 3 === 0 ? `Left entry ${line} starts` : `left continued ${line}`, line % 3 === 0 ? 50 : 58, y, 200));
    items.push(run(`Right line ${line}`, 320, y, 200));
  }
  return items;
}

test('a two-column page is read column by column under its whole-width title, indented lines marked', () => {
  const text = columnText(twoColumnPage(), 600);
  const lines = text.split('\n');
  assert.equal(lines[0], 'A Title Running Across Both Columns Of The Page');
  assert.deepEqual(lines.slice(1, 5), ['Left entry 0 starts', '  left continued 1', '  left continued 2', 'Left entry 3 starts']);
  assert.equal(lines[13], 'Right line 0');
  assert.equal(lines.at(-1), 'Right line 11');
  // Read across the page, the columns interleave line by line.
  assert.match(readingOrder(twoColumnPage()), /Left entry 0 starts\tRight line 0/);
});

test('a single-column page (every line crossing the middle) is read as readingOrder reads it', () => {
  const items = Array.from({ length: 30 }, (_, line) => run(`A full-width line of prose number ${line} running across the page`, 50, 40 + line * 14, 480));
  assert.equal(columnText(items, 600), readingOrder(items));
});
