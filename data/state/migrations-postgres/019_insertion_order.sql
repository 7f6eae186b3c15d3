-- Insertion order, for the lists that break a tie of equal timestamps by it (`ORDER BY created_at, rowid`): SQLite
-- keeps it in every table's implicit rowid, and these tables get a column of that name, filled in row order here.
ALTER TABLE bid_thread_messages ADD COLUMN rowid BIGSERIAL;
ALTER TABLE bid_files ADD COLUMN rowid BIGSERIAL;
ALTER TABLE bid_pack_fetches ADD COLUMN rowid BIGSERIAL;
ALTER TABLE watches ADD COLUMN rowid BIGSERIAL;
ALTER TABLE job_steps ADD COLUMN rowid BIGSERIAL;
