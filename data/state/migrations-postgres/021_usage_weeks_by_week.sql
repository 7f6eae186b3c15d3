-- Old weeks are pruned at every instance start and week change (api/usage/meter.ts `pruneOldWeeks`): by week alone,
-- which the (subject, week_start) key cannot serve, so at a million rows the delete scanned the table while metered
-- calls waited on it.
CREATE INDEX usage_weeks_week_start ON usage_weeks(week_start);
