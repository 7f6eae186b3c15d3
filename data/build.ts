import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JURISDICTIONS, timeZoneOf } from '../lib/jurisdictions.ts';
import {
  ABN_ENTITY_COLUMNS, AWARD_RELEASE_COLUMNS, COMPANY_COLUMNS, HTTP_VALIDATOR_COLUMNS, PLAN_COLUMNS, SANCTIONS_ENTRY_COLUMNS, TENDER_CHANGE_COLUMNS, TABLES, TENDER_COLUMNS, SOURCE_COLUMNS,
  createTableSql, type TableName,
} from './schema.ts';
import { exportOcds } from './export-ocds.ts';
import { sqlString, type Store } from './store.ts';

const MODELS_DIR = fileURLToPath(new URL('./models/', import.meta.url));

/** Models in dependency order; each file `data/models/<table>.sql` fills the table of its name. */
export const MODEL_ORDER: TableName[] = ['tender_changes', 'tenders', 'award_releases', 'awards', 'plans', 'companies', 'abn_entities', 'company_name_terms', 'sanctions_entries', 'http_validators', 'sources', 'buyers', 'suppliers', 'signals', 'trade_pairs', 'trade_buyers', 'trade_suppliers', 'award_terms', 'tender_terms'];

const DERIVED_TENDER_COLUMNS = new Set(['buyer_key', 'first_seen', 'last_seen', 'dates_changed_at', 'stale']);
const DERIVED_AWARD_COLUMNS = new Set(['first_seen', 'procurement_method_details']);
const DERIVED_PLAN_COLUMNS = new Set(['buyer_key', 'first_seen', 'last_seen', 'stale']);
const DERIVED_ABN_COLUMNS = new Set(['first_seen', 'stale']);

function without(columns: Record<string, string>, derived: Set<string>): Record<string, string> {
  return Object.fromEntries(Object.entries(columns).filter(([name]) => !derived.has(name)).map(([name, type]) => [name, type.replace(' NOT NULL', '')]));
}

export const STAGED_TENDER_COLUMNS = without(TENDER_COLUMNS, DERIVED_TENDER_COLUMNS);
export const STAGED_AWARD_COLUMNS = without(AWARD_RELEASE_COLUMNS, DERIVED_AWARD_COLUMNS);
export const STAGED_PLAN_COLUMNS = without(PLAN_COLUMNS, DERIVED_PLAN_COLUMNS);
export const STAGED_ABN_COLUMNS = without(ABN_ENTITY_COLUMNS, DERIVED_ABN_COLUMNS);

/** A company register's rows as staged: one per name of a company (the `companies` model folds them per ACN). */
export const STAGED_COMPANY_COLUMNS = {
  source: 'VARCHAR',
  acn: 'VARCHAR',
  name: 'VARCHAR',
  is_current_name: 'BOOLEAN',
  current_name: 'VARCHAR',
  current_name_start_date: 'DATE',
  type: 'VARCHAR',
  class: 'VARCHAR',
  sub_class: 'VARCHAR',
  status: 'VARCHAR',
  registered_date: 'DATE',
  deregistered_date: 'DATE',
  previous_state: 'VARCHAR',
  state_registration_number: 'VARCHAR',
  abn: 'VARCHAR',
  as_of: 'DATE',
  url: 'VARCHAR',
} as const;

/** A sanctions list's name rows as staged: one per published name (the `sanctions_entries` model folds them per party). */
export const STAGED_SANCTION_COLUMNS = {
  source: 'VARCHAR',
  list_name: 'VARCHAR',
  entry_id: 'VARCHAR',
  name_type: 'VARCHAR',
  entity_type: 'VARCHAR',
  name: 'VARCHAR',
  dates_of_birth: 'VARCHAR[]',
  nationalities: 'VARCHAR[]',
  countries: 'VARCHAR[]',
  programmes: 'VARCHAR[]',
  listed_on: 'DATE',
  as_of: 'DATE',
  url: 'VARCHAR',
} as const;

/** A file's validators as the crawl reports them and `http_validators` keeps them. */
export interface HttpValidator {
  /** The file's public URL. */
  url: string;
  etag: string | null;
  /** The Last-Modified header exactly as the server sent it (an HTTP date). */
  last_modified: string | null;
  /** The run (its clock, ISO) that last downloaded the file whole. */
  fetched_at: string;
}

