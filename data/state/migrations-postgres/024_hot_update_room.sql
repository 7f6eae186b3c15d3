-- Room on each page for the rows written on every request (issue 30, bench row (r)): an API key's last-used mark
-- (at most once a minute a key) and a week row's `held` and `used` (twice a metered call). With full pages an update
-- puts the row's new version on another page and adds an entry to each of the table's indexes (three on api_keys,
-- two on usage_weeks); with room on its own page it is a heap-only update, which writes no index. Pages filled
-- before this keep their rows until vacuum frees their dead versions; new pages leave a tenth free.
ALTER TABLE api_keys SET (fillfactor = 90);
ALTER TABLE usage_weeks SET (fillfactor = 90);
