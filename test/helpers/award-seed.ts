import { JURISDICTIONS, timeZoneOf } from '../../lib/jurisdictions.ts';
import { readMacros, readModel } from '../../data/build.ts';
import { TABLES, createTableSql, type TableName } from '../../data/schema.ts';
import { sqlString, type Store } from '../../data/store.ts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A small store for the award, buyer and supplier models and routes: contract releases, tenders, plans and
 * register rows chosen to exercise each rule (windows, currencies, amendments, slugs, standing). The run is
 * RUN_AT; "today" is 2026-09-25 in every seeded zone.
 */

export type Row = Record<string, string | number | boolean | string[] | null>;
export const RUN_AT = '2026-09-25T01:00:00.000Z'; // 11:00 in Sydney: "today" is 2026-09-25 everywhere seeded

/** A contract release (award_releases row); the awards model folds them into awards. */
export function award(overrides: Row): Row {
  const contractId = String(overrides.contract_id ?? 'CN0');
  return {
    source: 'au_nsw_contract_awards', ocid: `ocid-${contractId.replace(/-A\d+$/, '')}`, release_id: `rel-${contractId}`, release_date: '2026-09-01T00:00:00.000Z',
    release_tag: 'contract', contract_id: contractId, amendment_id: null, amends_release_id: null, jurisdiction: 'AU-NSW',
    buyer: 'Transport for NSW', buyer_id: null, supplier: null, supplier_abn: null, supplier_id: null,
    title: 'Road maintenance', description: null, value_amount: null, value_currency: null,
    awarded_date: '2026-01-15', start_date: null, end_date: null, categories: [], trade: null, procurement_method: null,
    url: `https://example.gov.au/${contractId}`, first_seen: '2026-09-01T01:00:00.000Z',
    ...overrides,
  };
}

function tender(overrides: Row): Row {
  return {
    tender_key: 'k0', source: 'au_federal_austender_atm', source_tag: 'ATM', kind: 'tender', title: 'A tender', buyer: 'Department of Defence',
    buyer_key: null, reference: null, jurisdiction: 'AU', tier: 'federal', summary: null, category: null, category_name: null, trade: null,
    notice_type: null, published_date: '2026-09-01', closing_date: '2026-10-01', closing_at: null, value_text: null, url: 'https://example.gov.au/t',
    listing_url: null, content_hash: 'h', first_seen: '2026-09-01T01:00:00.000Z', last_seen: RUN_AT, dates_changed_at: null, stale: false,
    ...overrides,
  };
}

function plan(overrides: Row): Row {
  return {
    source: 'au_federal_austender_app', plan_id: 'P0', title: 'A plan', buyer: 'Department of Defence', buyer_key: null, jurisdiction: 'AU',
    tier: 'federal', description: null, category: null, category_name: null, trade: null, expected_period_text: null, window_start: null,
    window_end: null, value_text: null, status: null, released: false, withdrawn: false, published_date: '2026-07-01',
    url: 'https://example.gov.au/p', first_seen: '2026-07-02T01:00:00.000Z', last_seen: RUN_AT, stale: false,
    ...overrides,
  };
}

/** Transport for NSW: 22 awards signed in the window (20 AUD values 1000..20000, one unvalued, one NZD), so it is listed. */
function transportAwards(): Row[] {
  const rows: Row[] = [];
  for (let i = 1; i <= 20; i += 1) {
    rows.push(award({ contract_id: `TFN-${i}`, value_amount: i * 1000, value_currency: 'AUD', awarded_date: `2025-${String((i % 12) + 1).padStart(2, '0')}-10` }));
  }
  rows.push(
    award({ contract_id: 'TFN-unvalued', buyer: '  transport FOR   nsw ' }), // another case and spacing: the same buyer
    award({ contract_id: 'TFN-nzd', value_amount: 999999, value_currency: 'NZD' }), // a minority currency: outside the figures
    award({ contract_id: 'TFN-old', awarded_date: '2023-09-24', value_amount: 5_000_000, value_currency: 'AUD' }), // a day before the window
    award({ contract_id: 'TFN-future', awarded_date: '2026-09-26', value_amount: 5_000_000, value_currency: 'AUD' }), // after the run day
    // no dates at all: counted from the day it was first collected
    award({ contract_id: 'TFN-undated', awarded_date: null, first_seen: '2026-03-01T01:00:00.000Z', end_date: '2027-09-25' }),
    award({ contract_id: 'TFN-ending', awarded_date: '2020-01-01', end_date: '2026-09-25' }), // old, but ends today: expiring
    award({ contract_id: 'TFN-ended', awarded_date: '2020-01-01', end_date: '2026-09-24' }), // ended yesterday
    award({ contract_id: 'TFN-later', awarded_date: '2020-01-01', end_date: '2027-09-26' }), // ends a day after the 12 months
  );
  return rows;
}

