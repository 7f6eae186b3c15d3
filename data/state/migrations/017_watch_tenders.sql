-- A watch may follow one tender (kind 'tender': its closing date changing, its closing). SQLite cannot change
-- a CHECK constraint in place, so the table is rebuilt with the wider list; no other table references it.
CREATE TABLE watches_next (
  watch_id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(account_id),
  kind TEXT NOT NULL CHECK (kind IN ('search', 'company', 'buyer', 'signals', 'grants', 'tender')),
  criteria TEXT NOT NULL,
  new_after TEXT NOT NULL,
  created_at TEXT NOT NULL,
  deleted_at TEXT,
  company_profile TEXT
);
INSERT INTO watches_next (watch_id, account_id, kind, criteria, new_after, created_at, deleted_at, company_profile)
  SELECT watch_id, account_id, kind, criteria, new_after, created_at, deleted_at, company_profile FROM watches;
DROP TABLE watches;
ALTER TABLE watches_next RENAME TO watches;
CREATE INDEX watches_account_kind ON watches(account_id, kind, deleted_at);
