import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openStore } from '../data/store.ts';
import { runNightly } from '../pipeline/nightly.ts';
import type { ProgressReporter } from '../pipeline/progress.ts';
import { tempDir } from './helpers/temp-dir.ts';

const quiet: ProgressReporter = { stage() {}, sourceStarted() {}, sourceProgress() {}, sourceFinished() {}, done() {} };
const SOURCES = ['au_federal_austender_atm', 'au_federal_austender_ocds', 'nz_gets'];

test('two fixture nights: night 2 adds, moves a closing date, closes, amends, and carries a failed source forward', async () => {
  const dataDir = await tempDir('nights-');
  await runNightly({ dataDir, fixtures: true, sourceIds: SOURCES, progress: quiet });
  const night2 = await runNightly({ dataDir, fixtures: true, night: 'night-2', sourceIds: SOURCES, progress: quiet });
  assert.equal(night2.manifest.computed_at, '2026-09-26T01:00:00.000Z', 'the clock follows the night-2 recording');

  const summary = Object.fromEntries(night2.manifest.sources.map((s) => [s.id, s]));
  assert.deepEqual(
    { status: summary.au_federal_austender_atm?.status, new: summary.au_federal_austender_atm?.new, updated: summary.au_federal_austender_atm?.updated, closed: summary.au_federal_austender_atm?.closed },
    { status: 'ok', new: 1, updated: 1, closed: 1 },
  );
  assert.deepEqual({ new: summary.au_federal_austender_ocds?.new, updated: summary.au_federal_austender_ocds?.updated }, { new: 1, updated: 1 });
  assert.equal(summary.nz_gets?.status, 'stale');
  assert.match(summary.nz_gets?.why ?? '', /^HTTP 500 from GET https:\/\/www\.gets\.govt\.nz\/ExternalRSSFeed\.htm\?rss=1 .*; serving rows from the run of 2026-09-25 01:00 UTC$/);

  const store = await openStore(join(night2.releaseDir, 'store.duckdb'), { readOnly: true });
  try {
    const casa = await store.all<{ closing_date: string; dates_changed_at: string; first_seen: string }>(
      `SELECT closing_date::VARCHAR AS closing_date, strftime(dates_changed_at, '%Y-%m-%d') AS dates_changed_at, strftime(first_seen, '%Y-%m-%d') AS first_seen
       FROM tenders WHERE reference = 'CASA 03/26-27'`);
    assert.deepEqual(casa, [{ closing_date: '2026-10-06', dates_changed_at: '2026-09-26', first_seen: '2026-09-25' }]);
    const changes = await store.all<{ reference: string; field: string; old_value: string | null; new_value: string | null }>(
      `SELECT t.reference, c.field, c.old_value, c.new_value FROM tender_changes c JOIN tenders t USING (tender_key)
       WHERE c.changed_at = TIMESTAMPTZ '2026-09-26 01:00:00+00' ORDER BY t.reference, c.field`);
    assert.deepEqual(changes, [
      { reference: 'CASA 03/26-27', field: 'closing_at', old_value: '2026-09-26T02:00:00Z', new_value: '2026-10-06T01:00:00Z' },
      { reference: 'CASA 03/26-27', field: 'closing_date', old_value: '2026-09-26', new_value: '2026-10-06' },
      { reference: 'FIN-2026-0412', field: 'listed', old_value: null, new_value: '2026-10-19' },
      { reference: 'HA-26-0219', field: 'delisted', old_value: '2026-09-25', new_value: null },
    ]);
    const closed = await store.all<{ reference: string; last_seen: string }>(
      `SELECT reference, strftime(last_seen, '%Y-%m-%d') AS last_seen FROM tenders WHERE reference = 'HA-26-0219'`);
    assert.deepEqual(closed, [{ reference: 'HA-26-0219', last_seen: '2026-09-25' }], 'a closed tender stays readable by key');
    const [gets] = await store.all<{ rows: number; stale: number }>(
      `SELECT count(*)::INTEGER AS rows, count(*) FILTER (WHERE stale)::INTEGER AS stale FROM tenders WHERE source = 'nz_gets'`);
    assert.ok(gets!.rows > 0 && gets!.stale === gets!.rows, 'every GETS row is served stale');
    const chains = await store.all<{ contract_id: string; title: string; value_amount: string; original_value_amount: string; amendment_count: number }>(
      `SELECT contract_id, title, value_amount::VARCHAR AS value_amount, original_value_amount::VARCHAR AS original_value_amount, amendment_count
       FROM awards WHERE contract_id IN ('CN3693922', 'CN3707521') ORDER BY contract_id`);
    assert.deepEqual(chains, [
      // night 2 re-delivered the chain with its sixth amendment, all six sharing one release date
      { contract_id: 'CN3693922', title: 'RStudio Enterprise', value_amount: '606678.72', original_value_amount: '92241.92', amendment_count: 6 },
      { contract_id: 'CN3707521', title: 'ICT Hardware Maintenance', value_amount: '23605015.37', original_value_amount: '4518226.69', amendment_count: 6 },
    ]);
  } finally {
    store.close();
  }
});
