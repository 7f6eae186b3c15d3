import type { JS } from '@duckdb/node-api';
import type { Store } from '../store.ts';
import { TenderIndex, type SourceRow, type TenderRow } from './tender-index.ts';

// Instants leave DuckDB as ISO strings in UTC and dates as YYYY-MM-DD, so the index holds plain strings.
const instant = (column: string) => `strftime(${column} AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%gZ')`;
const day = (column: string) => `strftime(${column}, '%Y-%m-%d')`;

const TENDERS_SQL = `
  SELECT t.tender_key, t.source, t.source_tag, t.kind, t.title, t.buyer, t.reference, t.jurisdiction, t.tier,
         t.summary, t.category, t.category_name, t.trade, t.notice_type,
         ${day('t.published_date')} AS published_date, ${day('t.closing_date')} AS closing_date,
         ${instant('t.closing_at')} AS closing_at, t.value_text, t.url, t.listing_url,
         ${instant('t.first_seen')} AS first_seen, ${instant('t.last_seen')} AS last_seen,
         ${instant('t.dates_changed_at')} AS dates_changed_at, t.stale,
         s.homepage AS source_homepage
  FROM tenders t LEFT JOIN sources s ON s.id = t.source`;

const SOURCES_SQL = `
  SELECT id, tag, name, jurisdiction, tier, kinds, mode, refresh, homepage, licence, attribution, caveats, status, why,
         tender_count, award_count, plan_count, reference_count, ${instant('last_run_at')} AS last_run_at, ${instant('last_success_at')} AS last_success_at
  FROM sources ORDER BY id`;

/**
 * A release's tenders and source registry, indexed for search. The API serves searches from it and the
 * nightly run matches saved searches with it, so a watch finds exactly what GET /v1/tenders would.
 */
export async function readTenderIndex(store: Store): Promise<TenderIndex> {
  const tenders = (await readAll(store, TENDERS_SQL)) as unknown as TenderRow[];
  return TenderIndex.build(tenders, await readSources(store));
}

/** A release's source registry in id order: what GET /v1/tenders/sources and the site's sources.json are built from. */
export async function readSources(store: Store): Promise<SourceRow[]> {
  return (await readAll(store, SOURCES_SQL)) as unknown as SourceRow[];
}

/** Rows as plain JS values, converted chunk by chunk so a big table does not hold up requests meanwhile. */
async function readAll(store: Store, sql: string): Promise<Record<string, JS>[]> {
  const rows: Record<string, JS>[] = [];
  for await (const chunk of (await store.connection.stream(sql)).yieldRowObjectJs()) {
    for (const row of chunk) rows.push(row);
  }
  return rows;
}
