-- Weekly checker usage (spec, Limits). A subject is what an allowance belongs to: 'ip:<address>' for
-- anonymous callers, 'account:<id>' for keys and sessions of an account, 'key:<id>' for a key minted
-- before accounts existed. week_start is the ISO instant the week began (Monday 00:00 Australia/Sydney).
CREATE TABLE usage_weeks (
  subject TEXT NOT NULL,
  week_start TEXT NOT NULL,
  used BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (subject, week_start)
);

-- A unit held by a call in progress: it becomes `used` when the call counts and is deleted otherwise.
-- expires_at frees a unit whose process died before settling it.
CREATE TABLE usage_reservations (
  reservation_id TEXT PRIMARY KEY,
  subject TEXT NOT NULL,
  week_start TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX usage_reservations_subject ON usage_reservations(subject, week_start, expires_at);
