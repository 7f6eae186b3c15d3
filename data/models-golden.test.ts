import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { AWARD_SEED, createAllTables, seedAwardModels } from '../test/helpers/award-seed.ts';
import { openStore } from './store.ts';

/**
 * Golden tests: the awards, buyers and suppliers models run over a small seeded store
 * (test/helpers/award-seed.ts) and their output is compared with data/models/golden/<table>.json, reviewed
 * line by line when written. `UPDATE_GOLDEN=1` rewrites the files that differ and fails the run, so no run
 * passes against what it just wrote: review the diff, then run again without it to compare.
 */

/** Compares with the golden file; under UPDATE_GOLDEN=1 a differing file is rewritten instead, and its name returned. */
async function compareWithGolden(table: string, rows: Record<string, unknown>[]): Promise<string | null> {
  const file = new URL(`./models/golden/${table}.json`, import.meta.url);
  const golden = existsSync(file) ? JSON.parse(await readFile(file, 'utf8')) : null;
  if (process.env.UPDATE_GOLDEN === '1') {
    if (isDeepStrictEqual(rows, golden)) return null;
    await writeFile(file, `${JSON.stringify(rows, null, 1)}\n`);
    return `data/models/golden/${table}.json`;
  }
  assert.deepEqual(rows, golden, `${table} differs from data/models/golden/${table}.json`);
  return null;
}

test('the awards, buyers and suppliers models over the seeded store give the reviewed golden rows', async () => {
  const store = await openStore(':memory:');
  try {
    await createAllTables(store, ['award_releases', 'awards', 'tenders', 'plans', 'abn_entities', 'companies', 'buyers', 'suppliers']);
    await seedAwardModels(store);
    assert.ok((AWARD_SEED.award_releases ?? []).length > 30, 'the seed holds the contract releases');
    const written: string[] = [];
    for (const table of ['awards', 'buyers', 'suppliers']) {
      const rewritten = await compareWithGolden(table, await store.all(`SELECT * FROM ${table} ORDER BY 1, 2`));
      if (rewritten) written.push(rewritten);
    }
    assert.deepEqual(written, [], `UPDATE_GOLDEN=1 wrote ${written.join(', ')}: review the diff, then run again without UPDATE_GOLDEN to compare`);
  } finally {
    store.close();
  }
});
