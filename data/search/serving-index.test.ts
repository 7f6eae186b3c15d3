import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ReleaseStore } from '../../api/release-store.ts';
import { awardRow, seedIntelRelease } from '../../test/helpers/intel-seed.ts';
import { makeDataDir, sourceRow, tenderRow } from '../../test/helpers/seed-release.ts';
import { openStore } from '../store.ts';
import { readAwardIndex } from './award-index.ts';
import { FileBytes, FileInts, readIndexFile, writeIndexFile } from './index-file.ts';
import { readTenderIndex } from './read-tenders.ts';
import { readServingAwards, readServingTenders } from './serving-index.ts';

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
  // more awards than one block holds (32), so pages read blocks from the file
  const awards = Array.from({ length: 40 }, (_, i) => awardRow({
    contract_id: `CN${i}`, ocid: `ocds-${i}`, title: i % 3 === 0 ? `Road works ${i}` : `Cleaning services ${i}`, awarded_date: `2026-0${1 + (i % 5)}-1${i % 10}`,
  }));
  releaseDir = (await seedIntelRelease({ dataDir, tenders, awards, sources: [sourceRow({ id: 'au_nsw_etender' })], computedAt: NOW.toISOString() })).dir;
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
    const key = first!.tender.row.tender_key;
    assert.deepEqual(loaded.get(key, NOW)?.tender.row, first!.tender.row);
    // the rows are read from the file, which closes with the index
    loaded.close();
    assert.throws(() => loaded.get(key, NOW)?.tender.row, /closed/);
  });

  it('reads award pages from the file, whose text blocks stay on disk until the index is closed', async () => {
    const store = await openStore(join(releaseDir, 'store.duckdb'), { readOnly: true });
    const built = await readAwardIndex(store).finally(() => store.close());
    const loaded = await readServingAwards(releaseDir);
    const page = { limit: 20, offset: 0 };
    assert.equal(built.size, 40);
    const queries = [{}, { q: 'road' }, { q: 'cleaning' }, { supplierKey: 'AU-ABN:90075448494' }, { supplier: 'ACME pty ltd', q: 'acme ro', supplierWords: true }, { q: 'clean', jurisdiction: 'AU' as const }];
    for (const query of queries) {
      for (const offset of [0, 20, 39]) assert.deepEqual(loaded.find(query, { ...page, offset }), built.find(query, { ...page, offset }), `${JSON.stringify(query)} from ${offset}`);
    }
    assert.equal(loaded.find({ q: 'road' }, page).total, 14);
    loaded.close();
    assert.throws(() => loaded.find({}, page), /closed/);
  });

  it('is built in a child process when a release has none, then served', async () => {
    // an index of an older layout counts as none
    await rm(join(releaseDir, 'index'), { recursive: true });
    await mkdir(join(releaseDir, 'index'));
    await writeFile(join(releaseDir, 'index', 'awards.idx'), 'an index of the first layout');
    const store = await ReleaseStore.open({ dataDir, now: () => NOW, log: () => {} });
    try {
      const state = store.state();
      assert.ok(state.ready);
      assert.equal(state.release.tenders.size, 3);
      assert.ok(existsSync(join(releaseDir, 'index', 'awards.v3.idx')));
      assert.ok(!existsSync(join(releaseDir, 'index', 'awards.idx')), 'the old layout is replaced whole');
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
    const { value: read, handle } = (await readIndexFile(path)) as { value: typeof value; handle: unknown };
    assert.equal(handle, null, 'a file read whole is closed at once');
    assert.deepEqual(read.words, value.words);
    assert.equal(read.n, 3);
    assert.ok(read.nested.ints instanceof Int32Array);
    assert.deepEqual([...read.nested.ints], [1, -2, 3]);
    assert.ok(Buffer.isBuffer(read.nested.bytes));
    assert.equal(read.nested.bytes.toString(), 'hi');
    assert.ok(Number.isNaN(read.nested.floats[1]));
  });

  it('leaves the byte parts named to stay on disk in the file, read by range', async () => {
    const path = join(dataDir, 'on-disk.idx');
    await writeIndexFile(path, { text: Buffer.from('hello, world'), ints: Int32Array.of(7, 8) });
    const { value, handle } = await readIndexFile(path, { leaveOnDisk: ['text'] });
    const read = value as { text: FileBytes; ints: Int32Array };
    assert.ok(read.text instanceof FileBytes);
    assert.equal(read.text.length, 12);
    assert.equal(read.text.subarray(7, 12).toString(), 'world');
    assert.equal(read.text.subarray(7, 99).toString(), 'world', 'a range past the end stops at the end');
    assert.deepEqual([...read.ints], [7, 8]);
    assert.throws(() => JSON.stringify(read), /cannot be written/);
    handle!.close();
    assert.throws(() => read.text.subarray(0, 5), /closed/);
    const ints = await readIndexFile(path, { leaveOnDisk: ['ints'] });
    const onDisk = (ints.value as { ints: FileInts }).ints;
    assert.ok(onDisk instanceof FileInts);
    assert.deepEqual([...onDisk.read(1, 2, new Int32Array(4))], [8]);
    assert.throws(() => onDisk.read(0, 3, new Int32Array(4)), RangeError);
    ints.handle!.close();
    await writeIndexFile(path, { floats: Float64Array.of(1) });
    await assert.rejects(readIndexFile(path, { leaveOnDisk: ['floats'] }), /only bytes and Int32 parts/);
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
