-- Saved watches (POST /v1/tenders/watch) and the email they produce (spec, Events 4; Limits "Watches").
-- The API writes watches and stops; the nightly run reads watches and records what each email covered.
CREATE TABLE watches (
  watch_id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(account_id),
  kind TEXT NOT NULL CHECK (kind IN ('search', 'company', 'buyer', 'signals', 'grants')),
  -- the validated criteria as JSON (search filters, a company profile, a buyer key, signal filters)
  criteria TEXT NOT NULL,
  -- what is new to the watch is what appears after this instant: the computed_at of the release served
  -- when it was saved (release clocks, not wall clocks, date the items a watch compares)
  new_after TEXT NOT NULL,
  created_at TEXT NOT NULL,
  -- a deleted watch is kept out of every email and out of the five-per-kind count
  deleted_at TEXT
);
CREATE INDEX watches_account_kind ON watches(account_id, kind, deleted_at);

-- One row per person who has saved a watch: when mail last went, and up to which release it covered, so
-- each email lists only what is new since the last one and at most one goes a day.
CREATE TABLE watch_mail (
  account_id TEXT PRIMARY KEY REFERENCES accounts(account_id),
  -- Australia/Sydney day (YYYY-MM-DD) of the last email of any kind
  last_sent_on TEXT,
  -- computed_at of the release the last daily digest covered
  daily_through TEXT,
  -- Sydney day and release of the last weekly email of saved searches
  weekly_sent_on TEXT,
  weekly_through TEXT,
  -- set by an email's stop link (no sign-in needed); saving a new watch clears it
  stopped_at TEXT
);

-- One stop token per email sent, stored only as its SHA-256 hash; it keeps working (and stays harmless)
-- after use, since people click old emails.
CREATE TABLE watch_stop_tokens (
  token_hash TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(account_id),
  created_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX watch_stop_tokens_account ON watch_stop_tokens(account_id);
