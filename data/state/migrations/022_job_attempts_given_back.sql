-- `jobs.attempts` becomes every claim of the job by a worker, as GET /v1/bids/{bid}/jobs/{job} reports it: a job
-- parked on a person's decision, or handed back at a shutdown, used to take its claim off `attempts`, so a run
-- that had run showed 0 while it waited. Those claims are counted here instead, and what counts against
-- `max_attempts` is `attempts - attempts_given_back` (failures and crashes). Jobs from before keep the count
-- they had (their given-back claims are not known).
ALTER TABLE jobs ADD COLUMN attempts_given_back INTEGER NOT NULL DEFAULT 0;
