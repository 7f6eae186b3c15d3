-- award_terms: an inverted index of award titles and descriptions, one row per award and distinct word of
-- either, for the title-keyword heuristic of GET /v1/tenders/{key}/context. Finding the awards that share a
-- tender's title words then reads a few sorted runs of this table instead of splitting a million titles per
-- request. Descriptions count because a title is often short or only the buyer's file number, while the
-- description names the work.
-- A word is a lower-case run of letters and digits with accents folded; a trailing plural "s" is dropped
-- (not after s, u or i: "glass", "bus", "analysis"); words under three letters, bare numbers and the stop
-- words of the tender search (and, are, for, from, into, the, with) say nothing about the work and are left
-- out. data/intelligence/title-terms.ts splits a tender's title the same way.
INSERT INTO award_terms BY NAME
WITH split AS (
  SELECT
    source,
    contract_id,
    left(jurisdiction, 2) AS country,
    award_day,
    value_amount,
    value_currency,
    regexp_split_to_array(lower(strip_accents(concat_ws(' ', title, description))), '[^a-z0-9]+') AS words
  FROM awards
),
terms AS (
  SELECT
    source, contract_id, country, award_day, value_amount, value_currency,
    unnest(list_distinct(list_transform(
      list_filter(words, w -> length(w) >= 3 AND NOT regexp_full_match(w, '[0-9]+') AND w NOT IN ('and', 'are', 'for', 'from', 'into', 'the', 'with')),
      w -> CASE WHEN regexp_full_match(w, '.{2,}[^sui]s') THEN left(w, length(w) - 1) ELSE w END
    ))) AS term
  FROM split
)
SELECT * FROM terms
-- stored in term order, so a lookup of a few words skips every other row group
ORDER BY term, country;