/** One row per registry source: what the crawl did tonight, for the models to join. */
export interface SourceRun {
  id: string;
  tag: string;
  name: string;
  jurisdiction: string;
  tier: string;
  kinds: string[];
  mode: string;
  /** `incremental` (merged across nights) when unset, or `snapshot` (replaced whole on each good run). */
  refresh?: 'incremental' | 'snapshot';
  homepage: string;
  licence: string;
  attribution: string;
  caveats: string[];
  attempted: boolean;
  failed: boolean;
  /** Not crawled on purpose: `login_walled` or `robots_refused`; the diagnosis says why. */
  refused: 'login_walled' | 'robots_refused' | null;
  diagnosis: string | null;
  records: number;
  invalid: number;
  pages: number;
  errors: number;
  duration_ms: number;
  /** Set (ISO) when every file of a snapshot source answered 304: its rows are carried forward, fresh. */
  not_modified_since?: string | null;
  /** The validators of the files it downloaded tonight, kept when the source did not fail. */
  validators?: HttpValidator[];
}

export interface RunConstants {
  runAt: Date;
  releaseId: string;
  previousRunAt: Date | null;
}

/** Creates the run's working tables: staged records, the previous release's rows and the run constants. */
export async function prepareWorkingTables(store: Store, run: RunConstants, sourceRuns: SourceRun[]): Promise<void> {
  await store.exec(`
    ${createTableSql('staged_tenders', STAGED_TENDER_COLUMNS)};
    ${createTableSql('staged_awards', STAGED_AWARD_COLUMNS)};
    ${createTableSql('staged_plans', STAGED_PLAN_COLUMNS)};
    ${createTableSql('staged_companies', STAGED_COMPANY_COLUMNS)};
    ${createTableSql('staged_abns', STAGED_ABN_COLUMNS)};
    ${createTableSql('staged_sanctions', STAGED_SANCTION_COLUMNS)};
    ${createTableSql('prev_tenders', TENDER_COLUMNS)};
    ${createTableSql('prev_tender_changes', TENDER_CHANGE_COLUMNS)};
    ${createTableSql('prev_award_releases', AWARD_RELEASE_COLUMNS)};
    ${createTableSql('prev_plans', PLAN_COLUMNS)};
    ${createTableSql('prev_companies', COMPANY_COLUMNS)};
    ${createTableSql('prev_abn_entities', ABN_ENTITY_COLUMNS)};
    ${createTableSql('prev_sanctions_entries', SANCTIONS_ENTRY_COLUMNS)};
    ${createTableSql('prev_http_validators', HTTP_VALIDATOR_COLUMNS)};
    ${createTableSql('prev_sources', SOURCE_COLUMNS)};
    CREATE TABLE run_context AS SELECT TIMESTAMPTZ ${sqlString(run.runAt.toISOString())} AS run_at, ${sqlString(run.releaseId)} AS release_id,
      ${run.previousRunAt ? `TIMESTAMPTZ ${sqlString(run.previousRunAt.toISOString())}` : 'NULL::TIMESTAMPTZ'} AS previous_run_at;
    CREATE TABLE jurisdiction_zones (jurisdiction VARCHAR, time_zone VARCHAR);
    INSERT INTO jurisdiction_zones VALUES ${JURISDICTIONS.map((j) => `(${sqlString(j)}, ${sqlString(timeZoneOf(j))})`).join(', ')};
    CREATE TABLE run_sources (id VARCHAR, tag VARCHAR, name VARCHAR, jurisdiction VARCHAR, tier VARCHAR, kinds VARCHAR[], mode VARCHAR, refresh VARCHAR,
      homepage VARCHAR, licence VARCHAR, attribution VARCHAR, caveats VARCHAR[], attempted BOOLEAN, failed BOOLEAN, refused VARCHAR, diagnosis VARCHAR,
      records INTEGER, invalid INTEGER, pages INTEGER, errors INTEGER, duration_ms INTEGER, not_modified_since TIMESTAMPTZ);
    ${createTableSql('run_validators', HTTP_VALIDATOR_COLUMNS)};
  `);
  if (sourceRuns.length === 0) return;
  const list = (values: string[]) => `[${values.map(sqlString).join(', ')}]::VARCHAR[]`;
  const nullable = (value: string | null | undefined) => (value == null ? 'NULL' : sqlString(value));
  const rows = sourceRuns.map((s) =>
    `(${[s.id, s.tag, s.name, s.jurisdiction, s.tier].map(sqlString).join(', ')}, ${list(s.kinds)}, ${sqlString(s.mode)}, ${sqlString(s.refresh ?? 'incremental')}, ${sqlString(s.homepage)}, ` +
    `${sqlString(s.licence)}, ${sqlString(s.attribution)}, ${list(s.caveats)}, ${s.attempted}, ${s.failed}, ${nullable(s.refused)}, ` +
    `${nullable(s.diagnosis)}, ${s.records}, ${s.invalid}, ${s.pages}, ${s.errors}, ${s.duration_ms}, ` +
    `${s.not_modified_since ? `TIMESTAMPTZ ${sqlString(s.not_modified_since)}` : 'NULL'})`,
  );
  await store.exec(`INSERT INTO run_sources VALUES ${rows.join(',\n')}`);
  const validators = sourceRuns.flatMap((s) => (s.validators ?? []).map((v) =>
    `(${sqlString(s.id)}, ${sqlString(v.url)}, ${nullable(v.etag)}, ${nullable(v.last_modified)}, TIMESTAMPTZ ${sqlString(v.fetched_at)})`));
  if (validators.length) await store.exec(`INSERT INTO run_validators VALUES ${validators.join(',\n')}`);
}

