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

-- A procurement method as published ("Public", "Request for Tenders (RFT)", "Select Tender", "selective", …) as
-- a code of the OCDS method codelist: open (anyone may bid), selective (qualified or invited suppliers), limited
-- (suppliers the buyer chose), direct (one supplier). NULL when the text does not say which (e.g. GETS's
-- "Award Notice (AN)"); the published text stays in procurement_method_details.
CREATE OR REPLACE MACRO procurement_method_code(published) AS
  CASE
    WHEN regexp_matches(lower(trim(published)), '^(open|public|open tender|request for (tenders?|proposals?)( \((rft|rfp)\))?|registration of interest( \(roi\))?)$') THEN 'open'
    WHEN regexp_matches(lower(trim(published)), '^(selective|select tender)$') THEN 'selective'
    WHEN regexp_matches(lower(trim(published)), '^(limited|quotation|direct/limited submission sourcing)$') THEN 'limited'
    WHEN regexp_matches(lower(trim(published)), '^(direct|single select)$') THEN 'direct'
  END;
