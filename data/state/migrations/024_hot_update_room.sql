-- Nothing to do on SQLite: migration 024 leaves room on PostgreSQL's pages for heap-only updates of api_keys and
-- usage_weeks (see migrations-postgres/024_hot_update_room.sql); SQLite's B-tree pages have no such setting.
-- The file keeps the two engines' migrations numbered together.
SELECT 1;
