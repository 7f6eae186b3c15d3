-- Insertion order, for the lists that break a tie of equal timestamps by it (`ORDER BY created_at, rowid`): SQLite
-- keeps it in every table's implicit rowid; the PostgreSQL schema gives those tables a rowid column of its own.
SELECT 1;
