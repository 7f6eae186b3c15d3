-- sources: the registry row of every adapter with tonight's outcome. Counts are over the release's rows
-- (carried-forward rows included), so a stale source still shows what it serves. A snapshot source whose
-- files all answered 304 is `ok`: the rows it serves are the register as it stands.
INSERT INTO sources BY NAME
WITH run AS (SELECT * FROM run_context),
tender_counts AS (
  SELECT source, count(*) AS tender_count, count(*) FILTER (WHERE stale) AS stale_rows
  FROM tenders GROUP BY source
),
award_counts AS (
  SELECT source, count(*) AS award_count, count(*) FILTER (WHERE stale) AS stale_rows
  FROM awards GROUP BY source
),
plan_counts AS (
  SELECT source, count(*) AS plan_count, count(*) FILTER (WHERE stale) AS stale_rows
  FROM plans GROUP BY source
),
reference_counts AS (
  SELECT source, count(*) AS reference_count, count(*) FILTER (WHERE stale) AS stale_rows
  FROM (SELECT source, stale FROM companies UNION ALL SELECT source, stale FROM abn_entities UNION ALL SELECT source, stale FROM sanctions_entries)
  GROUP BY source
),
reference_changes AS (
  -- for a register, "new" is an entry first listed tonight, "updated" an entry whose name, status or ABN
  -- changed, and "closed" an entry that left the register (judged against the previous release)
  SELECT source, sum(records_new) AS records_new, sum(records_updated) AS records_updated, sum(records_closed) AS records_closed
  FROM (
    SELECT coalesce(c.source, p.source) AS source,
      count(*) FILTER (WHERE p.acn IS NULL) AS records_new,
      count(*) FILTER (WHERE c.acn IS NOT NULL AND p.acn IS NOT NULL
        AND (c.name <> p.name OR c.status <> p.status OR c.abn IS DISTINCT FROM p.abn OR c.deregistered_date IS DISTINCT FROM p.deregistered_date)) AS records_updated,
      count(*) FILTER (WHERE c.acn IS NULL) AS records_closed
    FROM companies c FULL JOIN prev_companies p ON p.source = c.source AND p.acn = c.acn
    GROUP BY 1
    UNION ALL
    SELECT coalesce(a.source, p.source) AS source,
      count(*) FILTER (WHERE p.abn IS NULL) AS records_new,
      count(*) FILTER (WHERE a.abn IS NOT NULL AND p.abn IS NOT NULL
        AND (a.abn_status <> p.abn_status OR a.name IS DISTINCT FROM p.name OR a.gst_status IS DISTINCT FROM p.gst_status
             OR a.entity_type_code <> p.entity_type_code OR a.state IS DISTINCT FROM p.state)) AS records_updated,
      count(*) FILTER (WHERE a.abn IS NULL) AS records_closed
    FROM abn_entities a FULL JOIN prev_abn_entities p ON p.source = a.source AND p.abn = a.abn
    GROUP BY 1
    UNION ALL
    -- a sanctions list's "updated" is a party whose names, dates of birth or programmes changed
    SELECT coalesce(e.source, p.source) AS source,
      count(*) FILTER (WHERE p.entry_id IS NULL) AS records_new,
      count(*) FILTER (WHERE e.entry_id IS NOT NULL AND p.entry_id IS NOT NULL
        AND (e.name <> p.name OR e.aliases <> p.aliases OR e.dates_of_birth <> p.dates_of_birth OR e.programmes <> p.programmes)) AS records_updated,
      count(*) FILTER (WHERE e.entry_id IS NULL) AS records_closed
    FROM sanctions_entries e FULL JOIN prev_sanctions_entries p ON p.source = e.source AND p.entry_id = e.entry_id
    GROUP BY 1
  )
  GROUP BY source
),
plan_changes AS (
  SELECT t.source, count(*) FILTER (WHERE p.plan_id IS NULL) AS records_new,
    count(*) FILTER (WHERE p.plan_id IS NOT NULL AND t.last_seen = run.run_at
      AND (t.status IS DISTINCT FROM p.status OR t.window_start IS DISTINCT FROM p.window_start OR t.released <> p.released OR t.withdrawn <> p.withdrawn)) AS records_updated
  FROM plans t CROSS JOIN run LEFT JOIN prev_plans p ON p.source = t.source AND p.plan_id = t.plan_id
  GROUP BY t.source
),
tender_changes AS (
  SELECT
    t.source,
    -- judged against the previous release, not by timestamps, so two runs on one pinned clock still count right
    count(*) FILTER (WHERE p.tender_key IS NULL) AS records_new,
    count(*) FILTER (WHERE p.tender_key IS NOT NULL AND t.last_seen = run.run_at AND t.content_hash <> p.content_hash) AS records_updated,
    -- closed: open at the previous run, and tonight either past its closing day or no longer listed by a
    -- source that answered (a stale source's rows are not counted: we cannot tell)
    count(*) FILTER (WHERE p.tender_key IS NOT NULL
      AND (p.closing_date IS NULL OR p.closing_date >= CAST(timezone(z.time_zone, run.previous_run_at) AS DATE))
      AND ((t.closing_date IS NOT NULL AND t.closing_date < CAST(timezone(z.time_zone, run.run_at) AS DATE))
           OR (t.last_seen < run.run_at AND NOT t.stale AND p.last_seen = run.previous_run_at))) AS records_closed
  FROM tenders t
  CROSS JOIN run
  JOIN jurisdiction_zones z ON z.jurisdiction = t.jurisdiction
  LEFT JOIN prev_tenders p USING (tender_key)
  GROUP BY t.source
),
award_changes AS (
  -- for award sources, "new" is a new contract and "updated" an amendment received tonight
  SELECT a.source,
    count(*) FILTER (WHERE a.amendment_id IS NULL) AS records_new,
    count(*) FILTER (WHERE a.amendment_id IS NOT NULL) AS records_updated
  FROM award_releases a
  ANTI JOIN prev_award_releases p ON p.source = a.source AND p.release_id = a.release_id
  GROUP BY a.source
)
SELECT
  rs.id, rs.tag, rs.name, rs.jurisdiction, rs.tier, rs.kinds, rs.mode, rs.refresh, rs.homepage, rs.licence, rs.attribution, rs.caveats,
  CASE
    WHEN NOT rs.attempted THEN coalesce(p.status, 'not_run')
    WHEN rs.refused IS NOT NULL THEN rs.refused
    WHEN rs.failed AND coalesce(tc.stale_rows, 0) + coalesce(ac.stale_rows, 0) + coalesce(pc.stale_rows, 0) + coalesce(rc.stale_rows, 0) > 0 THEN 'stale'
    WHEN rs.failed THEN 'error'
    WHEN rs.not_modified_since IS NOT NULL THEN 'ok'
    WHEN rs.records = 0 THEN 'empty'
    ELSE 'ok'
  END AS status,
  CASE
    WHEN NOT rs.attempted THEN coalesce(p.why, 'not crawled yet')
    WHEN rs.refused IS NOT NULL THEN rs.diagnosis
    WHEN rs.failed AND coalesce(tc.stale_rows, 0) + coalesce(ac.stale_rows, 0) + coalesce(pc.stale_rows, 0) + coalesce(rc.stale_rows, 0) > 0
      THEN rs.diagnosis || '; serving rows from the run of ' || strftime(p.last_success_at, '%Y-%m-%d %H:%M UTC')
    WHEN rs.failed THEN rs.diagnosis
    WHEN rs.not_modified_since IS NOT NULL THEN 'not modified since ' || strftime(rs.not_modified_since, '%Y-%m-%d %H:%M UTC')
    WHEN rs.records = 0 THEN coalesce(rs.diagnosis, 'the source answered but listed no records')
    ELSE NULL
  END AS why,
  coalesce(tc.tender_count, 0) AS tender_count,
  coalesce(ac.award_count, 0) AS award_count,
  coalesce(pc.plan_count, 0) AS plan_count,
  coalesce(rc.reference_count, 0) AS reference_count,
  CASE WHEN rs.attempted THEN run.run_at ELSE p.last_run_at END AS last_run_at,
  CASE WHEN rs.attempted AND NOT rs.failed AND rs.refused IS NULL THEN run.run_at ELSE p.last_success_at END AS last_success_at,
  CASE WHEN rs.attempted THEN coalesce(tch.records_new, 0) + coalesce(ach.records_new, 0) + coalesce(pch.records_new, 0) + coalesce(rch.records_new, 0) ELSE 0 END AS records_new,
  CASE WHEN rs.attempted THEN coalesce(tch.records_updated, 0) + coalesce(ach.records_updated, 0) + coalesce(pch.records_updated, 0) + coalesce(rch.records_updated, 0) ELSE 0 END AS records_updated,
  CASE WHEN rs.attempted THEN coalesce(tch.records_closed, 0) + coalesce(rch.records_closed, 0) ELSE 0 END AS records_closed,
  rs.invalid AS records_invalid,
  rs.pages,
  rs.errors,
  rs.duration_ms
FROM run_sources rs
CROSS JOIN run
LEFT JOIN prev_sources p ON p.id = rs.id
LEFT JOIN tender_counts tc ON tc.source = rs.id
LEFT JOIN award_counts ac ON ac.source = rs.id
LEFT JOIN tender_changes tch ON tch.source = rs.id
LEFT JOIN award_changes ach ON ach.source = rs.id
LEFT JOIN plan_counts pc ON pc.source = rs.id
LEFT JOIN plan_changes pch ON pch.source = rs.id
LEFT JOIN reference_counts rc ON rc.source = rs.id
LEFT JOIN reference_changes rch ON rch.source = rs.id;
