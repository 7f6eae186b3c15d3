-- tender_changes: the history of each tender across nights, one row per change of a tracked field. The
-- previous release's history is kept and tonight's differences from the previous night appended, so
-- "dates changed in the last N days" and a tender's timeline are read from here. A first sighting is
-- recorded as field `listed`, and a tender that left its source's listing (its source answered) as `delisted`.
INSERT INTO tender_changes BY NAME
WITH run AS (SELECT run_at FROM run_context),
tonight AS (
  SELECT * FROM staged_tenders
  QUALIFY row_number() OVER (PARTITION BY tender_key ORDER BY published_date DESC NULLS LAST, url) = 1
),
compared AS (
  SELECT t.tender_key, t.source, run.run_at AS changed_at, c.field, c.old_value, c.new_value
  FROM tonight t
  CROSS JOIN run
  JOIN prev_tenders p USING (tender_key)
  CROSS JOIN LATERAL (VALUES
    ('closing_date', p.closing_date::VARCHAR, t.closing_date::VARCHAR),
    ('closing_at', strftime(p.closing_at, '%Y-%m-%dT%H:%M:%SZ'), strftime(t.closing_at, '%Y-%m-%dT%H:%M:%SZ')),
    ('published_date', p.published_date::VARCHAR, t.published_date::VARCHAR),
    ('title', p.title, t.title),
    ('value_text', p.value_text, t.value_text)
  ) AS c(field, old_value, new_value)
  WHERE c.old_value IS DISTINCT FROM c.new_value
)
SELECT * FROM prev_tender_changes
UNION ALL BY NAME
SELECT * FROM compared
UNION ALL BY NAME
SELECT t.tender_key, t.source, run.run_at AS changed_at, 'listed' AS field, NULL AS old_value, t.closing_date::VARCHAR AS new_value
FROM tonight t CROSS JOIN run ANTI JOIN prev_tenders p USING (tender_key)
UNION ALL BY NAME
-- left the listing tonight: seen at the previous run, not tonight, and its source answered
SELECT p.tender_key, p.source, run.run_at AS changed_at, 'delisted' AS field, p.closing_date::VARCHAR AS old_value, NULL AS new_value
FROM prev_tenders p
CROSS JOIN run
CROSS JOIN run_context ctx
JOIN run_sources rs ON rs.id = p.source AND rs.attempted AND NOT rs.failed AND rs.refused IS NULL
ANTI JOIN tonight t USING (tender_key)
WHERE p.last_seen = ctx.previous_run_at;
