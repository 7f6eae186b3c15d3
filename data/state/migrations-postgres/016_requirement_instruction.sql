-- A requirement may be an 'instruction': how, where, when or in what form to lodge (api/bids/requirements/extract.ts).
-- It is followed when lodging, never a gap. PostgreSQL changes the CHECK constraint in place (SQLite rebuilds the
-- table with the same columns, rows and indexes).
ALTER TABLE bid_requirements DROP CONSTRAINT bid_requirements_kind_check;
ALTER TABLE bid_requirements ADD CONSTRAINT bid_requirements_kind_check
  CHECK (kind IN ('clause', 'schedule', 'criterion', 'condition', 'instruction'));
