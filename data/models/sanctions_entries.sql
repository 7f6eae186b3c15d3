-- sanctions_entries: one row per (source, entry_id), the party a sanctions list names. The lists publish one
-- row per name (DFAT's 101, 101a, 101b; OFAC's SDN.CSV and ALT.CSV; the UN record mapped to a row per name);
-- they are folded here into the primary name, the aliases and the party's dates of birth, nationalities,
-- countries and programmes from every row of the party. A party with no primary row is left out (an OFAC
-- alias whose SDN row is missing names nobody). A snapshot like companies: a source that delivered tonight
-- replaces its rows; 304 on every file keeps the last release's rows; a failure keeps them marked stale.
INSERT INTO sanctions_entries BY NAME
WITH run AS (SELECT run_at FROM run_context),
replaced AS (
  SELECT id AS source FROM run_sources WHERE attempted AND NOT failed AND refused IS NULL AND not_modified_since IS NULL
),
folded AS (
  SELECT
    source,
    entry_id,
    first(list_name) AS list_name,
    min(name) FILTER (WHERE name_type = 'primary') AS name,
    first(entity_type ORDER BY entity_type IS NULL, name_type = 'primary' DESC) AS entity_type,
    list_sort(list_distinct(coalesce(list(name) FILTER (WHERE name_type = 'alias'), []))) AS aliases,
    list_sort(list_distinct(coalesce(list(name) FILTER (WHERE name_type = 'weak_alias'), []))) AS weak_aliases,
    list_sort(list_distinct(flatten(list(dates_of_birth)))) AS dates_of_birth,
    list_sort(list_distinct(flatten(list(nationalities)))) AS nationalities,
    list_sort(list_distinct(flatten(list(countries)))) AS countries,
    list_sort(list_distinct(flatten(list(programmes)))) AS programmes,
    min(listed_on) AS listed_on,
    max(as_of) AS as_of,
    first(url) AS url
  FROM staged_sanctions
  WHERE source IN (SELECT source FROM replaced)
  GROUP BY source, entry_id
)
SELECT
  f.* REPLACE (
    -- a primary name listed again as an alias is not a second name
    list_filter(f.aliases, lambda a: a <> f.name) AS aliases,
    coalesce(f.entity_type, 'organisation') AS entity_type
  ),
  coalesce(p.first_seen, run.run_at) AS first_seen,
  false AS stale
FROM folded f
CROSS JOIN run
LEFT JOIN prev_sanctions_entries p ON p.source = f.source AND p.entry_id = f.entry_id
WHERE f.name IS NOT NULL
UNION ALL BY NAME
SELECT p.* REPLACE (CASE WHEN rs.not_modified_since IS NOT NULL THEN false ELSE coalesce(rs.failed, p.stale) END AS stale)
FROM prev_sanctions_entries p
LEFT JOIN run_sources rs ON rs.id = p.source AND rs.attempted
WHERE p.source NOT IN (SELECT source FROM replaced);
