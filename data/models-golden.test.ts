import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { AWARD_SEED, createAllTables, seedAwardModels } from '../test/helpers/award-seed.ts';
import { openStore } from './store.ts';

/**
 * Golden tests: the awards, buyers and suppliers models run over a small seeded store
 * (test/helpers/award-seed.ts) and their output is compared with data/models/golden/<table>.json, reviewed
 * line by line when written. `UPDATE_GOLDEN=1` rewrites the files; review the diff before committing it.
 */

async function compareWithGolden(table: string, rows: Record<string, unknown>[]): Promise<void> {
  const file = new URL(`./models/golden/${table}.json`, import.meta.url);
  const text = `${JSON.stringify(rows, null, 1)}\n`;
  if (process.env.UPDATE_GOLDEN === '1') await writeFile(file, text);
  assert.deepEqual(rows, JSON.parse(await readFile(file, 'utf8')), `${table} differs from data/models/golden/${table}.json`);
}

test('the awards, buyers and suppliers models over the seeded store give the reviewed golden rows', async () => {
  const store = await openStore(':memory:');
  try {
    await createAllTables(store, ['award_releases', 'awards', 'tenders', 'plans', 'abn_entities', 'companies', 'buyers', 'suppliers']);
    await seedAwardModels(store);
    assert.ok((AWARD_SEED.award_releases ?? []).length > 30, 'the seed holds the contract releases');
    for (const table of ['awards', 'buyers', 'suppliers']) await compareWithGolden(table, await store.all(`SELECT * FROM ${table} ORDER BY 1, 2`));
  } finally {
    store.close();
  }
});
