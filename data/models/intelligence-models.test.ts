import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import type { Store } from '../store.ts';
import { awardRow, planRow, seedIntelStore, type SeedRow } from '../../test/helpers/intel-seed.ts';
import { tenderRow } from '../../test/helpers/seed-release.ts';

/**
 * Golden tests of the intelligence models (signals, trade_pairs, trade_buyers, trade_suppliers): each model runs
 * over one small seeded store and its whole output is compared with data/models/golden/<table>.json, so any
 * change of a model's meaning fails here. After a deliberate change, regenerate with UPDATE_GOLDEN=1 and
 * review the diff. The named cases below are asserted on their own too.
 */

const RUN_AT = '2026-09-25T01:00:00.000Z'; // Sydney day 2026-09-25

/** A contract of a recurring series: one buyer, one trade, yearly starts. */
function seriesAward(id: string, start: string, overrides: SeedRow = {}): SeedRow {
  const end = `${Number(start.slice(0, 4)) + 1}${start.slice(4)}`;
  return awardRow({
    source: 'au_tas_tenders', contract_id: id, jurisdiction: 'AU-TAS', buyer: 'City of Hobart', title: `Public toilet cleaning ${start.slice(0, 4)}`,
    trade: 'cleaning', categories: ['76111500'], awarded_date: start, start_date: start, end_date: end, supplier: 'Sparkle Cleaning Pty Ltd',
    supplier_abn: '11111111111', supplier_key: 'AU-ABN:11111111111', value_amount: '50000.00', url: `https://tenders.tas.gov.au/${id}`,
    first_seen: `${start}T00:00:00Z`, ...overrides,
  });
}

const awards: SeedRow[] = [
  awardRow({ source: 'au_nsw_contract_awards', contract_id: 'NSW-1', jurisdiction: 'AU-NSW', buyer: 'Transport for NSW', title: 'Pavement rehabilitation', end_date: '2026-11-15', awarded_date: '2025-11-15', start_date: '2025-11-16' }),
  awardRow({ source: 'au_nsw_contract_awards', contract_id: 'NSW-2', jurisdiction: 'AU-NSW', buyer: 'Transport for NSW', title: 'Bridge repainting', end_date: '2026-09-24', supplier: 'Bridgeworks Pty Ltd', supplier_abn: '22222222222', supplier_key: 'AU-ABN:22222222222' }),
  awardRow({ source: 'au_nsw_contract_awards', contract_id: 'NSW-3', jurisdiction: 'AU-NSW', buyer: 'Transport for NSW', title: 'Culvert renewal', end_date: null, supplier: 'Bridgeworks Pty Ltd', supplier_abn: '22222222222', supplier_key: 'AU-ABN:22222222222', value_amount: '250000.00' }),
  awardRow({ contract_id: 'CN-TODAY', title: 'Fleet leasing', trade: 'fleet-vehicles', end_date: '2026-09-25', awarded_date: '2024-09-25', value_amount: null, supplier: null, supplier_abn: null, supplier_key: null }),
  // Regular yearly cleaning rounds, with a sibling lot 19 days after the last round's first contract: recurring.
  seriesAward('TAS-2023', '2023-10-01'),
  seriesAward('TAS-2024', '2024-10-01'),
  seriesAward('TAS-2025', '2025-10-01'),
  seriesAward('TAS-2025-LOT2', '2025-10-20', { supplier: 'Bright Facilities Pty Ltd', supplier_abn: '33333333333', supplier_key: 'AU-ABN:33333333333' }),
  // Irregular intervals (212 and 670 days): not recurring.
  awardRow({ contract_id: 'VIC-1', jurisdiction: 'AU-VIC', buyer: 'City of Ballarat', trade: 'consulting', title: 'Strategy review', awarded_date: '2022-01-01', start_date: '2022-01-01', end_date: '2022-12-31' }),
  awardRow({ contract_id: 'VIC-2', jurisdiction: 'AU-VIC', buyer: 'City of Ballarat', trade: 'consulting', title: 'Strategy review', awarded_date: '2022-08-01', start_date: '2022-08-01', end_date: '2023-07-31' }),
  awardRow({ contract_id: 'VIC-3', jurisdiction: 'AU-VIC', buyer: 'City of Ballarat', trade: 'consulting', title: 'Strategy review', awarded_date: '2024-06-01', start_date: '2024-06-01', end_date: '2025-05-31' }),
  // Rounds about 50 days apart: continuous supply, not re-tendering.
  ...['2026-01-10', '2026-03-01', '2026-04-20', '2026-06-10'].map((start, i) => awardRow({
    contract_id: `QLD-${i}`, jurisdiction: 'AU-QLD', buyer: 'Queensland Health', trade: 'it-services', title: 'Laptops', awarded_date: start, start_date: start, end_date: '2026-08-31',
  })),
  // Regular but long over: the predicted round (January 2022) has passed.
  ...['2019-01-01', '2020-01-01', '2021-01-01'].map((start, i) => awardRow({
    contract_id: `SA-${i}`, jurisdiction: 'AU-SA', buyer: 'City of Adelaide', trade: 'waste', title: 'Kerbside collection', awarded_date: start, start_date: start, end_date: '2021-12-31',
  })),
];

