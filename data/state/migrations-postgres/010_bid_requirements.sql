-- What a bid must answer: requirements extracted from its files (api/bids/requirements/extract.ts) and those
-- people add, split or merge. A split or merged requirement names its parents; the originals stay, superseded,
-- so every requirement traces back to the clause it came from. States and who sets them: api/bids/README.md.
CREATE TABLE bid_requirements (
  requirement_id TEXT PRIMARY KEY,
  bid_id TEXT NOT NULL REFERENCES bids(bid_id),
  -- 'extracted' from a file; 'person': added by a member; 'split': a part of a split one; 'merged': several made one
  origin TEXT NOT NULL CHECK (origin IN ('extracted', 'person', 'split', 'merged')),
  -- the clause number it sits under, e.g. 5(a)(ii)
  ref TEXT,
  text TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('clause', 'schedule', 'criterion', 'condition')),
  mandatory BIGINT NOT NULL CHECK (mandatory IN (0, 1)),
  -- an evaluation criterion's weight in percent
  weight DOUBLE PRECISION,
  state TEXT NOT NULL CHECK (state IN ('open', 'drafted', 'met', 'not_applicable', 'superseded', 'withdrawn')),
  -- 1 when a person set the state (met, not_applicable): recomputing never changes it
  state_by_person BIGINT NOT NULL DEFAULT 0 CHECK (state_by_person IN (0, 1)),
  -- 1 when a person changed ref, text, kind, mandatory or weight: recomputing never changes them
  edited BIGINT NOT NULL DEFAULT 0 CHECK (edited IN (0, 1)),
  -- where it came from: the file, page and character offsets in that page's text (null for a person's own)
  file_id TEXT REFERENCES bid_files(file_id),
  page BIGINT,
  span_start BIGINT,
  span_end BIGINT,
  -- for an extracted requirement, what extraction found (file, page, span, text): recomputing finds it again by this
  extraction_key TEXT,
  confidence DOUBLE PRECISION NOT NULL,
  -- JSON arrays of requirement ids: what this one was split or merged from, and what replaced it
  parents TEXT NOT NULL DEFAULT '[]',
  superseded_by TEXT NOT NULL DEFAULT '[]',
  created_by TEXT REFERENCES accounts(account_id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX bid_requirements_bid ON bid_requirements(bid_id, created_at);
CREATE UNIQUE INDEX bid_requirements_extraction ON bid_requirements(bid_id, extraction_key);

-- Which of a bid's files the stored extraction read: when the bid's readable files differ, it runs again.
CREATE TABLE bid_requirement_extractions (
  bid_id TEXT PRIMARY KEY REFERENCES bids(bid_id),
  -- the file ids, sorted and comma-joined
  files TEXT NOT NULL,
  extracted_at TEXT NOT NULL
);