export const AWARD_SEED: Partial<Record<TableName, Row[]>> = {
  award_releases: [
    ...transportAwards(),
    award({
      source: 'au_federal_austender_ocds', contract_id: 'CN-D1', jurisdiction: 'AU', buyer: 'Department of Defence', supplier: 'Harbourside Civil Pty Ltd',
      supplier_abn: '53004085616', value_amount: 100, value_currency: 'AUD', end_date: '2027-03-01', categories: ['72141000', '72101500'],
      release_date: '2026-01-15T00:00:00.000Z',
    }),
    // an amendment: the chain counts once, at the amended value and end date
    award({
      source: 'au_federal_austender_ocds', contract_id: 'CN-D1-A1', amendment_id: 'CN-D1-A1', amends_release_id: 'rel-CN-D1', release_tag: 'contractAmendment',
      release_date: '2026-06-01T00:00:00.000Z', jurisdiction: 'AU', buyer: 'Department of Defence', supplier: 'Harbourside Civil Pty Ltd',
      supplier_abn: '53004085616', value_amount: 150, value_currency: 'AUD', end_date: '2027-06-01', categories: ['72141000', '72101500'],
      first_seen: '2026-09-02T01:00:00.000Z',
    }),
    award({
      source: 'au_federal_austender_ocds', contract_id: 'CN-D2', jurisdiction: 'AU', buyer: 'Department of Defence', supplier: 'HARBOURSIDE CIVIL',
      // the company's ACN published beside its ABN: the supplier is keyed by the ABN and found by either
      supplier_abn: '53004085616', supplier_id: 'AU-ACN-004085616', value_amount: 300, value_currency: 'AUD', awarded_date: '2026-05-01', end_date: '2028-03-01', categories: ['72141000'],
    }),
    award({
      source: 'nz_gets_awards', contract_id: 'NZ-1', jurisdiction: 'NZ', buyer: 'Auckland Council', supplier: 'Harbourside Civil Pty Ltd',
      supplier_abn: '53004085616', value_amount: 250, value_currency: 'NZD',
    }),
    award({
      source: 'au_qld_contract_disclosure', contract_id: 'QLD-1', jurisdiction: 'AU-QLD', buyer: 'Transport and Main Roads', supplier: 'Capricornia Engineering Pty Ltd',
      supplier_id: 'AU-ACN-935063719', value_amount: 875619, value_currency: 'AUD',
    }),
    // an ABN the ABN register does not hold, whose last nine digits are a company's ACN
    award({ contract_id: 'NSW-K', supplier: 'Kalbar Earthworks', supplier_abn: '99757431745', value_amount: 10, value_currency: 'AUD' }),
    // a sole trader the ABN register holds: no company behind it, whatever its digits
    award({ contract_id: 'NSW-S', supplier: 'J Citizen Plumbing', supplier_abn: '33102417032', value_amount: 20, value_currency: 'AUD' }),
    // AusTender's exempt supplier id identifies no entity: no supplier row
    award({ source: 'au_federal_austender_ocds', contract_id: 'CN-X', jurisdiction: 'AU', buyer: 'Department of Defence', supplier: 'Exempt', supplier_id: 'EXEMPTUUID-0bf8' }),
    // two spellings differing only in punctuation: one slug each would clash
    award({ source: 'au_vic_buying_for_victoria', contract_id: 'VIC-1', jurisdiction: 'AU-VIC', buyer: 'Dept. of Health' }),
    award({ source: 'au_vic_buying_for_victoria', contract_id: 'VIC-2', jurisdiction: 'AU-VIC', buyer: 'Dept of Health' }),
  ],
  tenders: [
    ...['a', 'b', 'c', 'd'].map((k) => tender({ tender_key: `open-${k}` })),
    tender({ tender_key: 'open-undated', closing_date: null, published_date: null }), // no closing date: open
    tender({ tender_key: 'closes-today', closing_date: '2026-09-25', published_date: '2026-09-15' }),
    tender({ tender_key: 'closed', closing_date: '2026-09-24', published_date: '2026-09-04' }),
    tender({ tender_key: 'grant', kind: 'grant', source: 'au_federal_grantconnect', closing_date: '2026-12-01', published_date: '2026-01-01' }),
    tender({ tender_key: 'typo', closing_date: '2026-08-01', published_date: '2026-09-01' }), // closes before it opens: no response time
    tender({ tender_key: 'nz', source: 'nz_gets', jurisdiction: 'NZ', tier: 'council', buyer: 'Auckland Council', published_date: '2026-09-10', closing_date: '2026-09-24' }),
    tender({ tender_key: 'nobuyer', buyer: null }),
  ],
  plans: [
    plan({ plan_id: 'in-window', window_start: '2027-01-01', window_end: '2027-03-31' }),
    plan({ plan_id: 'running', window_start: '2026-07-01', window_end: '2026-09-30' }), // started, not over: counts
    plan({ plan_id: 'over', window_start: '2026-04-01', window_end: '2026-06-30' }),
    plan({ plan_id: 'far', window_start: '2027-10-01', window_end: '2027-12-31' }), // starts after the 12 months
    plan({ plan_id: 'unwindowed' }),
    plan({ plan_id: 'withdrawn', window_start: '2027-01-01', window_end: '2027-03-31', withdrawn: true }),
    plan({ source: 'au_qld_qtenders', plan_id: 'Q1', jurisdiction: 'AU-QLD', tier: 'state', buyer: 'Queensland Health', window_start: '2026-10-01', window_end: '2026-12-31' }),
  ],
  abn_entities: [
    {
      source: 'au_abn_bulk_extract', abn: '53004085616', abn_status: 'ACT', abn_status_from: '1999-11-01', entity_type_code: 'PRV',
      entity_type: 'Australian Private Company', individual: false, name: 'HARBOURSIDE CIVIL PTY LTD', state: 'NSW', postcode: '2000',
      asic_number: '004085616', gst_status: 'ACT', gst_status_from: '2000-07-01', trading_names: [], business_names: [], other_names: [],
      record_updated: '2026-08-14', as_of: '2026-09-23', url: 'https://abr.business.gov.au/ABN/View?id=53004085616', first_seen: RUN_AT, stale: false,
    },
    {
      source: 'au_abn_bulk_extract', abn: '33102417032', abn_status: 'CAN', abn_status_from: '2024-02-01', entity_type_code: 'IND',
      entity_type: 'Individual/Sole Trader', individual: true, name: null, state: 'NSW', postcode: null,
      asic_number: null, gst_status: 'NON', gst_status_from: null, trading_names: ['J CITIZEN PLUMBING'], business_names: [], other_names: [],
      record_updated: '2024-02-01', as_of: '2026-09-23', url: 'https://abr.business.gov.au/ABN/View?id=33102417032', first_seen: RUN_AT, stale: false,
    },
  ],
  companies: [
    company('004085616', 'HARBOURSIDE CIVIL PTY LTD', 'REGD', 'registered', '53004085616'),
    company('757431745', 'KALBAR EARTHWORKS PTY LTD', 'DRGD', 'deregistered', null),
    company('935063719', 'CAPRICORNIA ENGINEERING PTY LTD', 'REGD', 'registered', null),
    company('102417032', 'NOT THE PLUMBER PTY LTD', 'REGD', 'registered', null),
  ],
};

