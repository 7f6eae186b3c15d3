-- buyers: one row per buyer key, i.e. one published spelling of a buying organisation in one jurisdiction
-- (no alias merging; case and whitespace are folded by the key). A buyer exists when any award, tender or
-- plan names it. "Today" is the run's day in the buyer's time zone.
INSERT INTO buyers BY NAME
WITH days AS (
  SELECT
    z.jurisdiction,
    z.time_zone,
    (r.run_at AT TIME ZONE z.time_zone)::DATE AS today,
    -- the award window: the three years up to the run day
    ((r.run_at AT TIME ZONE z.time_zone)::DATE - INTERVAL 3 YEAR)::DATE AS window_from
  FROM jurisdiction_zones z CROSS JOIN run_context r
),
mentions AS (
  SELECT buyer_key, jurisdiction, buyer AS name, source, first_seen FROM awards WHERE buyer_key IS NOT NULL
  UNION ALL
  SELECT buyer_key, jurisdiction, buyer, source, first_seen FROM tenders WHERE buyer_key IS NOT NULL
  UNION ALL
  SELECT buyer_key, jurisdiction, buyer, source, first_seen FROM plans WHERE buyer_key IS NOT NULL
),
spellings AS (
  -- the spelling published most often names the buyer; ties go to the first in sort order, so it is stable
  SELECT buyer_key, name
  FROM mentions
  GROUP BY buyer_key, name
  QUALIFY row_number() OVER (PARTITION BY buyer_key ORDER BY count(*) DESC, name) = 1
),
identity AS (
  SELECT
    m.buyer_key,
    any_value(m.jurisdiction) AS jurisdiction,
    min(m.first_seen) AS first_seen,
    list(DISTINCT m.source ORDER BY m.source) AS sources
  FROM mentions m
  GROUP BY m.buyer_key
),
dated_awards AS (
  SELECT
    a.buyer_key,
    a.value_amount,
    a.value_currency,
    a.end_date,
    a.award_day,
    d.today,
    d.window_from
  FROM awards a
  JOIN days d USING (jurisdiction)
  WHERE a.buyer_key IS NOT NULL
),
window_awards AS (
  -- awards dated after the run day are not in a window that ends on it
  SELECT * FROM dated_awards WHERE award_day BETWEEN window_from AND today
),
dominant_currency AS (
  -- values are never converted: the figures use the currency most of the buyer's valued awards are in
  SELECT buyer_key, value_currency
  FROM window_awards
  WHERE value_amount IS NOT NULL AND value_currency IS NOT NULL
  GROUP BY buyer_key, value_currency
  QUALIFY row_number() OVER (PARTITION BY buyer_key ORDER BY count(*) DESC, value_currency) = 1
),
award_figures AS (
  SELECT
    w.buyer_key,
    count(*) AS award_count,
    c.value_currency,
    count(w.value_amount) FILTER (WHERE w.value_currency = c.value_currency) AS value_count,
    quantile_cont(w.value_amount, 0.5) FILTER (WHERE w.value_currency = c.value_currency) AS median_value,
    quantile_cont(w.value_amount, 0.25) FILTER (WHERE w.value_currency = c.value_currency) AS p25_value,
    quantile_cont(w.value_amount, 0.75) FILTER (WHERE w.value_currency = c.value_currency) AS p75_value,
    sum(w.value_amount) FILTER (WHERE w.value_currency = c.value_currency) AS value_total
  FROM window_awards w
  LEFT JOIN dominant_currency c USING (buyer_key)
  GROUP BY w.buyer_key, c.value_currency
),
expiring AS (
  -- every contract held counts, however old: what matters is that it ends in the next 12 months
  SELECT buyer_key, count(*) AS expiring_12m
  FROM dated_awards
  WHERE end_date BETWEEN today AND (today + INTERVAL 12 MONTH)::DATE
  GROUP BY buyer_key
),
tender_figures AS (
  SELECT
    t.buyer_key,
    -- open as the spec says: no closing date, or closing today or later in the buyer's day; grant rounds are
    -- not procurement and do not count
    count(*) FILTER (WHERE t.kind = 'tender' AND (t.closing_date IS NULL OR t.closing_date >= d.today)) AS open_tenders,
    -- publication to close, over every tender held with both dates (a close before publication is a typo)
    median(t.closing_date - t.published_date) FILTER (WHERE t.kind = 'tender' AND t.closing_date >= t.published_date) AS median_response_days
  FROM tenders t
  JOIN days d USING (jurisdiction)
  WHERE t.buyer_key IS NOT NULL
  GROUP BY t.buyer_key
),
plan_figures AS (
  -- a withdrawn plan is never a signal; a plan with no readable window is not known to fall in the next 12
  -- months, so only plans whose window overlaps them count
  SELECT p.buyer_key, count(*) AS planned_12m
  FROM plans p
  JOIN days d USING (jurisdiction)
  WHERE p.buyer_key IS NOT NULL
    AND NOT p.withdrawn
    AND p.window_start <= (d.today + INTERVAL 12 MONTH)::DATE
    AND coalesce(p.window_end, p.window_start) >= d.today
  GROUP BY p.buyer_key
),
slugged AS (
  SELECT
    i.*,
    s.name,
    lower(i.jurisdiction) || '-' || trim(left(regexp_replace(lower(strip_accents(s.name)), '[^a-z0-9]+', '-', 'g'), 80), '-') AS base_slug
  FROM identity i
  JOIN spellings s USING (buyer_key)
)
SELECT
  b.buyer_key,
  b.name,
  -- a slug two buyers would share (spellings differing only in punctuation) carries the key's hash instead
  CASE
    WHEN count(*) OVER (PARTITION BY b.base_slug) > 1 OR b.base_slug = lower(b.jurisdiction) || '-'
      THEN rtrim(b.base_slug, '-') || '-' || right(b.buyer_key, 12)
    ELSE b.base_slug
  END AS slug,
  b.jurisdiction,
  CASE WHEN b.jurisdiction LIKE 'NZ%' THEN 'NZ' ELSE 'AU' END AS country,
  coalesce(af.award_count, 0) AS award_count,
  d.window_from,
  coalesce(tf.open_tenders, 0) AS open_tenders,
  coalesce(e.expiring_12m, 0) AS expiring_12m,
  coalesce(pf.planned_12m, 0) AS planned_12m,
  af.median_value::DECIMAL(18,2) AS median_value,
  af.p25_value::DECIMAL(18,2) AS p25_value,
  af.p75_value::DECIMAL(18,2) AS p75_value,
  af.value_total::DECIMAL(18,2) AS value_total,
  af.value_currency,
  coalesce(af.value_count, 0) AS value_count,
  tf.median_response_days::DOUBLE AS median_response_days,
  -- the spec's listing rule
  coalesce(af.award_count, 0) >= 20 OR coalesce(tf.open_tenders, 0) >= 5 AS listed,
  b.first_seen,
  b.sources
FROM slugged b
JOIN days d USING (jurisdiction)
LEFT JOIN award_figures af USING (buyer_key)
LEFT JOIN expiring e USING (buyer_key)
LEFT JOIN tender_figures tf USING (buyer_key)
LEFT JOIN plan_figures pf USING (buyer_key)
ORDER BY b.buyer_key;
