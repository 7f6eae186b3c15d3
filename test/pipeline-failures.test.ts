import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pointCurrentAt, pruneReleases, readCurrentRelease, type Manifest } from '../data/release.ts';
import { openStore } from '../data/store.ts';
import { runNightly, type NightlyOptions } from '../pipeline/nightly.ts';
import { summaryTable } from '../pipeline/summary.ts';
import type { ProgressReporter } from '../pipeline/progress.ts';
import { crawlOnFixtures } from './helpers/crawl-fixtures.ts';
import { tableSource } from './helpers/table-source.ts';
import { tempDir } from './helpers/temp-dir.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/sources/', import.meta.url));
const quiet: ProgressReporter = { stage() {}, sourceStarted() {}, sourceProgress() {}, sourceFinished() {}, done() {} };
const htmlSource = tableSource('test_html_rows', 'html');

function run(dataDir: string, extra: Partial<NightlyOptions> = {}) {
  return runNightly({ dataDir, fixtures: true, registry: [htmlSource], fixturesRoot: FIXTURES, progress: quiet, politeness: { maxRetries: 0, timeoutSecs: 2 }, ...extra });
}

async function tenderRows(storePath: string) {
  const store = await openStore(storePath, { readOnly: true });
  try {
    return await store.all<{ reference: string; stale: boolean; last_seen: string; first_seen: string }>(
      `SELECT reference, stale, strftime(last_seen, '%Y-%m-%dT%H:%M:%SZ') AS last_seen, strftime(first_seen, '%Y-%m-%dT%H:%M:%SZ') AS first_seen FROM tenders ORDER BY reference`,
    );
  } finally {
    store.close();
  }
}

test('a run publishes a complete release and moves the pointer to it', async () => {
  const dataDir = await tempDir('nightly-');
  const { manifest, releaseDir } = await run(dataDir);
  const current = await readCurrentRelease(dataDir);
  assert.equal(current?.pointer.release_id, manifest.release_id);
  assert.equal(manifest.computed_at, '2026-09-25T01:00:00.000Z', 'the clock is pinned to the fixtures capture date');
  assert.deepEqual(manifest.clock, { now: '2026-09-25T01:00:00.000Z', pinned: true, basis: 'fixtures capture date' });
  assert.equal(manifest.mode, 'fixtures');
  assert.deepEqual(Object.keys(manifest.stage_timings_ms).sort(), ['crawl', 'export', 'index', 'load', 'model', 'publish', 'site']);
  const [summary] = manifest.sources;
  assert.equal(summary?.status, 'ok');
  assert.equal(summary?.records, 3, 'two list pages were followed');
  assert.equal(summary?.invalid, 1, 'the row without a title is counted, not dropped silently');
  assert.equal(summary?.new, 3);
  assert.deepEqual((await readdir(join(releaseDir, 'parquet', 'tenders'))).sort(), ['jurisdiction=AU-NSW', 'jurisdiction=AU-WA']);
  assert.ok(existsSync(join(releaseDir, 'site-json', 'sources.json')));
  assert.deepEqual((await readdir(join(dataDir, 'releases'))).filter((n) => !n.startsWith('.nightly')), [manifest.release_id], 'no work folder is left behind');
});

test('a source answering 500 on the second run: the run completes and its rows are carried forward as stale', async () => {
  const dataDir = await tempDir('nightly-');
  await run(dataDir);
  const second = await run(dataDir, { now: new Date('2026-09-26T01:00:00Z'), faults: { test_html_rows: 'http500' } });
  const [summary] = second.manifest.sources;
  assert.equal(summary?.status, 'stale');
  assert.equal(summary?.why, 'HTTP 500 from GET https://example.gov.au/list after 1 attempt; serving rows from the run of 2026-09-25 01:00 UTC');
  assert.equal(summary?.new, 0);
  const current = await readCurrentRelease(dataDir);
  assert.equal(current?.pointer.release_id, second.manifest.release_id);
  const rows = await tenderRows(current!.storePath);
  assert.deepEqual(rows.map((r) => r.reference), ['RFT-001', 'RFT-002', 'RFT-003']);
  for (const row of rows) {
    assert.equal(row.stale, true);
    assert.equal(row.last_seen, '2026-09-25T01:00:00Z', 'last_seen keeps the last good run');
  }
  // The source recovers on the third night: its rows are fresh again and first_seen is kept.
  const third = await run(dataDir, { now: new Date('2026-09-27T01:00:00Z') });
  assert.equal(third.manifest.sources[0]?.status, 'ok');
  const recovered = await tenderRows(third.releaseDir + '/store.duckdb');
  assert.ok(recovered.every((r) => !r.stale && r.first_seen === '2026-09-25T01:00:00Z' && r.last_seen === '2026-09-27T01:00:00Z'));
});

test('a source that hangs past the timeout with nothing to carry forward is an error, and the run still publishes', async () => {
  const dataDir = await tempDir('nightly-');
  const { manifest } = await run(dataDir, { faults: { test_html_rows: 'hang' }, politeness: { maxRetries: 0, timeoutSecs: 1 } });
  const [summary] = manifest.sources;
  assert.equal(summary?.status, 'error');
  assert.equal(summary?.why, 'no answer within 1 s from GET https://example.gov.au/list after 1 attempt');
  assert.equal(manifest.counts.tenders, 0);
  assert.equal((await readCurrentRelease(dataDir))?.pointer.release_id, manifest.release_id);
});

