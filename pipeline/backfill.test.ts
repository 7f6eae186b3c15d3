import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore } from '../data/store.ts';
import { tempDir } from '../test/helpers/temp-dir.ts';
import { backfillDir } from './backfill-staging.ts';
import { backfillWindows, runBackfill, type WindowReport } from './backfill.ts';
import { FIXTURES_ROOT, FixtureMeta } from './fixture-meta.ts';
import { runNightly } from './nightly.ts';
import type { ProgressReporter } from './progress.ts';

const SOURCE = 'au_federal_austender_ocds';
const quiet: ProgressReporter = { stage() {}, sourceStarted() {}, sourceProgress() {}, sourceFinished() {}, done() {} };
// One try per request: a window the fixtures fail must fail at once, not after backoff.
const noRetries = { maxRetries: 0 };
const windowUrl = (from: string, to: string) => `https://api.tenders.gov.au/ocds/findByDates/contractLastModified/${from}T00:00:00Z/${to}T23:59:59Z`;

/**
 * The source's recorded fixtures copied to a folder of their own, with some windows answering 500 and extra
 * files: page 1 answers any window, so each window reads the same 45 releases over 3 pages unless failed here.
 */
async function fixturesWith(root: string, failing: string[][], extra: FixtureMeta['files'] = []): Promise<string> {
  await mkdir(root, { recursive: true });
  await cp(join(FIXTURES_ROOT, SOURCE), join(root, SOURCE), { recursive: true, force: true });
  const meta = FixtureMeta.parse(JSON.parse(await readFile(join(FIXTURES_ROOT, SOURCE, '_meta.json'), 'utf8')));
  const failed = failing.map(([from, to]) => ({ file: null, url: windowUrl(from!, to!), method: 'GET' as const, status: 500, content_type: 'text/plain' }));
  await writeFile(join(root, SOURCE, '_meta.json'), JSON.stringify({ ...meta, files: [...extra, ...failed, ...meta.files] }));
  return root;
}

async function awardReleaseCounts(releaseDir: string): Promise<{ rows: number; distinct: number }> {
  const store = await openStore(join(releaseDir, 'store.duckdb'), { readOnly: true });
  try {
    const [counts] = await store.all<{ rows: number; distinct: number }>(
      `SELECT count(*)::INTEGER AS rows, count(DISTINCT release_id)::INTEGER AS distinct FROM award_releases WHERE source = '${SOURCE}'`);
    return counts!;
  } finally {
    store.close();
  }
}

test('windows run from the first day to just before the end, the last one cut short', () => {
  const windows = backfillWindows(new Date('2026-08-01T00:00:00Z'), new Date('2026-08-20T00:00:00Z'), 7);
  assert.deepEqual(windows.map((w) => [w.from.toISOString(), w.to.toISOString()]), [
    ['2026-08-01T00:00:00.000Z', '2026-08-07T23:59:59.000Z'],
    ['2026-08-08T00:00:00.000Z', '2026-08-14T23:59:59.000Z'],
    ['2026-08-15T00:00:00.000Z', '2026-08-19T23:59:59.000Z'],
  ]);
  assert.throws(() => backfillWindows(new Date(0), new Date(1), 0), /whole number of days/);
});