function company(acn: string, name: string, status: string, meaning: string, abn: string | null): Row {
  return {
    source: 'au_asic_companies', acn, name, former_names: [], name_start_date: null, type: 'APTY', class: 'LMSH', sub_class: 'PROP', status,
    status_meaning: meaning, registered_date: '1990-01-01', deregistered_date: status === 'DRGD' ? '2020-01-01' : null, previous_state: null,
    state_registration_number: null, abn, as_of: '2026-09-20', url: `https://connectonline.asic.gov.au/${acn}`, first_seen: RUN_AT, stale: false,
  };
}

/**
 * Fills `store` (which already has every table of TABLES, empty) with the seed and runs the models that read it:
 * the macros, then awards, buyers and suppliers, in model order. Tenders and plans get their buyer keys as the
 * pipeline gives them.
 */
export async function seedAwardModels(store: Store, models: readonly ('awards' | 'buyers' | 'suppliers')[] = ['awards', 'buyers', 'suppliers']): Promise<void> {
  await seedModels(store, AWARD_SEED, models);
}

/** Fills `store` (its tables created, empty) with `seed`'s rows and runs `models` over them, on the RUN_AT clock. */
export async function seedModels(store: Store, seed: Partial<Record<TableName, Row[]>>, models: readonly TableName[]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'award-seed-'));
  try {
    await store.exec(await readMacros());
    await store.exec(`CREATE TEMP TABLE run_context AS SELECT TIMESTAMPTZ '${RUN_AT}' AS run_at;
      CREATE TEMP TABLE jurisdiction_zones (jurisdiction VARCHAR, time_zone VARCHAR);
      INSERT INTO jurisdiction_zones VALUES ${JURISDICTIONS.map((j) => `(${sqlString(j)}, ${sqlString(timeZoneOf(j))})`).join(', ')};
      CREATE TEMP TABLE run_sources (id VARCHAR, attempted BOOLEAN, failed BOOLEAN);`);
    for (const table of ['award_releases', 'tenders', 'plans', 'abn_entities', 'companies'] as const) {
      const rows = seed[table] ?? [];
      if (rows.length === 0) continue;
      const columns = Object.entries(TABLES[table]).map(([column, type]) => `${column}: ${sqlString(type.replace(' NOT NULL', ''))}`).join(', ');
      const file = join(dir, `${table}.json`);
      await writeFile(file, JSON.stringify(rows));
      await store.exec(`INSERT INTO ${table} SELECT * FROM read_json(${sqlString(file)}, format = 'array', columns = {${columns}})`);
      if (table === 'tenders' || table === 'plans') await store.exec(`UPDATE ${table} SET buyer_key = buyer_key(jurisdiction, buyer)`);
    }
    for (const model of models) await store.exec(await readModel(model));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Every table of TABLES, created empty. */
export async function createAllTables(store: Store, only?: readonly TableName[]): Promise<void> {
  for (const [name, columns] of Object.entries(TABLES)) if (!only || only.includes(name as TableName)) await store.exec(createTableSql(name, columns));
}
