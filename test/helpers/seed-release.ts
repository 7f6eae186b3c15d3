import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newReleaseId, pointCurrentAt, releasesDir, type Manifest } from '../../data/release.ts';
import { writeServingIndex } from '../../data/search/serving-index.ts';
import { SCHEMA_VERSION, SOURCE_STATUSES, TABLES, createTableSql, type SourceStatus, type TableName } from '../../data/schema.ts';
import { openStore, sqlString, type Store } from '../../data/store.ts';
import { buyerKey, tenderKey } from '../../lib/keys.ts';

type SeedValue = string | number | boolean | string[] | null;
type RowOf<T extends TableName> = { -readonly [K in keyof (typeof TABLES)[T]]: SeedValue };
export type TenderSeed = RowOf<'tenders'>;
export type SourceSeed = RowOf<'sources'>;

export interface SeedReleaseOptions {
  dataDir: string;
  tenders?: TenderSeed[];
  sources?: SourceSeed[];
  /** When the release is true for; also its id unless `releaseId` is given. */
  computedAt?: string;
  releaseId?: string;
  /** Move `current.json` to the new release (default true). */
  point?: boolean;
  /** How the release was built (default fixtures, on a pinned clock). */
  mode?: 'live' | 'fixtures';
}

export interface SeededRelease {
  releaseId: string;
  dir: string;
  manifest: Manifest;
}

/** A fresh temporary data folder; remove it with `rm(dir, { recursive: true, force: true })`. */
export function makeDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'tender-api-'));
}

/**
 * A tenders row with plausible defaults for everything not given. The key is derived from the final
 * fields the way the pipeline derives it, unless `tender_key` is given.
 */
export function tenderRow(overrides: Partial<TenderSeed> = {}): TenderSeed {
  const row: TenderSeed = {
    tender_key: '',
    source: 'au_nsw_buy_nsw',
    source_tag: 'NSW',
    kind: 'tender',
    title: 'Road maintenance services',
    buyer: 'Transport for NSW',
    buyer_key: null,
    reference: null,
    jurisdiction: 'AU-NSW',
    tier: 'state',
    summary: null,
    category: null,
    category_name: null,
    trade: null,
    notice_type: null,
    published_date: '2026-05-20',
    closing_date: null,
    closing_at: null,
    value_text: null,
    url: 'https://buy.nsw.gov.au/notices/1',
    listing_url: null,
    content_hash: 'seed',
    first_seen: '2026-05-20T12:00:00.000Z',
    last_seen: '2026-06-01T12:00:00.000Z',
    dates_changed_at: null,
    stale: false,
    ...overrides,
  };
  if (overrides.buyer_key === undefined && row.buyer !== null) row.buyer_key = buyerKey(String(row.jurisdiction), String(row.buyer));
  if (!overrides.tender_key) {
    row.tender_key = tenderKey({
      source: String(row.source),
      jurisdiction: String(row.jurisdiction),
      buyer: row.buyer === null ? null : String(row.buyer),
      reference: row.reference === null ? null : String(row.reference),
      title: String(row.title),
      url: String(row.url),
    });
  }
  return row;
}

/** A sources registry row with plausible defaults for everything not given. */
export function sourceRow(overrides: Partial<SourceSeed> = {}): SourceSeed {
  return {
    id: 'au_nsw_buy_nsw',
    tag: 'NSW',
    name: 'buy.nsw tenders',
    jurisdiction: 'AU-NSW',
    tier: 'state',
    kinds: ['tender'],
    mode: 'json-api',
    refresh: 'incremental',
    homepage: 'https://buy.nsw.gov.au/',
    licence: 'CC BY 4.0',
    attribution: 'NSW Government',
    caveats: [],
    status: 'ok',
    why: null,
    tender_count: 1,
    award_count: 0,
    plan_count: 0,
    reference_count: 0,
    last_run_at: '2026-06-01T12:00:00.000Z',
    last_success_at: '2026-06-01T12:00:00.000Z',
    records_new: 0,
    records_updated: 0,
    records_closed: 0,
    records_invalid: 0,
    pages: 1,
    errors: 0,
    duration_ms: 100,
    ...overrides,
  };
}

/**
 * Writes a complete release (store.duckdb with every table, manifest.json) into `dataDir` from the given
 * rows and points `current.json` at it, as the nightly run would, so API tests need no pipeline.
 */
export async function seedRelease(options: SeedReleaseOptions): Promise<SeededRelease> {
  const computedAt = options.computedAt ?? '2026-06-01T12:00:00.000Z';
  const releaseId = options.releaseId ?? newReleaseId(new Date(computedAt));
  const dir = join(releasesDir(options.dataDir), releaseId);
  await mkdir(dir, { recursive: true });

  const tenders = options.tenders ?? [];
  const sources = options.sources ?? [];
  const store = await openStore(join(dir, 'store.duckdb'));
  try {
    for (const [name, columns] of Object.entries(TABLES)) await store.exec(createTableSql(name, columns));
    await insertRows(store, dir, 'tenders', tenders);
    await insertRows(store, dir, 'sources', sources);
  } finally {
    store.close();
  }

  const manifest: Manifest = {
    release_id: releaseId,
    computed_at: computedAt,
    clock: { now: computedAt, pinned: (options.mode ?? 'fixtures') === 'fixtures', basis: 'seeded test release' },
    started_at: computedAt,
    finished_at: computedAt,
    schema_version: SCHEMA_VERSION,
    mode: options.mode ?? 'fixtures',
    sources: sources.map((source) => ({
      id: String(source.id),
      status: statusOf(source.status),
      why: source.why === null ? null : String(source.why),
      records: Number(source.tender_count) + Number(source.award_count),
      invalid: Number(source.records_invalid),
      new: Number(source.records_new),
      updated: Number(source.records_updated),
      closed: Number(source.records_closed),
      pages: Number(source.pages),
      errors: Number(source.errors),
      duration_ms: Number(source.duration_ms),
      warnings: [],
    })),
    counts: { tenders: tenders.length, sources: sources.length, awards: 0, award_releases: 0 },
    stage_timings_ms: {},
    browser: null,
    data_quality: [],
  };
  await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (options.point ?? true) {
    await writeServingIndex(dir);
    await pointCurrentAt(options.dataDir, manifest, new Date());
  }
  return { releaseId, dir, manifest };
}

/** Bulk insert through DuckDB's JSON reader, typed by the schema, so dates and instants parse as the store's types. */
async function insertRows(store: Store, dir: string, table: TableName, rows: Record<string, SeedValue>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.entries(TABLES[table]).map(([column, type]) => `${column}: '${type.replace(' NOT NULL', '')}'`);
  const file = join(dir, `.seed-${table}.json`);
  await writeFile(file, JSON.stringify(rows));
  try {
    await store.exec(`INSERT INTO ${table} SELECT * FROM read_json(${sqlString(file)}, format = 'array', columns = {${columns.join(', ')}})`);
  } finally {
    await rm(file, { force: true });
  }
}

function statusOf(value: SeedValue): SourceStatus {
  const status = String(value);
  if (!(SOURCE_STATUSES as readonly string[]).includes(status)) throw new Error(`unknown source status ${status}`);
  return status as SourceStatus;
}
