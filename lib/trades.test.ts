import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { TRADES, classifyTrade } from './trades.ts';

const { labelled } = JSON.parse(await readFile(new URL('../fixtures/trades/labelled-titles.json', import.meta.url), 'utf8')) as {
  labelled: { title: string; trade: string | null }[];
};

test('the taxonomy has about thirty trades with unique ids, and every labelled trade exists', () => {
  assert.ok(TRADES.length >= 28 && TRADES.length <= 36, `${TRADES.length} trades`);
  assert.equal(new Set(TRADES.map((t) => t.id)).size, TRADES.length);
  for (const row of labelled) if (row.trade) assert.ok(TRADES.some((t) => t.id === row.trade), row.trade);
});

test('precision and recall over the labelled titles are at least 0.85', (t) => {
  assert.ok(labelled.length >= 200, `${labelled.length} labelled titles`);
  let predicted = 0;
  let correct = 0;
  const wrong: string[] = [];
  for (const row of labelled) {
    const trade = classifyTrade({ title: row.title });
    if (trade !== null) predicted++;
    if (trade !== null && trade === row.trade) correct++;
    else if (trade !== row.trade) wrong.push(`${row.title}: expected ${row.trade}, got ${trade}`);
  }
  const relevant = labelled.filter((row) => row.trade !== null).length;
  const precision = correct / predicted;
  const recall = correct / relevant;
  t.diagnostic(`precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} over ${labelled.length} titles`);
  assert.ok(precision >= 0.85 && recall >= 0.85, `precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}; misses:\n${wrong.join('\n')}`);
});

test('a UNSPSC code outweighs a loose title word', () => {
  assert.equal(classifyTrade({ title: 'Services contract', category: '76111500' }), 'cleaning');
  assert.equal(classifyTrade({ title: 'Panel arrangement' }), null);
});