function jsonColumns(columns: Record<string, string>): string {
  return `{${Object.entries(columns).map(([name, type]) => `${sqlString(name)}: ${sqlString(type)}`).join(', ')}}`;
}

/** Bulk-loads the staged newline-delimited JSON written by the crawl. */
export async function loadStaging(store: Store, stagingDir: string): Promise<void> {
  const files = existsSync(stagingDir) ? await readdir(stagingDir) : [];
  const load = async (table: string, suffix: string, columns: Record<string, string>) => {
    if (!files.some((f) => f.endsWith(suffix))) return;
    await store.exec(`INSERT INTO ${table} BY NAME SELECT * FROM read_json(${sqlString(join(stagingDir, `*${suffix}`))},
      format = 'newline_delimited', columns = ${jsonColumns(columns)})`);
  };
  await load('staged_tenders', '.tenders.ndjson', STAGED_TENDER_COLUMNS);
  await load('staged_awards', '.awards.ndjson', STAGED_AWARD_COLUMNS);
  await load('staged_plans', '.plans.ndjson', STAGED_PLAN_COLUMNS);
  await load('staged_companies', '.companies.ndjson', STAGED_COMPANY_COLUMNS);
  await load('staged_abns', '.abns.ndjson', STAGED_ABN_COLUMNS);
  await load('staged_sanctions', '.sanctions.ndjson', STAGED_SANCTION_COLUMNS);
}

/**
 * Copies the previous release's rows in by column name, so a release written under an older schema still
 * carries its history forward (columns it lacks stay NULL).
 */
