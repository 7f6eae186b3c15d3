-- award_releases: every contract release ever collected, originals and amendments alike. Releases are
-- immutable, so the previous release's rows are kept and only releases not held before are added
-- (the OCDS window overlaps the previous night on purpose).
-- The procurement method is kept as published in procurement_method_details and coded in procurement_method
-- (the OCDS method codelist); a release kept from a store written before the split carries its published
-- text in procurement_method.
INSERT INTO award_releases BY NAME
WITH collected AS (
  SELECT * FROM prev_award_releases
  UNION ALL BY NAME
  SELECT s.*, run.run_at AS first_seen
  FROM (
    SELECT * FROM staged_awards
    -- one release may arrive on two pages when the API's window shifts under a cursor: keep one copy
    QUALIFY row_number() OVER (PARTITION BY source, release_id ORDER BY release_date DESC) = 1
  ) s
  CROSS JOIN run_context run
  ANTI JOIN prev_award_releases p ON p.source = s.source AND p.release_id = s.release_id
)
SELECT * REPLACE (
  procurement_method_code(coalesce(procurement_method_details, procurement_method)) AS procurement_method,
  coalesce(procurement_method_details, procurement_method) AS procurement_method_details
)
FROM collected;
