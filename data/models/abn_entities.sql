-- abn_entities: one row per (source, ABN). A snapshot like companies: a source that delivered its files tonight
-- replaces all its rows; 304 on every file keeps the last release's rows as they are; a failure keeps them stale.
INSERT INTO abn_entities BY NAME
WITH run AS (SELECT run_at FROM run_context),
replaced AS (
  SELECT id AS source FROM run_sources WHERE attempted AND NOT failed AND refused IS NULL AND not_modified_since IS NULL
),
tonight AS (
  SELECT * FROM staged_abns
  WHERE source IN (SELECT source FROM replaced)
  -- an ABN is listed once per extract; should two of its files both hold one, the later update wins
  QUALIFY row_number() OVER (PARTITION BY source, abn ORDER BY record_updated DESC NULLS LAST, as_of DESC) = 1
)
SELECT t.*, coalesce(p.first_seen, run.run_at) AS first_seen, false AS stale
FROM tonight t
CROSS JOIN run
LEFT JOIN prev_abn_entities p ON p.source = t.source AND p.abn = t.abn
UNION ALL BY NAME
SELECT p.* REPLACE (CASE WHEN rs.not_modified_since IS NOT NULL THEN false ELSE coalesce(rs.failed, p.stale) END AS stale)
FROM prev_abn_entities p
LEFT JOIN run_sources rs ON rs.id = p.source AND rs.attempted
WHERE p.source NOT IN (SELECT source FROM replaced);
