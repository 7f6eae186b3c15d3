import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCurrentRelease } from '../data/release.ts';
import { openStore } from '../data/store.ts';
import { describeChromium } from '../lib/chromium.ts';
import { runNightly } from '../pipeline/nightly.ts';
import type { ProgressReporter } from '../pipeline/progress.ts';
import { summaryTable } from '../pipeline/summary.ts';
import { tempDir } from './helpers/temp-dir.ts';

const quiet: ProgressReporter = { stage() {}, sourceStarted() {}, sourceProgress() {}, sourceFinished() {}, done() {} };
const CLI = fileURLToPath(new URL('../pipeline/cli.ts', import.meta.url));
// The kill test needs only a source that finishes and one that hangs.
const THREE = ['au_federal_austender_atm', 'au_federal_austender_ocds', 'nz_gets'];

async function query<T>(storePath: string, sql: string): Promise<T[]> {
  const store = await openStore(storePath, { readOnly: storePath !== ':memory:' });
  try {
    return await store.all<T>(sql);
  } finally {
    store.close();
  }
}

test('the nightly run on the bundled fixtures publishes every source, and keys hold from night to night', async (t) => {
  const dataDir = await tempDir('e2e-');
  const first = await runNightly({ dataDir, fixtures: true, progress: quiet });
  const notOk = first.manifest.sources.filter((s) => s.status !== 'ok').map((s) => [s.id, s.status]);
  assert.deepEqual(notOk, [['au_tenderlink', 'login_walled'], ['au_wa_tenders', 'robots_refused']], 'every other source answers on its fixtures');
  for (const s of first.manifest.sources) assert.equal(s.invalid, 0, `${s.id} has invalid records: ${s.why}`);
  assert.deepEqual(first.manifest.data_quality, [], 'no invented amount repeats across the fixture sources');
  assert.ok(first.manifest.sources.every((s) => s.status !== 'ok' || s.records > 0));
  assert.equal(first.manifest.sources.length, 24, 'the whole registry runs');
  const { browser } = first.manifest;
  assert.ok(browser, 'the manifest names the browser au_nsw_buy_nsw was crawled with');
  const browserLine = `browser: ${describeChromium({ which: browser.which, version: browser.version, executablePath: browser.executable_path })}`;
  assert.ok(summaryTable(first.manifest).split('\n').includes(browserLine), 'the run summary names it');
  t.diagnostic(browserLine);
  const registers = (manifest: typeof first.manifest) =>
    manifest.sources.filter((s) => s.id === 'au_asic_companies' || s.id === 'au_abn_bulk_extract').map((s) => [s.id, s.status, s.why, s.records, s.new]);
  assert.deepEqual(registers(first.manifest), [
    ['au_abn_bulk_extract', 'ok', null, 20, 20],
    ['au_asic_companies', 'ok', null, 12, 11],
  ], 'the registers read their files: twelve ASIC rows are eleven companies');
  assert.deepEqual([first.manifest.counts.companies, first.manifest.counts.abn_entities], [11, 20]);
  assert.equal(first.manifest.counts.sanctions_entries, 134, 'the three sanctions lists fold into their parties: DFAT 10, OFAC 117, UN 7');

  const storePath = join(first.releaseDir, 'store.duckdb');
  const jurisdictions = await query<{ jurisdiction: string }>(storePath, 'SELECT DISTINCT jurisdiction FROM tenders ORDER BY 1');
  assert.deepEqual(jurisdictions.map((r) => r.jurisdiction), ['AU', 'AU-ACT', 'AU-NSW', 'AU-NT', 'AU-QLD', 'AU-SA', 'AU-TAS', 'AU-VIC', 'AU-WA', 'NZ'], 'tenders from every state and New Zealand');
  const [kinds] = await query<{ grants: number; plans: number }>(storePath,
    `SELECT (SELECT count(*) FROM tenders WHERE kind = 'grant')::INTEGER AS grants, (SELECT count(*) FROM plans)::INTEGER AS plans`);
  assert.ok(kinds!.grants > 0 && kinds!.plans > 0, 'grant rounds and planned procurements arrive too');
  const [awards] = await query<{ chains: number; releases: number }>(storePath,
    `SELECT (SELECT count(*) FROM awards)::INTEGER AS chains, (SELECT count(*) FROM award_releases)::INTEGER AS releases`);
  assert.ok(awards!.chains > 0 && awards!.releases > awards!.chains, 'amendment chains collapse to one award each');

  const parquet = join(first.releaseDir, 'parquet');
  assert.equal((await readdir(join(parquet, 'tenders'))).length, 10, 'one tender partition per jurisdiction');
  const awardYears = await readdir(join(parquet, 'awards'));
  assert.ok(awardYears.includes('year=2020') && awardYears.includes('year=2025'), awardYears.join(', '));
  const [fromParquet] = await query<{ n: number }>(':memory:',
    `SELECT count(*)::INTEGER AS n FROM read_parquet('${parquet}/awards/*/*.parquet', hive_partitioning = true)`);
  assert.equal(fromParquet!.n, awards!.chains, 'analysts read the same awards from Parquet');
  assert.ok(!awardYears.includes('year=__HIVE_DEFAULT_PARTITION__'), `every award has a year: ${awardYears.join(', ')}`);
  const releaseYears = await readdir(join(parquet, 'award_releases'));
  assert.ok(!releaseYears.includes('year=__HIVE_DEFAULT_PARTITION__'), `every release has a year: ${releaseYears.join(', ')}`);
  // The buyers model's window and the Parquet year date an award by the same day: recounting each buyer's
  // window from the Parquet awards gives its award_count, and each award's partition is its award_day's year.
  const [dating] = await query<{ misfiled: number; buyers: number; disagreeing: string[] }>(':memory:',
    `WITH awards AS (SELECT * FROM read_parquet('${parquet}/awards/*/*.parquet', hive_partitioning = true)),
          buyers AS (SELECT * FROM read_parquet('${parquet}/buyers/*/*.parquet', hive_partitioning = true)),
          recount AS (SELECT b.buyer_key, b.award_count, count(a.buyer_key) AS from_parquet FROM buyers b
                      LEFT JOIN awards a ON a.buyer_key = b.buyer_key AND a.award_day BETWEEN b.window_from AND (b.window_from + INTERVAL 3 YEAR)::DATE
                      GROUP BY ALL)
     SELECT (SELECT count(*) FROM awards WHERE year IS DISTINCT FROM year(award_day))::INTEGER AS misfiled,
            (SELECT count(*) FROM recount WHERE award_count > 0)::INTEGER AS buyers,
            (SELECT list(buyer_key ORDER BY buyer_key) FILTER (WHERE award_count <> from_parquet) FROM recount) AS disagreeing`);
  assert.equal(dating!.misfiled, 0, 'each award sits in the partition of its award_day');
  assert.ok(dating!.buyers > 10, `the buyers model counts awards for ${dating!.buyers} buyers`);
  assert.deepEqual(dating!.disagreeing ?? [], [], 'the buyers model counts the awards the Parquet dates in its window');

  const keysBefore = await query<{ tender_key: string }>(storePath, 'SELECT tender_key FROM tenders ORDER BY tender_key');
  const second = await runNightly({ dataDir, fixtures: true, progress: quiet, now: new Date('2026-09-26T01:00:00Z') });
  const keysAfter = await query<{ tender_key: string; first_seen: string }>(join(second.releaseDir, 'store.duckdb'),
    `SELECT tender_key, strftime(first_seen, '%Y-%m-%d') AS first_seen FROM tenders ORDER BY tender_key`);
  assert.deepEqual(keysAfter.map((r) => r.tender_key), keysBefore.map((r) => r.tender_key), 'the same fixtures give the same keys');
  assert.ok(keysAfter.every((r) => r.first_seen === '2026-09-25'), 'first_seen survives the second night');
  for (const s of second.manifest.sources) assert.equal(s.new, 0, `${s.id}: nothing is new on an identical night`);
  assert.deepEqual(registers(second.manifest), [
    ['au_abn_bulk_extract', 'ok', 'not modified since 2026-09-23 06:30 UTC', 0, 0],
    ['au_asic_companies', 'ok', 'not modified since 2026-09-22 03:00 UTC', 0, 0],
  ], 'unchanged register files answer 304 and are not downloaded again');
  const [carried] = await query<{ companies: number; entities: number; stale: number }>(join(second.releaseDir, 'store.duckdb'),
    `SELECT (SELECT count(*) FROM companies)::INTEGER AS companies, (SELECT count(*) FROM abn_entities)::INTEGER AS entities,
      (SELECT count(*) FILTER (WHERE stale) FROM companies)::INTEGER + (SELECT count(*) FILTER (WHERE stale) FROM abn_entities)::INTEGER AS stale`);
  assert.deepEqual(carried, { companies: 11, entities: 20, stale: 0 }, 'the registers\' rows are carried forward, fresh');
});

