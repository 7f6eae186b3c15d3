-- Idempotency-Key memory (spec, Limits: 24 hours). One row per caller scope and key: 'running' while the
-- first request works (a second process seeing it answers 409), then 'done' with the reply to replay.
CREATE TABLE idempotency_keys (
  -- 'account:<id>', 'key:<id>' or 'ip:<address>': two callers never see each other's replies
  scope TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  -- SHA-256 of method, path, query and raw body: the same key with another request is refused (422)
  request_hash TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('running', 'done')),
  -- random token of the run holding a 'running' row, so only that run stores or releases it
  run_token TEXT,
  started_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  status BIGINT,
  -- JSON object of the replayed headers (content-type, location, retry-after, …)
  headers TEXT,
  body BYTEA,
  PRIMARY KEY (scope, idempotency_key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);