const plans: SeedRow[] = [
  planRow({ plan_id: 'APP-RELEASED', title: 'Travel management services', window_start: '2026-10-01', window_end: '2026-12-31', expected_period_text: 'Q2 2026-27', status: 'Released', released: true }),
  planRow({ plan_id: 'APP-WITHDRAWN', title: 'Garrison catering', status: 'Withdrawn', withdrawn: true }),
  planRow({ plan_id: 'APP-UNDATED', title: 'Biometric devices', trade: 'it-services', expected_period_text: 'Mid 2027', window_start: null, window_end: null, status: null, value_text: null }),
  planRow({ source: 'au_qld_qtenders', plan_id: 'VP1', jurisdiction: 'AU-QLD', tier: 'state', buyer: 'Department of Transport and Main Roads', title: 'Bridge inspections', trade: 'engineering',
    window_start: '2026-11-01', window_end: '2026-11-30', status: 'Forward Procurement Notice', url: 'https://qtenders.epw.qld.gov.au/VP1' }),
];

const tenders: SeedRow[] = [
  // Already a plan (same buyer, same title once the label is cut): not counted twice.
  tenderRow({ source: 'au_qld_qtenders', jurisdiction: 'AU-QLD', buyer: 'Department of Transport and Main Roads', title: 'Forward Procurement Notice - Bridge inspections', notice_type: 'Forward Procurement Notice', reference: 'FPN-1', trade: 'engineering', url: 'https://qtenders.epw.qld.gov.au/FPN-1' }),
  // Listed only as a tender: a planned procurement without a window.
  tenderRow({ source: 'au_vendorpanel', jurisdiction: 'AU-QLD', buyer: 'Sunshine Coast Council', title: 'Forward Procurement Notice – Waste collection contract', notice_type: 'Forward Procurement Notice', reference: 'SCC-FPN-7', trade: 'waste', url: 'https://www.vendorpanel.com.au/SCC-FPN-7' }),
  tenderRow({ title: 'Ordinary road works tender', notice_type: 'Request for Tender' }),
];

const GOLDEN = {
  signals: 'SELECT * EXCLUDE (first_seen), strftime(first_seen, \'%Y-%m-%dT%H:%M:%SZ\') AS first_seen FROM signals ORDER BY signal_id',
  trade_pairs: 'SELECT * FROM trade_pairs ORDER BY trade, jurisdiction',
  trade_buyers: 'SELECT * FROM trade_buyers ORDER BY trade, jurisdiction, buyer_key, value_currency',
  trade_suppliers: 'SELECT * FROM trade_suppliers ORDER BY trade, jurisdiction, rank',
} as const;

let seeded: Promise<Store> | null = null;
const store = () => (seeded ??= seedIntelStore({ awards, plans, tenders }, RUN_AT));

for (const [table, sql] of Object.entries(GOLDEN)) {
  test(`model ${table} matches its golden output`, async () => {
    const rows = await (await store()).all(sql);
    const file = new URL(`./golden/${table}.json`, import.meta.url);
    const text = `${JSON.stringify(rows, null, 2)}\n`;
    if (process.env.UPDATE_GOLDEN === '1') await writeFile(file, text);
    assert.deepEqual(rows, JSON.parse(await readFile(file, 'utf8')), `data/models/${table}.sql changed its output; if on purpose, run with UPDATE_GOLDEN=1 and review the diff`);
  });
}

