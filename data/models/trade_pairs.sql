-- trade_pairs: one row per trade and jurisdiction with contracts dated in the year to the run's day, with
-- how concentrated the holders are. The routes add the counts that move with the clock (open tenders,
-- contracts ending, planned this quarter) from the tenders and signals tables.
INSERT INTO trade_pairs BY NAME
WITH run AS (
  SELECT (run_at AT TIME ZONE 'Australia/Sydney')::DATE AS today FROM run_context
),
year_awards AS (
  SELECT a.trade, a.jurisdiction,
         -- A holder is its ABN when published, else its name as published (case and spacing ignored).
         coalesce(a.supplier_key, 'name:' || lower(trim(a.supplier))) AS holder,
         run.today - 364 AS year_from, run.today AS year_to
  FROM awards a, run
  -- Contracts without a trade cannot be placed on a trade page; the year is the 365 days ending on the run's
  -- day, and a contract is dated by its award_day (awarded, else started, else first collected).
  WHERE a.trade IS NOT NULL AND a.award_day BETWEEN run.today - 364 AND run.today
),
holder_counts AS (
  SELECT trade, jurisdiction, holder, count(*) AS awards
  FROM year_awards
  -- Contracts naming no supplier count towards the year but not towards any holder's share.
  WHERE holder IS NOT NULL
  GROUP BY ALL
),
holders AS (
  SELECT *, row_number() OVER (PARTITION BY trade, jurisdiction ORDER BY awards DESC, holder) AS rank
  FROM holder_counts
),
concentration AS (
  SELECT trade, jurisdiction, count(*) AS suppliers, sum(awards) AS held,
         sum(awards) FILTER (WHERE rank = 1) AS top1, sum(awards) FILTER (WHERE rank <= 5) AS top5
  FROM holders
  GROUP BY ALL
)
SELECT y.trade, y.jurisdiction, any_value(y.year_from) AS year_from, any_value(y.year_to) AS year_to,
       count(*)::INTEGER AS year_awards,
       coalesce(any_value(c.suppliers), 0)::INTEGER AS suppliers,
       any_value(c.top1 / c.held) AS top_supplier_share,
       any_value(c.top5 / c.held) AS top_five_share
FROM year_awards y
LEFT JOIN concentration c USING (trade, jurisdiction)
GROUP BY y.trade, y.jurisdiction
ORDER BY y.trade, y.jurisdiction;
