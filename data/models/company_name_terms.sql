-- company_name_terms: an index of the two company registers' names, one row per name and distinct word of it,
-- for the name search of POST /v1/companies/resolve. Finding the names that share a query's words then reads a
-- few sorted runs of this table instead of scanning some twenty million register names per request.
-- Names: an ABN's entity name and its trading, business and other names (abn_entities); a company's current
-- and former names (companies). A word is an upper-case run of letters and digits with accents folded, dots and
-- apostrophes dropped ("PTY." is PTY, "O'BRIEN" is OBRIEN) and "&" read as AND; words under three letters, legal
-- forms (PTY, LTD, INC, NL, CORP and their spellings in full) and the filler words THE, AND, OF, TRUSTEE and FOR
-- are left out. api/checkers/companies/names.ts splits a queried name the same way.
INSERT INTO company_name_terms BY NAME
WITH names AS (
  SELECT 'abr' AS register, abn AS key, name, 'legal' AS kind FROM abn_entities WHERE name IS NOT NULL
  UNION ALL SELECT 'abr', abn, unnest(trading_names), 'trading' FROM abn_entities
  UNION ALL SELECT 'abr', abn, unnest(business_names), 'business' FROM abn_entities
  UNION ALL SELECT 'abr', abn, unnest(other_names), 'other' FROM abn_entities
  UNION ALL SELECT 'asic', acn, name, 'legal' FROM companies
  UNION ALL SELECT 'asic', acn, unnest(former_names), 'former' FROM companies
),
split AS (
  SELECT DISTINCT register, key, name, kind,
    regexp_split_to_array(regexp_replace(replace(upper(strip_accents(name)), '&', ' AND '), '[''’.]', '', 'g'), '[^A-Z0-9]+') AS words
  FROM names
)
SELECT register, key, name, kind, unnest(list_distinct(list_filter(words, w -> length(w) >= 3 AND w NOT IN (
  'PTY', 'PROPRIETARY', 'PROP', 'LTD', 'LIMITED', 'INC', 'INCORPORATED', 'CORP', 'CORPORATION', 'THE', 'AND', 'TRUSTEE', 'FOR'
)))) AS term
FROM split
-- stored in term order, so a lookup of a few words skips every other row group
ORDER BY term, register, key;