test('a run killed mid-way leaves current.json on the previous complete release', async () => {
  const dataDir = await tempDir('killed-');
  await runNightly({ dataDir, fixtures: true, progress: quiet, sourceIds: THREE });
  const pointerBefore = await readFile(join(dataDir, 'current.json'), 'utf8');

  // GETS hangs, so the run is still crawling when it is killed.
  const child = spawn(process.execPath, [CLI, '--fixtures', '--data-dir', dataDir, '--now', '2026-09-26T01:00:00Z', '--sources', THREE.join(',')], {
    env: { ...process.env, SVC_FIXTURE_FAULTS: 'nz_gets:hang' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the run never reached the crawl: ${output}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/\[crawl\] au_federal_austender_ocds: \d+ records/.test(output) && output.includes('[crawl] nz_gets: started')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  assert.ok(existsSync(join(dataDir, 'releases')) && (await readdir(join(dataDir, 'releases'))).some((n) => n.startsWith('.work-')), 'the killed run had work in progress');
  child.kill('SIGKILL');
  await new Promise((resolve) => child.on('exit', resolve));

  assert.equal(await readFile(join(dataDir, 'current.json'), 'utf8'), pointerBefore);
  const current = await readCurrentRelease(dataDir);
  assert.ok(current && existsSync(current.storePath), 'the previous release still serves');

  // The next run clears the dead run's work folder and publishes normally.
  const next = await runNightly({ dataDir, fixtures: true, progress: quiet, now: new Date('2026-09-27T01:00:00Z'), sourceIds: THREE });
  const entries = await readdir(join(dataDir, 'releases'));
  assert.deepEqual(entries.filter((n) => n.startsWith('.work-')), []);
  assert.equal((await readCurrentRelease(dataDir))?.pointer.release_id, next.manifest.release_id);
});