export async function loadPrevious(store: Store, previousStorePath: string): Promise<void> {
  await store.exec(`ATTACH ${sqlString(previousStorePath)} AS prev (READ_ONLY)`);
  try {
    const carried = [
      ['tenders', TENDER_COLUMNS], ['tender_changes', TENDER_CHANGE_COLUMNS], ['award_releases', AWARD_RELEASE_COLUMNS], ['plans', PLAN_COLUMNS],
      ['companies', COMPANY_COLUMNS], ['abn_entities', ABN_ENTITY_COLUMNS], ['sanctions_entries', SANCTIONS_ENTRY_COLUMNS], ['http_validators', HTTP_VALIDATOR_COLUMNS],
      ['sources', SOURCE_COLUMNS],
    ] as const;
    for (const [table, columns] of carried) {
      const existing = await store.all<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_catalog = 'prev' AND table_name = ${sqlString(table)}`,
      );
      const shared = existing.map((c) => c.column_name).filter((c) => c in columns);
      if (shared.length === 0) continue;
      await store.exec(`INSERT INTO prev_${table} BY NAME SELECT ${shared.join(', ')} FROM prev.${table}`);
    }
  } finally {
    await store.exec('DETACH prev');
  }
}

export async function readModel(table: TableName): Promise<string> {
  return readFile(join(MODELS_DIR, `${table}.sql`), 'utf8');
}

/** The macros the models call (`data/models/_macros.sql`), e.g. `buyer_key(jurisdiction, name)`. */
export async function readMacros(): Promise<string> {
  return readFile(join(MODELS_DIR, '_macros.sql'), 'utf8');
}

/** Creates each output table from its schema and fills it with its model. Returns milliseconds per model. */
export async function runModels(store: Store): Promise<Record<string, number>> {
  const timings: Record<string, number> = {};
  await store.exec(await readMacros());
  for (const table of MODEL_ORDER) {
    const started = performance.now();
    await store.exec(`${createTableSql(table, TABLES[table])}; ${await readModel(table)}`);
    timings[table] = Math.round(performance.now() - started);
  }
  return timings;
}

/** Drops the working tables so the published store holds only documented tables. */
export async function dropWorkingTables(store: Store): Promise<void> {
  await store.exec(['staged_tenders', 'staged_awards', 'staged_plans', 'staged_companies', 'staged_abns', 'staged_sanctions', 'prev_tenders', 'prev_tender_changes', 'prev_award_releases',
    'prev_plans', 'prev_companies', 'prev_abn_entities', 'prev_sanctions_entries', 'prev_http_validators', 'prev_sources', 'run_context', 'run_sources', 'run_validators', 'jurisdiction_zones']
    .map((t) => `DROP TABLE IF EXISTS ${t}`).join('; '));
}

/**
 * Every contract release with its award's `year` (that of the chain's award_day, data/models/awards.sql), so a
 * chain's original and its amendments sit in one partition, the same as their award's.
 */
const AWARD_RELEASES_WITH_YEAR_SQL = `SELECT r.*, year(a.award_day) AS year FROM award_releases r
  JOIN awards a ON a.source = r.source AND a.contract_id = regexp_replace(r.contract_id, '-A[0-9]+$', '')`;

/** The Parquet statements of a release: hive-partitioned, zstd. Shared with the benchmark's raw baseline. */
export function parquetExportSql(parquetDir: string): string[] {
  const to = (name: string) => sqlString(join(parquetDir, name));
  return [
    `COPY (SELECT * FROM tenders ORDER BY tender_key) TO ${to('tenders')} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (jurisdiction), OVERWRITE_OR_IGNORE)`,
    `COPY (SELECT * FROM tender_changes ORDER BY changed_at, tender_key) TO ${to('tender_changes.parquet')} (FORMAT parquet, COMPRESSION zstd)`,
    `COPY (SELECT *, year(award_day) AS year FROM awards ORDER BY contract_id) TO ${to('awards')} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (year), OVERWRITE_OR_IGNORE)`,
    `COPY (${AWARD_RELEASES_WITH_YEAR_SQL} ORDER BY release_id) TO ${to('award_releases')} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (year), OVERWRITE_OR_IGNORE)`,
    `COPY (SELECT * FROM plans ORDER BY source, plan_id) TO ${to('plans')} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (jurisdiction), OVERWRITE_OR_IGNORE)`,
    `COPY (SELECT * FROM companies ORDER BY source, acn) TO ${to('companies.parquet')} (FORMAT parquet, COMPRESSION zstd)`,
    `COPY (SELECT * FROM abn_entities ORDER BY source, abn) TO ${to('abn_entities.parquet')} (FORMAT parquet, COMPRESSION zstd)`,
    `COPY (SELECT * FROM sanctions_entries ORDER BY source, entry_id) TO ${to('sanctions_entries.parquet')} (FORMAT parquet, COMPRESSION zstd)`,
    `COPY (SELECT * FROM company_name_terms ORDER BY term, register, key) TO ${to('company_name_terms.parquet')} (FORMAT parquet, COMPRESSION zstd)`,
    `COPY (SELECT * FROM sources ORDER BY id) TO ${to('sources.parquet')} (FORMAT parquet, COMPRESSION zstd)`,
    `COPY (SELECT * FROM buyers ORDER BY buyer_key) TO ${to('buyers')} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (country), OVERWRITE_OR_IGNORE)`,
    `COPY (SELECT * FROM suppliers ORDER BY supplier_key) TO ${to('suppliers.parquet')} (FORMAT parquet, COMPRESSION zstd)`,
    `COPY (SELECT * FROM signals ORDER BY kind, trade, jurisdiction, window_start, signal_id) TO ${to('signals')} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (kind), OVERWRITE_OR_IGNORE)`,
    `COPY (SELECT * FROM trade_pairs ORDER BY trade, jurisdiction) TO ${to('trade_pairs.parquet')} (FORMAT parquet, COMPRESSION zstd)`,
    `COPY (SELECT * FROM trade_buyers ORDER BY trade, jurisdiction, awards DESC) TO ${to('trade_buyers.parquet')} (FORMAT parquet, COMPRESSION zstd)`,
    `COPY (SELECT * FROM trade_suppliers ORDER BY trade, jurisdiction, rank) TO ${to('trade_suppliers.parquet')} (FORMAT parquet, COMPRESSION zstd)`,
    `COPY (SELECT * FROM award_terms ORDER BY term, country) TO ${to('award_terms.parquet')} (FORMAT parquet, COMPRESSION zstd)`,
    `COPY (SELECT * FROM tender_terms ORDER BY term, country, tender_key) TO ${to('tender_terms.parquet')} (FORMAT parquet, COMPRESSION zstd)`,
  ];
}

export async function exportParquet(store: Store, parquetDir: string): Promise<void> {
  await mkdir(parquetDir, { recursive: true });
  for (const statement of parquetExportSql(parquetDir)) await store.exec(statement);
  // the awards as OCDS 1.1 release packages, beside the Parquet: <release>/ocds/awards-releases.jsonl
  await exportOcds(store, join(parquetDir, '..', 'ocds'));
}