test('pruning keeps the newest seven releases and never the one in use', async () => {
  const dataDir = await tempDir('prune-');
  const ids = Array.from({ length: 9 }, (_, i) => `20260901T00000${i}000Z`);
  for (const id of ids) await mkdir(join(dataDir, 'releases', id), { recursive: true });
  const removed = await pruneReleases(dataDir, ids[0]!);
  assert.deepEqual(removed, [ids[1]]);
  const left = await readdir(join(dataDir, 'releases'));
  assert.equal(left.length, 8);
  assert.ok(left.includes(ids[0]!) && left.includes(ids[8]!));
});

test('the pointer is replaced by rename and always parses', async () => {
  const dataDir = await tempDir('pointer-');
  await mkdir(join(dataDir, 'releases', 'r1'), { recursive: true });
  const manifest = { release_id: 'r1', computed_at: '2026-09-25T01:00:00.000Z' } as Manifest;
  await writeFile(join(dataDir, 'releases', 'r1', 'manifest.json'), '{}');
  await pointCurrentAt(dataDir, manifest, new Date('2026-09-25T02:00:00Z'));
  const pointer = JSON.parse(await readFile(join(dataDir, 'current.json'), 'utf8'));
  assert.deepEqual(pointer, { release_id: 'r1', path: 'releases/r1', computed_at: '2026-09-25T01:00:00.000Z', switched_at: '2026-09-25T02:00:00.000Z' });
  assert.deepEqual((await readdir(dataDir)).filter((n) => n.includes('tmp')), []);
});

test('the browser crawler collects rows that only exist after the page runs its JavaScript', async () => {
  const result = await crawlOnFixtures(tableSource('test_browser_rows', 'browser'), { root: FIXTURES });
  assert.equal(result.failed, false, result.diagnosis ?? '');
  assert.deepEqual(
    result.records.map((r) => (r.record_type === 'tender' ? [r.reference, r.title, r.buyer, r.closing_date] : null)),
    [
      ['RFQ-9001', 'Hospital linen services', 'Health Share NSW', '2026-10-15'],
      ['RFQ-9002', 'School cleaning panel', 'Department of Education', '2026-10-20'],
    ],
  );
  assert.ok(result.requests.some((r) => r.path === '/api/rows'), 'the rows came from the page script, not the HTML');
});

test('robots.txt that disallows the listings makes the source robots_refused, and nothing is fetched', async () => {
  const result = await crawlOnFixtures(tableSource('test_robots_all', 'html'), { root: FIXTURES });
  assert.equal(result.refused, 'robots_refused');
  assert.equal(result.diagnosis, 'robots.txt disallows /list for crawlers; not fetched');
  assert.deepEqual(result.requests.map((r) => r.path), ['/robots.txt']);
  const dataDir = await tempDir('robots-');
  const { manifest } = await runNightly({ dataDir, fixtures: true, registry: [tableSource('test_robots_all', 'html')], fixturesRoot: FIXTURES, progress: quiet });
  assert.deepEqual([manifest.sources[0]?.status, manifest.sources[0]?.why], ['robots_refused', 'robots.txt disallows /list for crawlers; not fetched']);
});

test('a page robots.txt disallows is skipped and reported; the rest of the source is crawled', async () => {
  const result = await crawlOnFixtures(tableSource('test_robots_partial', 'html'), { root: FIXTURES });
  assert.equal(result.refused, null);
  assert.equal(result.records.length, 2, 'only the first list page');
  assert.ok(!result.requests.some((r) => r.path.includes('page=2')));
  assert.deepEqual(result.warnings, ['robots.txt disallows 1 linked page(s), not fetched, e.g. /list']);
});

test('a source\'s warnings reach the manifest and the end-of-run summary, though the source is ok', async () => {
  const dataDir = await tempDir('warned-');
  const { manifest } = await runNightly({ dataDir, fixtures: true, registry: [tableSource('test_robots_partial', 'html')], fixturesRoot: FIXTURES, progress: quiet });
  const warning = 'robots.txt disallows 1 linked page(s), not fetched, e.g. /list';
  assert.deepEqual([manifest.sources[0]?.status, manifest.sources[0]?.warnings], ['ok', [warning]]);
  assert.ok(summaryTable(manifest).endsWith(`\nwarnings:\n  test_robots_partial: ${warning}`), summaryTable(manifest));
});

test('the summary shows three warnings a source and counts the rest', () => {
  const manifest = {
    sources: [{ id: 'au_x', status: 'ok', why: null, records: 1, invalid: 0, new: 1, updated: 0, closed: 0, pages: 1, errors: 0, duration_ms: 1, warnings: ['a', 'b', 'c', 'd', 'e'] }],
    data_quality: [],
  } as unknown as Manifest;
  assert.ok(summaryTable(manifest).endsWith('\nwarnings:\n  au_x: a\n  au_x: b\n  au_x: c\n  au_x: … and 2 more (manifest.json)'), summaryTable(manifest));
});

test('a login-walled source is registered with its reason and never requested', async () => {
  const walled = { ...tableSource('test_html_rows', 'html'), access: { kind: 'login_walled' as const, why: 'tender lists need a supplier login' } };
  const dataDir = await tempDir('walled-');
  const { manifest } = await runNightly({ dataDir, fixtures: true, registry: [walled], fixturesRoot: FIXTURES, progress: quiet });
  assert.deepEqual([manifest.sources[0]?.status, manifest.sources[0]?.why, manifest.sources[0]?.records], ['login_walled', 'tender lists need a supplier login', 0]);
});
