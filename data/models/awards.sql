-- awards: one row per contract. An amendment chain (CN123 and its amendments CN123-A1, CN123-A2) counts once,
-- at its latest value: AusTender publishes each amendment's value as the contract now stands, so summing
-- double-counts. Values and currencies are kept as published, never converted.
--
-- A chain's latest release is its highest-numbered amendment. The number is read from the amendment id
-- (`CN3707521-A6` is 6), because AusTender gives every amendment of a chain the same release date and a random
-- hex release id, so neither says which came last. Any amendment is later than the original; amendments
-- without a number rank below the numbered ones; ties and unnumbered releases (every release of a register
-- that publishes no amendments) fall back to the later release date, then the greater release id. The chain's
-- original value is that of the earliest release in the same order.
--
-- award_day is the one day every model, the API and the Parquet `year` date an award by: the awarded date,
-- else the start date, else the day it was first collected in the buyer's time zone (some registers publish
-- no award date, and an award left undated would drop out of every window and year filter).
INSERT INTO awards BY NAME
WITH chained AS (
  SELECT
    *,
    regexp_replace(contract_id, '-A[0-9]+$', '') AS chain_id,
    TRY_CAST(regexp_extract(amendment_id, '-A([0-9]+)$', 1) AS INTEGER) AS amendment_number
  FROM award_releases
),
ranked AS (
  SELECT
    *,
    row_number() OVER newest_first AS latest_rank,
    count(amendment_id) OVER chain AS chain_amendments,
    last_value(value_amount) OVER (newest_first ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS chain_original_value,
    min(first_seen) OVER chain AS chain_first_seen
  FROM chained
  WINDOW
    chain AS (PARTITION BY source, chain_id),
    newest_first AS (PARTITION BY source, chain_id ORDER BY amendment_id IS NOT NULL DESC, amendment_number DESC NULLS LAST, release_date DESC, release_id DESC)
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
  r.reference,
  r.description,
  r.value_amount,
  r.value_currency,
  r.chain_original_value AS original_value_amount,
  r.chain_amendments AS amendment_count,
  r.awarded_date,
  r.start_date,
  r.end_date,
  coalesce(r.awarded_date, r.start_date, (r.chain_first_seen AT TIME ZONE z.time_zone)::DATE) AS award_day,
  r.categories,
  r.trade,
  r.procurement_method,
  r.procurement_method_details,
  r.url,
  r.chain_first_seen AS first_seen,
  r.release_date AS last_changed,
  coalesce(rs.failed, false) AS stale
FROM ranked r
LEFT JOIN run_sources rs ON rs.id = r.source AND rs.attempted
-- a jurisdiction without a zone leaves award_day NULL, which its NOT NULL refuses: the run fails loudly
LEFT JOIN jurisdiction_zones z ON z.jurisdiction = r.jurisdiction
WHERE r.latest_rank = 1
-- stored in buyer order, so a buyer's awards sit together and a filter on buyer_key skips most of the table
ORDER BY buyer_key, awarded_date DESC, contract_id;
