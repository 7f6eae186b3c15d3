import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ReleaseStore } from '../../api/release-store.ts';
import { makeDataDir, seedRelease, sourceRow, tenderRow } from '../../test/helpers/seed-release.ts';
import { openStore } from '../store.ts';
import { readIndexFile, writeIndexFile } from './index-file.ts';
import { readTenderIndex } from './read-tenders.ts';
import { readServingTenders } from './serving-index.ts';

const NOW = new Date('2026-06-01T12:00:00Z');
const tenders = [
  tenderRow({ source: 'au_nsw_etender', title: 'Road resurfacing, Māori Park', jurisdiction: 'AU-NSW', closing_date: '2026-06-10', reference: 'R-1' }),
  tenderRow({ source: 'au_nsw_etender', title: 'Bridge inspection', jurisdiction: 'AU-NSW', closing_date: '2026-06-03', reference: 'R-2', trade: 'civil-works' }),
  tenderRow({ source: 'au_nsw_etender', title: 'Roadside cleaning', jurisdiction: 'AU-NSW', closing_date: '2026-05-01', reference: 'R-3' }),
];

let dataDir: string;
let releaseDir: string;
before(async () => {
  dataDir = await makeDataDir();
  releaseDir = (await seedRelease({ dataDir, tenders, sources: [sourceRow({ id: 'au_nsw_etender' })], computedAt: NOW.toISOString() })).dir;
});
after(async () => rm(dataDir, { recursive: true, force: true }));

describe('serving index', () => {
  it('answers every search as the index built from the store does', async () => {
    const store = await openStore(join(releaseDir, 'store.duckdb'), { readOnly: true });
    const built = await readTenderIndex(store).finally(() => store.close());
    const loaded = await readServingTenders(releaseDir);
    const keysOf = (index: typeof built, q?: string) =>
      index.search({ q, include_closed: true }, { limit: 10, offset: 0 }, NOW).hits.map((hit) => [hit.tender.row.tender_key, hit.open, hit.tender.closingDate, hit.tender.trade]);
    for (const q of [undefined, 'road', 'maori', 'bridge inspection', 'nothing']) assert.deepEqual(keysOf(loaded, q), keysOf(built, q), `q=${q}`);
    assert.equal(keysOf(loaded, 'road').length, 2, 'a prefix finds both road words');
    assert.deepEqual(loaded.sources, built.sources);
    assert.deepEqual(loaded.strip(NOW), built.strip(NOW));
    const [first] = built.search({}, { limit: 1, offset: 0 }, NOW).hits;
    assert.deepEqual(loaded.get(first!.tender.row.tender_key, NOW)?.tender.row, first!.tender.row);
  });

  it('is built in a child process when a release has none, then served', async () => {
    await rm(join(releaseDir, 'index'), { recursive: true });
    const store = await ReleaseStore.open({ dataDir, now: () => NOW, log: () => {} });
    try {
      const state = store.state();
      assert.ok(state.ready);
      assert.equal(state.release.tenders.size, 3);
      assert.ok(existsSync(join(releaseDir, 'index', 'awards.idx')));
    } finally {
      await store.close();
    }
  });
});

describe('index files', () => {
  it('round-trips typed arrays as views and everything else as JSON', async () => {
    const path = join(dataDir, 'round-trip.idx');
    const value = { words: ['a', 'é'], n: 3, nested: { ints: Int32Array.of(1, -2, 3), bytes: Buffer.from('hi'), floats: Float64Array.of(0.5, Number.NaN) } };
    await writeIndexFile(path, value);
    const read = (await readIndexFile(path)) as typeof value;
    assert.deepEqual(read.words, value.words);
    assert.equal(read.n, 3);
    assert.ok(read.nested.ints instanceof Int32Array);
    assert.deepEqual([...read.nested.ints], [1, -2, 3]);
    assert.ok(Buffer.isBuffer(read.nested.bytes));
    assert.equal(read.nested.bytes.toString(), 'hi');
    assert.ok(Number.isNaN(read.nested.floats[1]));
  });

  it('refuses a file cut short or of another format', async () => {
    const path = join(dataDir, 'cut.idx');
    await writeIndexFile(path, { ints: new Int32Array(1000) });
    const whole = (await readFile(path)).length;
    await truncate(path, whole - 100);
    await assert.rejects(readIndexFile(path), /cut short/);
    await writeFile(path, 'not an index');
    await assert.rejects(readIndexFile(path), /not an index file/);
  });
});