test('a backfill interrupted mid-range resumes after its last complete window, never reads a window twice, and never duplicates a row', async () => {
  const dataDir = await tempDir('backfill-');
  const work = await tempDir('backfill-fixtures-');
  const range = { dataDir, sourceId: SOURCE, from: new Date('2026-08-01T00:00:00Z'), to: new Date('2026-08-29T00:00:00Z'), fixtures: true, politeness: noRetries };
  const dir = backfillDir(dataDir, SOURCE);

  // The third of four windows fails: the walk stops there and keeps the two before it.
  const interrupted = await runBackfill({ ...range, fixturesRoot: await fixturesWith(join(work, 'first'), [['2026-08-15', '2026-08-21']]), publish: false });
  assert.equal(interrupted.stopped?.window.from.toISOString(), '2026-08-15T00:00:00.000Z');
  assert.match(interrupted.stopped!.diagnosis, /500|failed/);
  assert.deepEqual([interrupted.crawled, interrupted.records], [2, 90]);
  const checkpoint = JSON.parse(await readFile(join(dir, 'checkpoint.json'), 'utf8')) as { completed: { from: string }[] };
  assert.deepEqual(checkpoint.completed.map((c) => c.from.slice(0, 10)), ['2026-08-01', '2026-08-08']);
  assert.equal((await readdir(dir)).some((name) => name.startsWith('.window-')), false, 'the failed window leaves no work folder');

  // As if killed after staging the third window but before the checkpoint: its file is staged again, not added to.
  const half = join(dir, 'pending', `${SOURCE}.backfill-2026-08-15T000000Z.awards.ndjson`);
  await writeFile(half, '{"partial": true}\n');

  // The resumed walk may not touch the complete windows: the fixtures now fail them, so reading one would stop it.
  const reports: WindowReport[] = [];
  const resumed = await runBackfill({
    ...range, publish: false, onWindow: (report) => reports.push(report),
    fixturesRoot: await fixturesWith(join(work, 'resume'), [['2026-08-01', '2026-08-07'], ['2026-08-08', '2026-08-14']]),
  });
  assert.equal(resumed.stopped, null);
  assert.deepEqual(reports.map((r) => `${r.window.from.toISOString().slice(0, 10)} ${r.outcome}`), ['2026-08-01 skipped', '2026-08-08 skipped', '2026-08-15 complete', '2026-08-22 complete']);
  const pending = (await readdir(join(dir, 'pending'))).sort();
  assert.equal(pending.length, 4, 'one staging file a window');
  assert.equal((await readFile(half, 'utf8')).split('\n').filter(Boolean).length, 45, 'the half-staged window was replaced whole');

  // The nightly loads the pending windows into the release's store, with one row per release however many windows held it.
  const night = await runNightly({ dataDir, fixtures: true, fixturesRoot: join(work, 'resume'), sourceIds: [SOURCE], progress: quiet, digests: false, politeness: noRetries });
  assert.deepEqual(await awardReleaseCounts(night.releaseDir), { rows: 45, distinct: 45 });
  assert.deepEqual(await readdir(join(dir, 'pending')), [], 'loaded windows leave the pending folder');
  assert.ok(existsSync(join(night.releaseDir, 'parquet', 'award_releases')), 'into the same Parquet partitions as the nightly');

  // A later range reads only its new windows and publishes; the releases already held are not added again.
  const later = await runBackfill({ ...range, to: new Date('2026-09-12T00:00:00Z'), fixturesRoot: join(work, 'resume'), publish: true });
  assert.deepEqual([later.skipped, later.crawled], [4, 2]);
  assert.ok(later.published, 'a release was published');
  assert.deepEqual(await awardReleaseCounts(later.published.releaseDir), { rows: 45, distinct: 45 });
});

test('a backfill reads robots.txt as the nightly does: a disallowed API is not fetched and nothing is staged', async () => {
  const dataDir = await tempDir('backfill-robots-');
  const root = await fixturesWith(join(await tempDir('backfill-robots-fixtures-'), 'f'), [], [
    { file: 'robots.txt', url: 'https://api.tenders.gov.au/robots.txt', method: 'GET', status: 200, content_type: 'text/plain' },
  ]);
  await writeFile(join(root, SOURCE, 'robots.txt'), 'User-agent: *\nDisallow: /ocds/\n');
  const result = await runBackfill({ dataDir, sourceId: SOURCE, from: new Date('2026-08-01T00:00:00Z'), to: new Date('2026-08-15T00:00:00Z'), fixtures: true, fixturesRoot: root, publish: true, politeness: noRetries });
  assert.match(result.stopped?.diagnosis ?? '', /robots_refused/);
  assert.equal(result.published, null);
  assert.deepEqual(await readdir(join(backfillDir(dataDir, SOURCE), 'pending')), []);
  assert.equal(existsSync(join(backfillDir(dataDir, SOURCE), 'checkpoint.json')), false);
});

test('a source without a historic walk is refused by name', async () => {
  await assert.rejects(runBackfill({ dataDir: await tempDir('backfill-none-'), sourceId: 'nz_gets', from: new Date(0), to: new Date(), fixtures: true, publish: false }), /no historic walk/);
});
