-- The units held by calls in progress, counted on the caller's week row (issue 30): a reservation is then one
-- conditional update of that row (`held = held + 1` while `used + held` is under the allowance), ordered by its row
-- lock, instead of a transaction that locked the row, counted the reservations and inserted one. Each
-- usage_reservations row still stands for one of these units (its expiry and its owner), and whatever deletes a row
-- takes its unit off `held` in the same statement or transaction (data/state/usage-holds.ts).
ALTER TABLE usage_weeks ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
UPDATE usage_weeks SET held = (
  SELECT count(*) FROM usage_reservations
  WHERE usage_reservations.subject = usage_weeks.subject AND usage_reservations.week_start = usage_weeks.week_start
);
