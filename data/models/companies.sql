-- companies: one row per (source, ACN). The register lists a company once per name it has had, marking the
-- current one; those rows are folded here into the current name and a sorted list of former names.
-- A snapshot, not a merge: a source that delivered a file tonight replaces all its rows; one whose files
-- answered 304 keeps the last release's rows as they are, and one that failed keeps them marked stale.
INSERT INTO companies BY NAME
WITH run AS (SELECT run_at FROM run_context),
replaced AS (
  SELECT id AS source FROM run_sources WHERE attempted AND NOT failed AND refused IS NULL AND not_modified_since IS NULL
),
folded AS (
  SELECT
    source,
    acn,
    -- the name on the row marked current; else the current name the former-name rows point to
    coalesce(min(name) FILTER (WHERE is_current_name), min(current_name), min(name)) AS name,
    list(DISTINCT name) AS names,
    max(current_name_start_date) AS name_start_date,
    -- the company's fields come from its current-name row where rows disagree
    first(type ORDER BY is_current_name DESC, name) AS type,
    first(class ORDER BY is_current_name DESC, name) AS class,
    first(sub_class ORDER BY is_current_name DESC, name) AS sub_class,
    first(status ORDER BY is_current_name DESC, name) AS status,
    first(registered_date ORDER BY is_current_name DESC, name) AS registered_date,
    first(deregistered_date ORDER BY is_current_name DESC, name) AS deregistered_date,
    first(previous_state ORDER BY is_current_name DESC, name) AS previous_state,
    first(state_registration_number ORDER BY is_current_name DESC, name) AS state_registration_number,
    -- the ABN is blank on some rows: any row that has one is better than none
    first(abn ORDER BY abn IS NULL, is_current_name DESC, name) AS abn,
    max(as_of) AS as_of,
    first(url ORDER BY is_current_name DESC, name) AS url
  FROM staged_companies
  WHERE source IN (SELECT source FROM replaced)
  GROUP BY source, acn
)
SELECT
  f.* EXCLUDE (names),
  list_sort(list_filter(f.names, lambda n: n <> f.name)) AS former_names,
  -- the usual ASIC meanings of the status codes (the register's help file was not captured to confirm them)
  CASE f.status
    WHEN 'REGD' THEN 'registered'
    WHEN 'DRGD' THEN 'deregistered'
    WHEN 'EXAD' THEN 'under external administration'
    WHEN 'SOFF' THEN 'strike-off action in progress'
    WHEN 'NOAC' THEN 'not active'
  END AS status_meaning,
  coalesce(p.first_seen, run.run_at) AS first_seen,
  false AS stale
FROM folded f
CROSS JOIN run
LEFT JOIN prev_companies p ON p.source = f.source AND p.acn = f.acn
UNION ALL BY NAME
SELECT p.* REPLACE (CASE WHEN rs.not_modified_since IS NOT NULL THEN false ELSE coalesce(rs.failed, p.stale) END AS stale)
FROM prev_companies p
LEFT JOIN run_sources rs ON rs.id = p.source AND rs.attempted
WHERE p.source NOT IN (SELECT source FROM replaced);
