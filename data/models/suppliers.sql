-- suppliers: one row per supplier key, i.e. per published identifier: `AU-ABN:<abn>`, or `<scheme>:<id>` for an
-- award that carries another scheme's identifier and no ABN (e.g. `AU-ACN:<acn>`). Suppliers named without an
-- identifier are not entities we can tell apart, so they have no row. Standing comes from the ABN and ASIC
-- registers as held in this release.
INSERT INTO suppliers BY NAME
WITH held AS (
  SELECT * FROM awards WHERE supplier_key IS NOT NULL
),
spellings AS (
  -- the spelling published most often names the supplier; ties go to the first in sort order
  SELECT supplier_key, supplier AS name, count(*) AS uses
  FROM held
  WHERE supplier IS NOT NULL
  GROUP BY supplier_key, supplier
),
named AS (
  SELECT supplier_key, first(name ORDER BY uses DESC, name) AS name, list(name ORDER BY name) AS names
  FROM spellings
  GROUP BY supplier_key
),
currency_totals AS (
  -- values are never converted: one total per currency
  SELECT supplier_key, value_currency AS currency, sum(value_amount)::DECIMAL(18,2) AS amount, count(*)::INTEGER AS contracts
  FROM held
  WHERE value_amount IS NOT NULL AND value_currency IS NOT NULL
  GROUP BY supplier_key, value_currency
),
values_by_supplier AS (
  SELECT supplier_key, list({'currency': currency, 'amount': amount, 'contracts': contracts} ORDER BY contracts DESC, currency) AS value_totals
  FROM currency_totals
  GROUP BY supplier_key
),
category_lists AS (
  SELECT supplier_key, list(DISTINCT category ORDER BY category) AS categories
  FROM (SELECT supplier_key, unnest(categories) AS category FROM held)
  GROUP BY supplier_key
),
figures AS (
  SELECT
    supplier_key,
    split_part(supplier_key, ':', 1) AS scheme,
    substr(supplier_key, strpos(supplier_key, ':') + 1) AS identifier,
    count(*) AS contract_count,
    count(DISTINCT buyer_key) AS buyer_count,
    min(awarded_date) AS first_awarded,
    max(awarded_date) AS last_awarded,
    list(DISTINCT jurisdiction ORDER BY jurisdiction) AS jurisdictions,
    list(DISTINCT source ORDER BY source) AS sources,
    min(first_seen) AS first_seen
  FROM held
  GROUP BY supplier_key
),
abn_register AS (
  -- one ABN register row per ABN (should two registers hold one, the later extract wins)
  SELECT * FROM abn_entities
  QUALIFY row_number() OVER (PARTITION BY abn ORDER BY as_of DESC, source) = 1
),
company_register AS (
  SELECT * FROM companies
  QUALIFY row_number() OVER (PARTITION BY acn ORDER BY as_of DESC, source) = 1
),
company_by_abn AS (
  SELECT * FROM company_register WHERE abn IS NOT NULL
  QUALIFY row_number() OVER (PARTITION BY abn ORDER BY acn) = 1
),
with_abn AS (
  SELECT f.*, r.abn_status, r.abn_status_from, r.entity_type, r.gst_status, r.gst_status_from, r.name AS abn_name, r.as_of AS abn_as_of,
    -- the company behind an ABN: the ACN the ABN register links; else, for a company ABN (or one the register
    -- does not hold), the ACN a company ABN embeds as its last nine digits; for an ACN key, that ACN
    CASE
      WHEN f.scheme = 'AU-ACN' THEN f.identifier
      WHEN f.scheme = 'AU-ABN' THEN coalesce(r.asic_number, CASE WHEN r.abn IS NULL OR r.entity_type_code IN ('PRV', 'PUB') THEN right(f.identifier, 9) END)
    END AS candidate_acn
  FROM figures f
  LEFT JOIN abn_register r ON f.scheme = 'AU-ABN' AND r.abn = f.identifier
)
SELECT
  w.supplier_key,
  w.scheme,
  w.identifier,
  n.name,
  coalesce(n.names, []) AS names,
  w.contract_count,
  w.buyer_count,
  coalesce(v.value_totals, []) AS value_totals,
  coalesce(c.categories, []) AS categories,
  w.first_awarded,
  w.last_awarded,
  w.jurisdictions,
  w.abn_status,
  w.abn_status_from,
  w.entity_type,
  w.gst_status,
  w.gst_status_from,
  w.abn_name,
  w.abn_as_of,
  -- a company found by the ACN, else the company the ASIC register lists under this ABN
  coalesce(by_acn.acn, by_abn.acn) AS acn,
  coalesce(by_acn.name, by_abn.name) AS company_name,
  coalesce(by_acn.status, by_abn.status) AS company_status,
  coalesce(by_acn.status_meaning, by_abn.status_meaning) AS company_status_meaning,
  coalesce(by_acn.registered_date, by_abn.registered_date) AS company_registered_date,
  coalesce(by_acn.deregistered_date, by_abn.deregistered_date) AS company_deregistered_date,
  coalesce(by_acn.as_of, by_abn.as_of) AS company_as_of,
  w.sources,
  w.first_seen
FROM with_abn w
LEFT JOIN named n USING (supplier_key)
LEFT JOIN values_by_supplier v USING (supplier_key)
LEFT JOIN category_lists c USING (supplier_key)
-- a company whose register entry names another ABN is not this supplier's company
LEFT JOIN company_register by_acn ON by_acn.acn = w.candidate_acn AND (w.scheme <> 'AU-ABN' OR by_acn.abn IS NULL OR by_acn.abn = w.identifier)
LEFT JOIN company_by_abn by_abn ON w.scheme = 'AU-ABN' AND by_abn.abn = w.identifier
ORDER BY w.supplier_key;