test('signals: expiries from today on, never a withdrawn plan, forward notices once, recurring by the written rule', async () => {
  const rows = await (await store()).all<Record<string, string | number | boolean | null>>('SELECT * FROM signals');
  const refs = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => r.evidence_ref).sort();
  assert.deepEqual(refs('contract_expiry'), ['CN-TODAY', 'NSW-1', 'TAS-2025', 'TAS-2025-LOT2'], 'ended and undated contracts are no signal; ending today is');
  assert.deepEqual(refs('planned_procurement'), ['APP-RELEASED', 'APP-UNDATED', 'SCC-FPN-7', 'VP1']);
  const undated = rows.find((r) => r.evidence_ref === 'APP-UNDATED')!;
  assert.equal(undated.window_start, null);
  assert.equal(undated.quarter, null);
  assert.equal(undated.status, '', 'a plan without a status word has an empty status');
  const released = rows.find((r) => r.evidence_ref === 'APP-RELEASED')!;
  assert.equal(released.quarter, '2026Q4');
  assert.equal(released.released, true);
  assert.equal(released.status, 'Released');

  const recurring = rows.filter((r) => r.kind === 'recurring_tender');
  assert.equal(recurring.length, 1, 'only the regular yearly Hobart series qualifies');
  const [hobart] = recurring;
  assert.equal(hobart!.buyer, 'City of Hobart');
  assert.equal(hobart!.confidence, 'derived');
  assert.equal(hobart!.occurrences, 3, 'the sibling lot 19 days later is the same round');
  assert.equal(hobart!.interval_days, 366, 'median of 366 and 365 days, rounded');
  assert.equal(hobart!.window_start, '2026-09-02', '2025-10-01 + 366 days − 30');
  assert.equal(hobart!.window_end, '2026-11-01');
  assert.equal(hobart!.evidence_ref, 'TAS-2025-LOT2', 'the latest contract of the series');
  assert.equal(hobart!.incumbent, 'Bright Facilities Pty Ltd');

  const expiry = rows.find((r) => r.evidence_ref === 'NSW-1')!;
  assert.equal(expiry.window_start, '2026-11-15');
  assert.equal(expiry.window_end, '2026-11-15');
  assert.equal(expiry.confidence, 'published');
  assert.equal(expiry.value_text, 'AUD 100000.00');
});

test('trade rollups count the year to the run and share holders by contracts', async () => {
  const db = await store();
  const pairs = await db.all<Record<string, string | number | null>>("SELECT * FROM trade_pairs WHERE trade = 'cleaning'");
  assert.deepEqual(pairs, [{ trade: 'cleaning', jurisdiction: 'AU-TAS', year_from: '2025-09-26', year_to: '2026-09-25', year_awards: 2, suppliers: 2, top_supplier_share: 0.5, top_five_share: 1 }]);
  const holders = await db.all<Record<string, string | number | null>>("SELECT supplier, rank, share FROM trade_suppliers WHERE trade = 'civil-works' AND jurisdiction = 'AU-NSW' ORDER BY rank");
  assert.deepEqual(holders, [{ supplier: 'Bridgeworks Pty Ltd', rank: 1, share: 2 / 3 }, { supplier: 'Acme Pty Ltd', rank: 2, share: 1 / 3 }]);
});

test('trade rollups date a contract by its award_day: one with no awarded date counts by its start date', async () => {
  const db = await seedIntelStore({
    awards: [
      // NSW, VIC and ACT registers publish no awarded date: the start date places this contract in the year
      awardRow({ source: 'au_nsw_contract_awards', contract_id: 'NSW-UNSIGNED', jurisdiction: 'AU-NSW', buyer: 'Transport for NSW', awarded_date: null, start_date: '2026-04-01' }),
      // started long ago, but awarded in the year: the awarded date wins
      awardRow({ source: 'au_nsw_contract_awards', contract_id: 'NSW-SIGNED', jurisdiction: 'AU-NSW', buyer: 'Transport for NSW', awarded_date: '2026-05-01', start_date: '2020-01-01' }),
      awardRow({ source: 'au_nsw_contract_awards', contract_id: 'NSW-OLD', jurisdiction: 'AU-NSW', buyer: 'Transport for NSW', awarded_date: null, start_date: '2020-01-01' }),
    ],
  }, RUN_AT);
  try {
    const [pair] = await db.all<{ year_awards: number }>("SELECT year_awards FROM trade_pairs WHERE trade = 'civil-works' AND jurisdiction = 'AU-NSW'");
    assert.equal(pair?.year_awards, 2);
    const [buyer] = await db.all<{ awards: number }>("SELECT awards FROM trade_buyers WHERE trade = 'civil-works' AND jurisdiction = 'AU-NSW'");
    assert.equal(buyer?.awards, 2);
    const [holder] = await db.all<{ supplier: string; share: number }>("SELECT supplier, share FROM trade_suppliers WHERE trade = 'civil-works' AND jurisdiction = 'AU-NSW'");
    assert.deepEqual(holder, { supplier: 'Acme Pty Ltd', share: 1 });
  } finally {
    db.close();
  }
});
