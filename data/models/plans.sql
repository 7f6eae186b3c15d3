-- plans: one row per (source, plan_id), merged across nights like tenders: first_seen survives, and a plan
-- that leaves its source's list stays readable. Withdrawn plans are kept with `withdrawn = true` so the
-- signal models can exclude them and say why.
INSERT INTO plans BY NAME
WITH run AS (SELECT run_at FROM run_context),
tonight AS (
  SELECT * FROM staged_plans
  QUALIFY row_number() OVER (PARTITION BY source, plan_id ORDER BY published_date DESC NULLS LAST, url) = 1
)
SELECT t.*, buyer_key(t.jurisdiction, t.buyer) AS buyer_key, coalesce(p.first_seen, run.run_at) AS first_seen, run.run_at AS last_seen, false AS stale
FROM tonight t
CROSS JOIN run
LEFT JOIN prev_plans p ON p.source = t.source AND p.plan_id = t.plan_id
UNION ALL BY NAME
-- the buyer key is recomputed: a release written before the key existed carries none
SELECT p.* REPLACE (coalesce(rs.failed, p.stale) AS stale, buyer_key(p.jurisdiction, p.buyer) AS buyer_key)
FROM prev_plans p
LEFT JOIN run_sources rs ON rs.id = p.source AND rs.attempted
ANTI JOIN tonight t ON t.source = p.source AND t.plan_id = p.plan_id;
