-- A requirement may be an 'instruction': how, where, when or in what form to lodge (api/bids/requirements/extract.ts).
-- It is followed when lodging, never a gap. SQLite cannot change a CHECK constraint in place, so the table is
-- rebuilt with the same columns and rows; no other table references it by foreign key.
CREATE TABLE bid_requirements_next (
  requirement_id TEXT PRIMARY KEY,
  bid_id TEXT NOT NULL REFERENCES bids(bid_id),
  origin TEXT NOT NULL CHECK (origin IN ('extracted', 'person', 'split', 'merged')),
  ref TEXT,
  text TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('clause', 'schedule', 'criterion', 'condition', 'instruction')),
  mandatory INTEGER NOT NULL CHECK (mandatory IN (0, 1)),
  weight REAL,
  state TEXT NOT NULL CHECK (state IN ('open', 'drafted', 'met', 'not_applicable', 'superseded', 'withdrawn')),
  state_by_person INTEGER NOT NULL DEFAULT 0 CHECK (state_by_person IN (0, 1)),
  edited INTEGER NOT NULL DEFAULT 0 CHECK (edited IN (0, 1)),
  file_id TEXT REFERENCES bid_files(file_id),
  page INTEGER,
  span_start INTEGER,
  span_end INTEGER,
  extraction_key TEXT,
  confidence REAL NOT NULL,
  parents TEXT NOT NULL DEFAULT '[]',
  superseded_by TEXT NOT NULL DEFAULT '[]',
  created_by TEXT REFERENCES accounts(account_id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
INSERT INTO bid_requirements_next SELECT requirement_id, bid_id, origin, ref, text, kind, mandatory, weight, state, state_by_person, edited, file_id, page, span_start, span_end, extraction_key, confidence, parents, superseded_by, created_by, created_at, updated_at FROM bid_requirements;
DROP TABLE bid_requirements;
ALTER TABLE bid_requirements_next RENAME TO bid_requirements;
CREATE INDEX bid_requirements_bid ON bid_requirements(bid_id, created_at);
CREATE UNIQUE INDEX bid_requirements_extraction ON bid_requirements(bid_id, extraction_key);
