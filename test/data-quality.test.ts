import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dataQualityFindings } from '../data/quality.ts';
import { Manifest } from '../data/release.ts';
import { AWARD_COLUMNS, createTableSql } from '../data/schema.ts';
import { openStore } from '../data/store.ts';
import { summaryTable } from '../pipeline/summary.ts';
import { awardRow, insertRows } from './helpers/intel-seed.ts';

const award = (source: string, contractId: string, valueAmount: string, valueCurrency = 'AUD') =>
  awardRow({ source, contract_id: contractId, value_amount: valueAmount, value_currency: valueCurrency });

test('an exact amount published by three or more sources is flagged; round amounts, one source and two sources are not', async () => {
  const store = await openStore(':memory:');
  try {
    await store.exec(createTableSql('awards', AWARD_COLUMNS));
    await insertRows(store, 'awards', [
      // the fixtures' old test value, in three registers (twice in one)
      award('au_tas_tenders', '14021', '1234567.00'),
      award('au_nt_qtol', '26010', '1234567.00'),
      award('au_act_contracts_register', '2026.44871', '1234567.00'),
      award('au_act_contracts_register', '2026.44872', '1234567.00'),
      // a round ceiling repeats honestly across registers
      ...['au_tas_tenders', 'au_nt_qtol', 'au_act_contracts_register', 'au_nsw_contract_awards'].map((source) => award(source, `R-${source}`, '500000.00')),
      // two registers can share an amount by chance
      award('au_tas_tenders', 'T-2', '48213.55'),
      award('au_nt_qtol', 'N-2', '48213.55'),
      // one register repeating its own amount is a panel or a schedule, not a cross-source oddity
      ...['S-1', 'S-2', 'S-3'].map((id) => award('au_nsw_contract_awards', id, '7311.20')),
      // the same figure in three currencies is three different amounts
      award('au_tas_tenders', 'C-1', '98765.43'),
      award('au_nt_qtol', 'C-2', '98765.43', 'NZD'),
      award('nz_gets_awards', 'C-3', '98765.43', 'USD'),
    ]);
    const findings = await dataQualityFindings(store);
    assert.deepEqual(findings, [{
      check: 'repeated_amount',
      detail: '4 awards from 3 sources state the same amount, AUD 1234567.00: check those sources for a placeholder or test value.',
      value_amount: '1234567.00',
      value_currency: 'AUD',
      awards: 4,
      sources: ['au_act_contracts_register', 'au_nt_qtol', 'au_tas_tenders'],
      examples: ['au_act_contracts_register:2026.44871', 'au_act_contracts_register:2026.44872', 'au_nt_qtol:26010', 'au_tas_tenders:14021'],
    }]);

    const manifest = Manifest.parse({
      release_id: 'r', computed_at: '2026-09-25T01:00:00.000Z', clock: { now: '2026-09-25T01:00:00.000Z', pinned: true, basis: 'test' },
      started_at: '2026-09-25T01:00:00.000Z', finished_at: '2026-09-25T01:00:00.000Z', schema_version: 1, mode: 'fixtures', sources: [],
      counts: {}, stage_timings_ms: {}, data_quality: findings,
    });
    const lines = summaryTable(manifest).split('\n');
    assert.deepEqual(lines.slice(lines.indexOf('data quality:')), [
      'data quality:',
      '  repeated_amount: 4 awards from 3 sources state the same amount, AUD 1234567.00: check those sources for a placeholder or test value. (au_act_contracts_register, au_nt_qtol, au_tas_tenders)',
    ], 'the nightly summary prints the finding');
  } finally {
    store.close();
  }
});

test('a release whose awards repeat no exact amount across sources in one currency has no finding', async () => {
  const store = await openStore(':memory:');
  try {
    await store.exec(createTableSql('awards', AWARD_COLUMNS));
    await insertRows(store, 'awards', [award('au_tas_tenders', 'A', '1234567.00'), award('au_nt_qtol', 'B', '1283400.00'), award('nz_gets_awards', 'C', '1234567.00', 'NZD')]);
    assert.deepEqual(await dataQualityFindings(store), []);
  } finally {
    store.close();
  }
});
