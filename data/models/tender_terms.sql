-- tender_terms: an inverted index of tender titles, one row per tender and distinct title word, for the
-- similar open tenders of GET /v1/tenders/{key}/context: finding the tenders that share a title's keywords
-- reads a few sorted runs of this table instead of splitting every title per request. Words are split and
-- normalised exactly as in award_terms.sql (see there, and data/intelligence/title-terms.ts).
INSERT INTO tender_terms BY NAME
WITH terms AS (
  SELECT
    tender_key,
    left(jurisdiction, 2) AS country,
    unnest(list_distinct(list_transform(
      list_filter(regexp_split_to_array(lower(strip_accents(title)), '[^a-z0-9]+'),
        w -> length(w) >= 3 AND NOT regexp_full_match(w, '[0-9]+') AND w NOT IN ('and', 'are', 'for', 'from', 'into', 'the', 'with')),
      w -> CASE WHEN regexp_full_match(w, '.{2,}[^sui]s') THEN left(w, length(w) - 1) ELSE w END
    ))) AS term
  FROM tenders
  -- grant rounds are not bid for, so they are never similar work to a tender
  WHERE kind = 'tender'
)
SELECT * FROM terms
-- stored in term order, so a lookup of a few words skips every other row group
ORDER BY term, country, tender_key;
