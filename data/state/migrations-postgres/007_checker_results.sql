-- Document checkers (spec, Content-hash cache): a checker's result kept by the content of what it read,
-- so identical bytes with identical options are answered again for free. Only results are kept, and under
-- checker 'page1' each document's page-1 classification (its type and cue names, never its text): never a
-- document's bytes (spec, Extraction result: "the document is never stored").
CREATE TABLE checker_results (
  checker TEXT NOT NULL,
  -- SHA-256 over the documents' own SHA-256s (and names, where a result shows them), in request order
  content_key TEXT NOT NULL,
  -- SHA-256 of the canonical JSON of the options and the engine version that made the result
  options_hash TEXT NOT NULL,
  -- the reply body as JSON
  result TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (checker, content_key, options_hash)
);

-- Stored warrants (spec, Warrant): one per distinct file; `fresh=1` replaces the bundle in place.
CREATE TABLE warrants (
  -- 'warrant_' + the first 16 hex characters of the file's SHA-256: the same bytes give the same warrant
  warrant_id TEXT PRIMARY KEY,
  sha256 TEXT NOT NULL UNIQUE,
  -- the bundle as JSON (api/checkers/warrants/bundle.ts)
  bundle TEXT NOT NULL,
  -- 0 when the engine failed (time or memory limit): kept for its permalink, but a new upload inspects again
  reusable BIGINT NOT NULL CHECK (reusable IN (0, 1)),
  inspected_at TEXT NOT NULL
);

CREATE TABLE warrant_feedback (
  feedback_id TEXT PRIMARY KEY,
  warrant_id TEXT NOT NULL REFERENCES warrants(warrant_id) ON DELETE CASCADE,
  verdict TEXT NOT NULL CHECK (verdict IN ('up', 'down')),
  note TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX warrant_feedback_warrant ON warrant_feedback(warrant_id);
