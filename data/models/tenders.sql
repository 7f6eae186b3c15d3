-- tenders: one row per tender_key. Tonight's records are merged with the previous release so that
-- first_seen survives from night to night, and tenders that left their source's listing (closed,
-- withdrawn) stay readable by key.
INSERT INTO tenders BY NAME
WITH run AS (SELECT run_at FROM run_context),
tonight AS (
  -- a notice listed twice in one night (same key) counts once: keep the most recently published copy
  SELECT * FROM staged_tenders
  QUALIFY row_number() OVER (PARTITION BY tender_key ORDER BY published_date DESC NULLS LAST, url) = 1
)
SELECT
  t.*,
  buyer_key(t.jurisdiction, t.buyer) AS buyer_key,
  coalesce(p.first_seen, run.run_at) AS first_seen,
  run.run_at AS last_seen,
  -- a date change is a change against the previous night's value; a first sighting is "new", not "changed"
  CASE
    WHEN p.tender_key IS NULL THEN NULL
    WHEN p.closing_date IS DISTINCT FROM t.closing_date OR p.published_date IS DISTINCT FROM t.published_date THEN run.run_at
    ELSE p.dates_changed_at
  END AS dates_changed_at,
  false AS stale
FROM tonight t
CROSS JOIN run
LEFT JOIN prev_tenders p USING (tender_key)
UNION ALL BY NAME
-- not seen tonight: carried forward as they were. Stale when their source failed tonight (last_seen then
-- tells the last good run); a source that answered but no longer lists a tender does not make it stale.
-- The buyer key is recomputed: a release written before the key existed carries none.
SELECT p.* REPLACE (coalesce(rs.failed, p.stale) AS stale, buyer_key(p.jurisdiction, p.buyer) AS buyer_key)
FROM prev_tenders p
LEFT JOIN run_sources rs ON rs.id = p.source AND rs.attempted
WHERE p.tender_key NOT IN (SELECT tender_key FROM tonight);
