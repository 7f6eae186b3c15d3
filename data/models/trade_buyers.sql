-- trade_buyers: who buys a trade in a jurisdiction: contracts dated in the year to the run's day per buyer
-- (one row per buyer spelling and currency; values as published, never converted).
INSERT INTO trade_buyers BY NAME
WITH run AS (
  SELECT (run_at AT TIME ZONE 'Australia/Sydney')::DATE AS today FROM run_context
)
SELECT a.trade, a.jurisdiction, a.buyer_key, any_value(a.buyer) AS buyer, count(*)::INTEGER AS awards,
       sum(a.value_amount)::DECIMAL(18,2) AS value_total, a.value_currency
FROM awards a, run
-- The same year as trade_pairs: contracts with a trade whose award_day is in the 365 days ending on the run's day.
WHERE a.trade IS NOT NULL AND a.award_day BETWEEN run.today - 364 AND run.today
GROUP BY a.trade, a.jurisdiction, a.buyer_key, a.value_currency
ORDER BY a.trade, a.jurisdiction, awards DESC, a.buyer_key;
