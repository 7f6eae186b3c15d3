-- signals: forward-looking signals of procurement, one row per signal, of three kinds.
--
--   contract_expiry      a contract ends: its window is the contract's end date (never invented); confidence
--                        `published`, because the end date is the buyer's own.
--   planned_procurement  a buyer says it will go to market: annual procurement plan entries and forward
--                        procurement notices. The window is the plan's expected period as parsed by the plans
--                        model; a period that cannot be read gives no window. Confidence `published`.
--   recurring_tender     the same buyer has bought the same trade at a regular interval, so it will likely buy
--                        again: confidence `derived` (our inference, not the buyer's word). The rule is below.
--
-- `quarter` is the calendar quarter the window starts in, e.g. 2026Q4 (null without a window).
-- Sorted by kind, trade, jurisdiction and window so the routes' filters read few row groups.
INSERT INTO signals BY NAME
WITH run AS (
  -- "Today" is the run's day in Sydney: the day the release's figures are true for.
  SELECT (run_at AT TIME ZONE 'Australia/Sydney')::DATE AS today FROM run_context
),
expiries AS (
  SELECT
    'exp-' || left(sha256(a.source || '|' || a.contract_id), 16) AS signal_id,
    'contract_expiry' AS kind,
    'published' AS confidence,
    a.jurisdiction, a.buyer, a.buyer_key,
    a.title AS subject,
    a.categories[1] AS category,
    a.trade,
    a.end_date AS window_start,
    a.end_date AS window_end,
    CASE WHEN a.value_amount IS NOT NULL THEN coalesce(a.value_currency || ' ', '') || a.value_amount::VARCHAR END AS value_text,
    a.value_amount, a.value_currency,
    a.contract_id AS evidence_ref,
    a.url AS evidence_url,
    a.supplier AS incumbent,
    '' AS status,
    false AS released,
    a.source,
    a.first_seen,
    NULL::INTEGER AS occurrences,
    NULL::INTEGER AS interval_days
  FROM awards a, run
  -- A contract that has already ended is no longer a signal of anything to come.
  WHERE a.end_date IS NOT NULL AND a.end_date >= run.today
),
plan_signals AS (
  SELECT
    'plan-' || left(sha256(p.source || '|' || p.plan_id), 16) AS signal_id,
    'planned_procurement' AS kind,
    'published' AS confidence,
    p.jurisdiction, p.buyer, p.buyer_key,
    p.title AS subject,
    p.category,
    p.trade,
    p.window_start,
    p.window_end,
    p.value_text,
    NULL::DECIMAL(18,2) AS value_amount, NULL AS value_currency,
    p.plan_id AS evidence_ref,
    p.url AS evidence_url,
    NULL AS incumbent,
    coalesce(p.status, '') AS status,
    p.released,
    p.source,
    p.first_seen,
    NULL::INTEGER AS occurrences,
    NULL::INTEGER AS interval_days
  FROM plans p
  -- A plan its agency withdrew is never returned (spec, Signal).
  WHERE NOT p.withdrawn
),
-- A forward procurement notice listed only as a tender (VendorPanel lists some) is a planned procurement too;
-- one the plans already hold (same buyer, same title once the "Forward Procurement Notice -" label is cut) is
-- not counted twice. Its period is not published in a form we parse, so it has no window.
forward_notices AS (
  SELECT t.*, lower(trim(regexp_replace(t.title, '^\s*forward procurement notice\s*[-–:]\s*', '', 'i'))) AS plain_title
  FROM tenders t
  WHERE t.notice_type ILIKE '%forward procurement notice%'
),
forward_signals AS (
  SELECT
    'plan-' || left(sha256(f.source || '|' || f.tender_key), 16) AS signal_id,
    'planned_procurement' AS kind,
    'published' AS confidence,
    f.jurisdiction, f.buyer, f.buyer_key,
    f.title AS subject,
    f.category,
    f.trade,
    NULL::DATE AS window_start,
    NULL::DATE AS window_end,
    f.value_text,
    NULL::DECIMAL(18,2) AS value_amount, NULL AS value_currency,
    coalesce(f.reference, f.tender_key) AS evidence_ref,
    f.url AS evidence_url,
    NULL AS incumbent,
    coalesce(f.notice_type, '') AS status,
    false AS released,
    f.source,
    f.first_seen,
    NULL::INTEGER AS occurrences,
    NULL::INTEGER AS interval_days
  FROM forward_notices f
  ANTI JOIN plans p ON p.buyer_key = f.buyer_key AND lower(trim(p.title)) = f.plain_title
),
-- Recurring tenders. The rule, in full (also in data/README.md):
--   1. History: the buyer's contracts (one buyer key, so one published spelling in one jurisdiction) in one
--      trade, dated by contract start (the award date when no start is published).
--   2. Contracts starting within 45 days of the previous one belong to the same round (lots, panels, a
--      contract and its sibling): a round is dated by its first start.
--   3. At least 3 rounds, so at least 2 intervals between round starts.
--   4. The median interval is between 180 days and 5 years: buying every few weeks is continuous supply,
--      not re-tendering, and a gap over five years is too long to call a cycle.
--   5. Regular: every interval is within 25% of the median.
--   6. Predicted next round = last round start + median interval; the window is that date ± the largest
--      deviation seen (at least 30 days: starts drift by weeks even in a steady cycle).
--   7. The window has not passed by the run's day (a missed cycle predicts nothing).
-- The evidence is the latest contract of the series (its id, link and holder).
-- Only the three columns the rule needs go through the window sorts (the costly part at a million contracts).
dated AS (
  SELECT DISTINCT buyer_key, trade, coalesce(start_date, awarded_date) AS event_date
  FROM awards
  WHERE trade IS NOT NULL AND buyer_key IS NOT NULL AND coalesce(start_date, awarded_date) IS NOT NULL
),
round_starts AS (
  SELECT buyer_key, trade, event_date AS round_start
  FROM dated
  QUALIFY event_date - lag(event_date) OVER (PARTITION BY buyer_key, trade ORDER BY event_date) > 45
       OR lag(event_date) OVER (PARTITION BY buyer_key, trade ORDER BY event_date) IS NULL
),
intervals AS (
  SELECT buyer_key, trade, round_start, round_start - lag(round_start) OVER (PARTITION BY buyer_key, trade ORDER BY round_start) AS interval_days
  FROM round_starts
),
series AS (
  SELECT buyer_key, trade, count(*) AS rounds, max(round_start) AS last_round, median(interval_days) AS median_days,
         list(interval_days) FILTER (WHERE interval_days IS NOT NULL) AS all_intervals
  FROM intervals
  GROUP BY ALL
  HAVING count(*) >= 3
),
regular AS (
  SELECT s.*, round(s.median_days)::INTEGER AS cycle_days,
         greatest(30, round(list_max(list_transform(s.all_intervals, x -> abs(x - s.median_days)))))::INTEGER AS spread_days
  FROM series s
  WHERE s.median_days BETWEEN 180 AND 1826
    AND list_max(list_transform(s.all_intervals, x -> abs(x - s.median_days))) <= 0.25 * s.median_days
),
-- The evidence: the latest contract of each qualifying series, and when its newest contract was first seen.
series_contracts AS (
  SELECT a.*, coalesce(a.start_date, a.awarded_date) AS event_date,
         max(a.first_seen) OVER (PARTITION BY a.buyer_key, a.trade) AS series_first_seen
  FROM awards a
  SEMI JOIN regular r ON r.buyer_key = a.buyer_key AND r.trade = a.trade
  WHERE coalesce(a.start_date, a.awarded_date) IS NOT NULL
),
latest_contract AS (
  SELECT * FROM series_contracts
  QUALIFY row_number() OVER (PARTITION BY buyer_key, trade ORDER BY event_date DESC, contract_id DESC) = 1
),
recurring_signals AS (
  SELECT
    'rec-' || left(sha256(r.buyer_key || '|' || r.trade), 16) AS signal_id,
    'recurring_tender' AS kind,
    'derived' AS confidence,
    c.jurisdiction, c.buyer, r.buyer_key,
    c.title AS subject,
    c.categories[1] AS category,
    r.trade,
    (r.last_round + r.cycle_days - r.spread_days)::DATE AS window_start,
    (r.last_round + r.cycle_days + r.spread_days)::DATE AS window_end,
    CASE WHEN c.value_amount IS NOT NULL THEN coalesce(c.value_currency || ' ', '') || c.value_amount::VARCHAR END AS value_text,
    c.value_amount, c.value_currency,
    c.contract_id AS evidence_ref,
    c.url AS evidence_url,
    c.supplier AS incumbent,
    '' AS status,
    false AS released,
    c.source,
    c.series_first_seen AS first_seen,
    r.rounds::INTEGER AS occurrences,
    r.cycle_days AS interval_days
  FROM regular r
  JOIN latest_contract c USING (buyer_key, trade)
  CROSS JOIN run
  WHERE (r.last_round + r.cycle_days + r.spread_days)::DATE >= run.today
),
all_signals AS (
  SELECT * FROM expiries
  UNION ALL BY NAME SELECT * FROM plan_signals
  UNION ALL BY NAME SELECT * FROM forward_signals
  UNION ALL BY NAME SELECT * FROM recurring_signals
)
SELECT *, CASE WHEN window_start IS NOT NULL THEN year(window_start) || 'Q' || quarter(window_start) END AS quarter
FROM all_signals
ORDER BY kind, trade, jurisdiction, window_start, signal_id;
