-- trade_suppliers: the ten holders with the most contracts of a trade in a jurisdiction, over the year to the
-- run's day, with their share of the contracts that name a supplier. Names are for identified callers only.
INSERT INTO trade_suppliers BY NAME
WITH run AS (
  SELECT (run_at AT TIME ZONE 'Australia/Sydney')::DATE AS today FROM run_context
),
year_awards AS (
  -- A holder is its ABN when published, else its name as published (case and spacing ignored).
  SELECT a.*, coalesce(a.supplier_key, 'name:' || lower(trim(a.supplier))) AS holder
  FROM awards a, run
  -- The same year as trade_pairs; a contract naming no supplier has no holder to rank.
  WHERE a.trade IS NOT NULL AND a.award_day BETWEEN run.today - 364 AND run.today AND a.supplier IS NOT NULL
),
by_currency AS (
  SELECT trade, jurisdiction, holder, value_currency, any_value(supplier_key) AS supplier_key, mode(supplier) AS supplier,
         count(*) AS awards, sum(value_amount) AS value_total
  FROM year_awards
  GROUP BY ALL
),
holders AS (
  -- A holder paid in two currencies keeps its main currency's total: values are never converted or mixed.
  SELECT trade, jurisdiction, holder, any_value(supplier_key) AS supplier_key, arg_max(supplier, awards) AS supplier,
         sum(awards) AS awards, arg_max(value_total, awards) AS value_total, arg_max(value_currency, awards) AS value_currency
  FROM by_currency
  GROUP BY ALL
),
ranked AS (
  SELECT *, row_number() OVER (PARTITION BY trade, jurisdiction ORDER BY awards DESC, holder) AS rank,
         awards / sum(awards) OVER (PARTITION BY trade, jurisdiction) AS share
  FROM holders
)
SELECT trade, jurisdiction, supplier_key, supplier, awards::INTEGER AS awards, share,
       value_total::DECIMAL(18,2) AS value_total, value_currency, rank::INTEGER AS rank
FROM ranked
-- The ten biggest are enough for a page and for the names identified callers see.
WHERE rank <= 10
ORDER BY trade, jurisdiction, rank;
