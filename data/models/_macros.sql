-- Macros every model may call. runModels runs this file before the first model.

-- A buyer's permanent key: one per published spelling per jurisdiction (no alias merging), but case and
-- whitespace are not spellings. The name is lower-cased, runs of ASCII whitespace become one space and the
-- ends are trimmed (RE2's \s is exactly [\t\n\f\r ]; lib/keys.ts buyerKey() does the same, and a test checks
-- the two agree). NULL when the name is NULL or blank.
CREATE OR REPLACE MACRO buyer_name_normalised(name) AS
  nullif(lower(trim(regexp_replace(name, '\s+', ' ', 'g'))), '');

CREATE OR REPLACE MACRO buyer_key(jurisdiction, name) AS
  CASE WHEN buyer_name_normalised(name) IS NOT NULL AND jurisdiction IS NOT NULL
    THEN lower(jurisdiction) || '-' || left(sha256(jurisdiction || '|' || buyer_name_normalised(name)), 12)
  END;
