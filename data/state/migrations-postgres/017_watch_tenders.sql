-- A watch may follow one tender (kind 'tender': its closing date changing, its closing). PostgreSQL changes the
-- CHECK constraint in place (SQLite rebuilds the table with the wider list).
ALTER TABLE watches DROP CONSTRAINT watches_kind_check;
ALTER TABLE watches ADD CONSTRAINT watches_kind_check
  CHECK (kind IN ('search', 'company', 'buyer', 'signals', 'grants', 'tender'));
