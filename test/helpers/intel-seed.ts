import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMacros, readModel } from '../../data/build.ts';
import { pointCurrentAt } from '../../data/release.ts';
import { writeServingIndex } from '../../data/search/serving-index.ts';
import { TABLES, createTableSql } from '../../data/schema.ts';
import { openStore, sqlString, type Store } from '../../data/store.ts';
import { buyerKey } from '../../lib/keys.ts';
import { seedRelease, type SeedReleaseOptions, type SeededRelease } from './seed-release.ts';

type SeedValue = string | number | boolean | string[] | null;
export type SeedRow = Record<string, SeedValue>;

/** The models the intelligence builders read, in dependency order. */
export const INTELLIGENCE_MODELS = ['suppliers', 'signals', 'trade_pairs', 'trade_buyers', 'trade_suppliers'] as const;

/**
 * An awards row with plausible defaults; `buyer_key` is derived from jurisdiction and buyer unless given, and
 * `award_day` as the awards model derives it (first_seen's UTC day standing in for the buyer's).
 */
export function awardRow(overrides: SeedRow = {}): SeedRow {
  const row: SeedRow = {
    source: 'au_federal_austender_ocds', contract_id: 'CN1', ocid: 'ocds-1', latest_release_id: 'rel-1', jurisdiction: 'AU',
    buyer: 'Department of Finance', buyer_key: null, buyer_id: null, supplier: 'Acme Pty Ltd', supplier_abn: '90075448494', supplier_id: null,
    supplier_key: 'AU-ABN:90075448494', title: 'Road resurfacing', description: null, value_amount: '100000.00', value_currency: 'AUD',
    original_value_amount: '100000.00', amendment_count: 0, awarded_date: '2026-03-01', start_date: '2026-03-02', end_date: '2027-03-01',
    categories: ['72141000'], trade: 'civil-works', procurement_method: 'open', url: 'https://example.gov.au/CN1',
    first_seen: '2026-03-05T00:00:00Z', last_changed: '2026-03-05T00:00:00Z', stale: false,
    ...overrides,
  };
  if (!('award_day' in overrides)) row.award_day = row.awarded_date ?? row.start_date ?? String(row.first_seen).slice(0, 10);
  return withBuyerKey(row, overrides);
}

/** A plans row with plausible defaults. */
export function planRow(overrides: SeedRow = {}): SeedRow {
  const row: SeedRow = {
    source: 'au_federal_austender_app', plan_id: 'APP-1', title: 'Facilities management services', buyer: 'Department of Finance', buyer_key: null,
    jurisdiction: 'AU', tier: 'federal', description: null, category: '72101500', category_name: null, trade: 'facilities-management',
    expected_period_text: 'Q3 2026-27', window_start: '2027-01-01', window_end: '2027-03-31', value_text: '$1m – $5m', status: 'Current',
    released: false, withdrawn: false, published_date: '2026-07-01', url: 'https://www.tenders.gov.au/App/Show/1',
    first_seen: '2026-07-02T00:00:00Z', last_seen: '2026-09-25T00:00:00Z', stale: false,
    ...overrides,
  };
  return withBuyerKey(row, overrides);
}

function withBuyerKey(row: SeedRow, overrides: SeedRow): SeedRow {
  if (!('buyer_key' in overrides) && typeof row.buyer === 'string') row.buyer_key = buyerKey(String(row.jurisdiction), row.buyer);
  return row;
}

/** Inserts rows into a table through DuckDB's JSON reader, typed by the schema (dates and instants parse as the store's types). */
export async function insertRows(store: Store, table: string, rows: SeedRow[]): Promise<void> {
  if (rows.length === 0) return;
  const schema = (TABLES as unknown as Record<string, Record<string, string>>)[table];
  if (!schema) throw new Error(`no table ${table} in data/schema.ts`);
  const columns = Object.entries(schema).map(([column, type]) => `${column}: '${type.replace(' NOT NULL', '')}'`);
  const file = join(tmpdir(), `intel-seed-${process.pid}-${Math.random().toString(16).slice(2)}.json`);
  await writeFile(file, JSON.stringify(rows.map((row) => Object.fromEntries(Object.keys(schema).map((c) => [c, row[c] ?? null])))));
  try {
    await store.exec(`INSERT INTO ${table} SELECT * FROM read_json(${sqlString(file)}, format = 'array', columns = {${columns.join(', ')}})`);
  } finally {
    await rm(file, { force: true });
  }
}

/** Runs the intelligence models over a store holding the input tables, as the nightly run would at `runAt`. */
export async function runIntelligenceModels(store: Store, runAt: string): Promise<void> {
  await store.exec(`CREATE OR REPLACE TABLE run_context AS SELECT TIMESTAMPTZ ${sqlString(runAt)} AS run_at`);
  await store.exec(await readMacros());
  for (const table of INTELLIGENCE_MODELS) await store.exec(`DELETE FROM ${table}; ${await readModel(table)}`);
  await store.exec('DROP TABLE run_context');
}

export interface IntelStoreSeed {
  awards?: SeedRow[];
  plans?: SeedRow[];
  tenders?: SeedRow[];
  buyers?: SeedRow[];
  abn_entities?: SeedRow[];
}

/** An in-memory store with every table, the given input rows, and the intelligence models run at `runAt`. */
export async function seedIntelStore(seed: IntelStoreSeed, runAt: string): Promise<Store> {
  const store = await openStore(':memory:');
  for (const [name, columns] of Object.entries(TABLES)) await store.exec(createTableSql(name, columns));
  for (const [table, rows] of Object.entries(seed)) await insertRows(store, table, rows ?? []);
  await runIntelligenceModels(store, runAt);
  return store;
}

/**
 * A complete release (as test/helpers/seed-release.ts writes it) that also holds awards, plans, buyers and
 * register rows, with the intelligence models run on the release's clock, and `current.json` pointed at it.
 */
export async function seedIntelRelease(options: SeedReleaseOptions & Omit<IntelStoreSeed, 'tenders'>): Promise<SeededRelease> {
  const { awards = [], plans = [], buyers = [], abn_entities: abns = [], point = true, ...base } = options;
  const seeded = await seedRelease({ ...base, point: false });
  const store = await openStore(join(seeded.dir, 'store.duckdb'));
  try {
    await insertRows(store, 'awards', awards);
    await insertRows(store, 'plans', plans);
    await insertRows(store, 'buyers', buyers);
    await insertRows(store, 'abn_entities', abns);
    await runIntelligenceModels(store, seeded.manifest.computed_at);
  } finally {
    store.close();
  }
  if (point) {
    await writeServingIndex(seeded.dir);
    await pointCurrentAt(options.dataDir, seeded.manifest, new Date());
  }
  return seeded;
}
