-- awards: one row per contract. An amendment chain (CN123, CN123-A1, CN123-A2) counts once, at its latest
-- value: AusTender publishes each amendment's value as the contract now stands, so summing double-counts.
-- Values and currencies are kept as published, never converted.
INSERT INTO awards BY NAME
WITH chained AS (
  SELECT *, regexp_replace(contract_id, '-A[0-9]+$', '') AS chain_id
  FROM award_releases
),
ranked AS (
  SELECT
    *,
    row_number() OVER (PARTITION BY source, chain_id ORDER BY release_date DESC, release_id DESC) AS latest_rank,
    count(amendment_id) OVER (PARTITION BY source, chain_id) AS chain_amendments,
    first_value(value_amount) OVER (PARTITION BY source, chain_id ORDER BY release_date, release_id) AS chain_original_value,
    min(first_seen) OVER (PARTITION BY source, chain_id) AS chain_first_seen
  FROM chained
)
SELECT
  r.source,
  r.chain_id AS contract_id,
  r.ocid,
  r.release_id AS latest_release_id,
  r.jurisdiction,
  r.buyer,
  buyer_key(r.jurisdiction, r.buyer) AS buyer_key,
  r.buyer_id,
  r.supplier,
  r.supplier_abn,
  r.supplier_id,
  -- the ABN when published; else an identifier the source gives in an org-id scheme (`AU-ACN-…`, `NZ-NZBN:…`),
  -- written `<scheme>:<id>`; a source's own party ids (AusTender's hex ids, EXEMPTUUID-…) identify no entity
  CASE
    WHEN r.supplier_abn IS NOT NULL THEN 'AU-ABN:' || r.supplier_abn
    WHEN regexp_matches(r.supplier_id, '^[A-Z]{2}-[A-Z]{2,8}[-:][A-Za-z0-9]+$') THEN regexp_replace(r.supplier_id, '^([A-Z]{2}-[A-Z]{2,8})[-:]', '\1:')
  END AS supplier_key,
  r.title,
  r.description,
  r.value_amount,
  r.value_currency,
  r.chain_original_value AS original_value_amount,
  r.chain_amendments AS amendment_count,
  r.awarded_date,
  r.start_date,
  r.end_date,
  r.categories,
  r.trade,
  r.procurement_method,
  r.url,
  r.chain_first_seen AS first_seen,
  r.release_date AS last_changed,
  coalesce(rs.failed, false) AS stale
FROM ranked r
LEFT JOIN run_sources rs ON rs.id = r.source AND rs.attempted
WHERE r.latest_rank = 1
-- stored in buyer order, so a buyer's awards sit together and a filter on buyer_key skips most of the table
ORDER BY buyer_key, awarded_date DESC, contract_id;
