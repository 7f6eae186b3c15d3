-- The bid workspace: one draft per requirement, the gaps derived on recompute, the back-scheduled plan, and
-- the text of each organisation library document as read once (drafts retrieve passages from it).
CREATE TABLE bid_drafts (
  bid_id TEXT NOT NULL REFERENCES bids(bid_id),
  -- the requirement (bids-requirements' table) this draft answers
  requirement_id TEXT NOT NULL,
  text TEXT NOT NULL,
  -- 'assembled': the cited passages as found; 'model': written by the language model from them;
  -- 'person': typed by a person, which no recompute overwrites
  origin TEXT NOT NULL CHECK (origin IN ('assembled', 'model', 'person')),
  -- why the draft reads as it does, e.g. that no language model is configured
  note TEXT NOT NULL,
  -- JSON array of the passages retrieved for it: [{n, source, document, page, doc_id?, bid_id?, requirement_id?, excerpt, score}]
  citations TEXT NOT NULL,
  model TEXT,
  -- SHA-256 of what a computed draft was written from (the model, the requirement's text, the passages): a
  -- recompute with the same basis keeps the model's draft instead of asking again; null for a person's draft
  basis TEXT,
  edited_by TEXT REFERENCES accounts(account_id),
  updated_at TEXT NOT NULL,
  PRIMARY KEY (bid_id, requirement_id)
);

CREATE TABLE bid_gaps (
  gap_id TEXT PRIMARY KEY,
  bid_id TEXT NOT NULL REFERENCES bids(bid_id),
  -- what the gap is about, stable across recomputes: 'evidence:<requirement_id>', 'expiry:<doc_id>', 'credential:<id>'
  gap_key TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('no_evidence', 'document_expiry', 'missing_credential')),
  category TEXT NOT NULL,
  -- a jurisdiction code (AU-NSW, NZ, ...) the gap is to be closed in; null when neither the profile nor the tender gives one
  region TEXT,
  title TEXT NOT NULL,
  detail TEXT NOT NULL,
  requirement_id TEXT,
  doc_id TEXT,
  -- 'open' and 'closed' come from recompute only; 'NA' is a person's call, kept with its reason
  status TEXT NOT NULL CHECK (status IN ('open', 'closed', 'NA')),
  na_reason TEXT,
  na_by TEXT REFERENCES accounts(account_id),
  updated_at TEXT NOT NULL,
  UNIQUE (bid_id, gap_key)
);

CREATE TABLE bid_plan_tasks (
  bid_id TEXT NOT NULL REFERENCES bids(bid_id),
  task_id TEXT NOT NULL,
  position BIGINT NOT NULL,
  title TEXT NOT NULL,
  owner_id TEXT REFERENCES accounts(account_id),
  -- the instant it is due (ISO, UTC) and the same as a wall-clock time in the buyer's time zone
  due_at TEXT NOT NULL,
  due_local TEXT NOT NULL,
  -- JSON array of task_ids that must be done first
  depends_on TEXT NOT NULL,
  computed_at TEXT NOT NULL,
  PRIMARY KEY (bid_id, task_id)
);

CREATE TABLE library_document_text (
  doc_id TEXT PRIMARY KEY REFERENCES org_documents(doc_id) ON DELETE CASCADE,
  -- the bytes the text was read from: a document replaced under the same id is read again
  sha256 TEXT NOT NULL,
  -- 'read': pages holds the text; 'failed': the bytes could not be read as their kind (detail says why)
  status TEXT NOT NULL CHECK (status IN ('read', 'failed')),
  -- JSON array [{n, text}]
  pages TEXT NOT NULL,
  detail TEXT,
  read_at TEXT NOT NULL
);
