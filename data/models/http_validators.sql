-- http_validators: the ETag and Last-Modified of each snapshot file, sent back as If-None-Match and
-- If-Modified-Since on the next run. They must describe the files the release's rows came from, so a
-- source that answered tonight keeps tonight's, and one that failed or was not run keeps the last release's.
INSERT INTO http_validators BY NAME
WITH answered AS (
  SELECT id AS source FROM run_sources WHERE attempted AND NOT failed AND refused IS NULL
)
SELECT * FROM run_validators WHERE source IN (SELECT source FROM answered)
UNION ALL BY NAME
SELECT * FROM prev_http_validators WHERE source NOT IN (SELECT source FROM answered);
