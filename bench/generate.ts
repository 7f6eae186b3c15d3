import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore, sqlString } from '../data/store.ts';
import { TRADES } from '../lib/trades.ts';

export interface SyntheticScale {
  tenders: number;
  awards: number;
  /** Procurement plan rows (annual plans and forward notices). */
  plans: number;
}

/** DESIGN.md §8: about 1M awards, 50k tenders, 100k plan rows. */
export const PRODUCTION_SCALE: SyntheticScale = { tenders: 50_000, awards: 1_000_000, plans: 100_000 };

/** Issue 30 §3, all of history: AusTender since 2007 plus the states, amendments included. */
export const HISTORY_SCALE: SyntheticScale = { tenders: 200_000, awards: 5_000_000, plans: 100_000 };

/**
 * Writes seeded synthetic staging files (the crawl stage's output format) at the given scale. Values come
 * from hash(row number, seed), so every run generates identical data. About 5% of award releases are
 * amendments of earlier contracts, as on AusTender. Awards, like tenders, spread over every jurisdiction so
 * each state × trade page has contracts; plans carry a parseable quarter window on four rows in five, and
 * one in fifty is withdrawn.
 */
export async function generateStaging(stagingDir: string, scale: SyntheticScale, seed = 42): Promise<void> {
  await mkdir(stagingDir, { recursive: true });
  const store = await openStore(':memory:');
  const pick = (list: string[], expr: string) => `[${list.map(sqlString).join(', ')}][(1 + (${expr}) % ${list.length})::BIGINT]`;
  const words = ['road', 'bridge', 'cleaning', 'software', 'consulting', 'drainage', 'security', 'catering', 'fleet', 'audit', 'training', 'legal', 'design', 'maintenance', 'network', 'water', 'waste', 'medical', 'furniture', 'printing'];
  const buyers = Array.from({ length: 400 }, (_, i) => `Synthetic Agency ${i + 1}`);
  const jurisdictions = ['AU', 'AU-NSW', 'AU-VIC', 'AU-QLD', 'AU-WA', 'AU-SA', 'AU-TAS', 'AU-ACT', 'AU-NT', 'NZ'];
  const h = (salt: number) => `hash(i, ${seed + salt})`;
  // The crawl stage assigns each record a trade; staging written here skips it, so trades are drawn too
  // (one record in ten without one, as titles nothing matches).
  const trade = (salt: number) => `CASE WHEN ${h(salt)} % 10 = 0 THEN NULL ELSE ${pick(TRADES.map((t) => t.id), h(salt + 100))} END`;
  try {
    await store.exec(`COPY (
      SELECT
        substr(md5(i::VARCHAR || '-${seed}'), 1, 32) AS tender_key,
        'bench_source_' || (i % 3) AS source, 'B' || (i % 3) AS source_tag,
        CASE WHEN i % 10 = 0 THEN 'grant' ELSE 'tender' END AS kind,
        upper(${pick(words, h(1))}[1]) || ${pick(words, h(1))}[2:] || ' ' || ${pick(words, h(2))} || ' services ' || i AS title,
        ${pick(buyers, h(3))} AS buyer,
        'REF-' || i AS reference,
        ${pick(jurisdictions, h(4))} AS jurisdiction,
        'state' AS tier,
        'Provision of ' || ${pick(words, h(5))} || ' and ' || ${pick(words, h(6))} || ' for the ' || ${pick(buyers, h(3))} AS summary,
        (80000000 + (${h(7)} % 1000) * 100)::VARCHAR AS category, NULL AS category_name, 'Request for Tender' AS notice_type,
        (DATE '2026-09-25' - ((${h(8)} % 60)::INTEGER))::VARCHAR AS published_date,
        CASE WHEN i % 25 = 0 THEN NULL ELSE (DATE '2026-09-25' + ((${h(9)} % 150)::INTEGER - 20))::VARCHAR END AS closing_date,
        NULL AS closing_at, NULL AS value_text,
        'https://tenders.example.gov.au/t/' || i AS url, 'https://tenders.example.gov.au/list' AS listing_url,
        substr(md5(i::VARCHAR), 1, 16) AS content_hash,
        ${trade(18)} AS trade
      FROM range(${scale.tenders}) t(i)
    ) TO ${sqlString(join(stagingDir, 'bench.tenders.ndjson'))} (FORMAT json)`);
    await store.exec(`COPY (
      SELECT
        'bench_awards' AS source,
        'prod-' || md5((CASE WHEN amended THEN base ELSE i END)::VARCHAR) AS ocid,
        'prod-' || md5(i::VARCHAR) AS release_id,
        (TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_seconds((${h(10)} % 86400000)::BIGINT))::VARCHAR AS release_date,
        CASE WHEN amended THEN 'contractAmendment' ELSE 'contract' END AS release_tag,
        'CN' || (1000000 + CASE WHEN amended THEN base ELSE i END) || CASE WHEN amended THEN '-A1' ELSE '' END AS contract_id,
        CASE WHEN amended THEN 'CN' || (1000000 + base) || '-A1' END AS amendment_id,
        CASE WHEN amended THEN 'prod-' || md5(base::VARCHAR) END AS amends_release_id,
        ${pick(jurisdictions, h(20))} AS jurisdiction,
        ${pick(buyers, h(11))} AS buyer, NULL AS buyer_id,
        'Supplier ' || (${h(12)} % 20000) || ' Pty Ltd' AS supplier,
        lpad(((${h(12)} % 20000) + 10000000000)::VARCHAR, 11, '0') AS supplier_abn, NULL AS supplier_id,
        ${pick(words, h(13))} || ' contract ' || i AS title, NULL AS description,
        ((${h(14)} % 5000000) + 1000)::VARCHAR || '.00' AS value_amount, 'AUD' AS value_currency,
        (DATE '2019-01-01' + ((${h(15)} % 2800)::INTEGER))::VARCHAR AS awarded_date,
        (DATE '2019-01-02' + ((${h(15)} % 2800)::INTEGER))::VARCHAR AS start_date,
        (DATE '2020-01-01' + ((${h(16)} % 3000)::INTEGER))::VARCHAR AS end_date,
        [(72000000 + (${h(17)} % 500) * 100)::VARCHAR] AS categories,
        'open' AS procurement_method,
        'https://api.tenders.gov.au/ocds/findById/CN' || (1000000 + i) AS url,
        ${trade(19)} AS trade
      FROM (SELECT i, i % 20 = 0 AND i > 0 AS amended, i - 1 AS base FROM range(${scale.awards}) t(i))
    ) TO ${sqlString(join(stagingDir, 'bench.awards.ndjson'))} (FORMAT json)`);
    await store.exec(`COPY (
      SELECT
        'bench_plans' AS source,
        'PLAN-' || i AS plan_id,
        upper(${pick(words, h(30))}[1]) || ${pick(words, h(30))}[2:] || ' ' || ${pick(words, h(31))} || ' program ' || i AS title,
        ${pick(buyers, h(32))} AS buyer,
        ${pick(jurisdictions, h(33))} AS jurisdiction,
        'state' AS tier,
        'Planned procurement of ' || ${pick(words, h(30))} || ' services' AS description,
        (80000000 + (${h(34)} % 1000) * 100)::VARCHAR AS category, NULL AS category_name,
        CASE WHEN q IS NULL THEN 'To be confirmed' ELSE 'Q' || (quarter(q)) || ' ' || year(q) END AS expected_period_text,
        q::VARCHAR AS window_start,
        (q + INTERVAL 3 MONTH - INTERVAL 1 DAY)::DATE::VARCHAR AS window_end,
        CASE WHEN ${h(35)} % 3 = 0 THEN '$' || ((${h(36)} % 5000) * 1000) END AS value_text,
        CASE WHEN ${h(37)} % 50 = 0 THEN 'Withdrawn' WHEN ${h(37)} % 7 = 0 THEN 'Released' ELSE 'Current' END AS status,
        ${h(37)} % 7 = 0 AND ${h(37)} % 50 <> 0 AS released,
        ${h(37)} % 50 = 0 AS withdrawn,
        (DATE '2026-07-01' + ((${h(38)} % 80)::INTEGER))::VARCHAR AS published_date,
        'https://plans.example.gov.au/p/' || i AS url,
        ${trade(39)} AS trade
      FROM (SELECT i, CASE WHEN ${h(40)} % 5 = 0 THEN NULL ELSE date_trunc('quarter', DATE '2026-07-01' + ((${h(41)} % 6) * 91)::INTEGER) END AS q FROM range(${scale.plans}) t(i))
    ) TO ${sqlString(join(stagingDir, 'bench.plans.ndjson'))} (FORMAT json)`);
  } finally {
    store.close();
  }
}
