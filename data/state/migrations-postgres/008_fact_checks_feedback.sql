-- Stored fact-checks (spec, Fact-check result): the latest result for a content hash, for its permalink
-- GET /v1/fact-checks/{check_id}. Only the result is kept, never the document's text.
CREATE TABLE fact_checks (
  -- 'fc_' + 16 lowercase hex of the SHA-256 over the documents' SHA-256s and the deep switch
  check_id TEXT PRIMARY KEY,
  -- the reply body as JSON
  result TEXT NOT NULL,
  checked_at TEXT NOT NULL
);

-- POST /v1/feedback (spec, Document checkers): up or down on a reply of detect_ai_text or verify_references.
CREATE TABLE checker_feedback (
  feedback_id TEXT PRIMARY KEY,
  tool TEXT NOT NULL CHECK (tool IN ('detect_ai_text', 'verify_references')),
  verdict TEXT NOT NULL CHECK (verdict IN ('up', 'down')),
  -- what the feedback is about as the caller names it (a check_id, a result's hash), unchecked
  ref TEXT,
  note TEXT,
  created_at TEXT NOT NULL
);
