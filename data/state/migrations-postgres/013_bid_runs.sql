-- Background jobs (claimed by lease, each step recorded before the next), bid runs on them, the run's
-- append-only event log, its findings, the actions it raises for a person, what a bid has paid, and the audit
-- of people's decisions. SQL that PostgreSQL speaks as well: partial indexes, no SQLite-only types.
CREATE TABLE jobs (
  job_id TEXT PRIMARY KEY,
  -- which handler runs it (api/bids/jobs/worker.ts), e.g. 'bid_run'
  kind TEXT NOT NULL,
  bid_id TEXT REFERENCES bids(bid_id),
  -- JSON the handler reads
  input TEXT NOT NULL,
  -- queued: waiting for a worker (from run_after); running: a worker holds the lease; waiting: on a person's
  -- decision, no worker may take it; succeeded, failed, stopped: final
  state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'waiting', 'succeeded', 'failed', 'stopped')),
  -- claims so far; a claim past max_attempts ends the job failed
  attempts BIGINT NOT NULL,
  max_attempts BIGINT NOT NULL,
  -- the worker holding it and until when (ISO, UTC); a running job whose lease passed is taken over
  lease_owner TEXT,
  lease_expires_at TEXT,
  -- not claimed before this instant (back-off after a failed attempt)
  run_after TEXT NOT NULL,
  -- the step last started, and steps done of those known so far
  step TEXT,
  progress_done BIGINT NOT NULL,
  progress_total BIGINT,
  -- set by a stop request: a running job ends stopped at its next step boundary
  stop_requested BIGINT NOT NULL DEFAULT 0,
  result TEXT,
  -- the last attempt's error, kept when a later one succeeds until the job ends
  error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE INDEX jobs_claimable ON jobs(state, run_after);
CREATE INDEX jobs_bid ON jobs(bid_id, created_at);

-- One row per step a job began; completed_at set in the same transaction as the step's own writes. A re-run
-- reads `result` back instead of doing the step again.
CREATE TABLE job_steps (
  job_id TEXT NOT NULL REFERENCES jobs(job_id),
  step_key TEXT NOT NULL,
  attempt BIGINT NOT NULL,
  started_at TEXT NOT NULL,
  completed_at TEXT,
  result TEXT,
  PRIMARY KEY (job_id, step_key)
);

CREATE TABLE bid_runs (
  run_id TEXT PRIMARY KEY,
  bid_id TEXT NOT NULL REFERENCES bids(bid_id),
  job_id TEXT NOT NULL REFERENCES jobs(job_id),
  -- queued, running, waiting (on an action) are live; completed, stopped, failed are final
  state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'waiting', 'completed', 'stopped', 'failed')),
  started_by TEXT NOT NULL REFERENCES accounts(account_id),
  created_at TEXT NOT NULL,
  finished_at TEXT
);
-- One live run per bid: a second start is refused by this index, whichever instance takes it.
CREATE UNIQUE INDEX bid_runs_one_live ON bid_runs(bid_id) WHERE state IN ('queued', 'running', 'waiting');
CREATE INDEX bid_runs_bid ON bid_runs(bid_id, created_at);

-- The events of a bid's runs: seq rises by one per bid, so one number places an event (or a finding) in the
-- bid's chain, and a run's own events are in seq order.
CREATE TABLE bid_run_events (
  bid_id TEXT NOT NULL REFERENCES bids(bid_id),
  seq BIGINT NOT NULL,
  run_id TEXT NOT NULL REFERENCES bid_runs(run_id),
  kind TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (bid_id, seq)
);
CREATE INDEX bid_run_events_run ON bid_run_events(run_id, seq);

CREATE TABLE bid_findings (
  finding_id TEXT PRIMARY KEY,
  bid_id TEXT NOT NULL REFERENCES bids(bid_id),
  run_id TEXT NOT NULL REFERENCES bid_runs(run_id),
  -- the seq of its `finding` event
  seq BIGINT NOT NULL,
  kind TEXT NOT NULL,
  requirement_id TEXT,
  title TEXT NOT NULL,
  detail TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (bid_id, seq)
);

CREATE TABLE bid_actions (
  action_id TEXT PRIMARY KEY,
  bid_id TEXT NOT NULL REFERENCES bids(bid_id),
  -- the run waiting on the decision; null for an action no run waits on (its decision only flips its state)
  run_id TEXT REFERENCES bid_runs(run_id),
  -- the run that raised it, whether or not one waits
  raised_in_run TEXT REFERENCES bid_runs(run_id),
  kind TEXT NOT NULL CHECK (kind IN ('fetch_pack', 'send_clarification', 'use_model', 'sign_off')),
  title TEXT NOT NULL,
  -- JSON: exactly what approval executes
  arguments TEXT NOT NULL,
  -- cancelled: its run stopped or ended before anyone decided
  state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'rejected', 'cancelled')),
  decided_by TEXT REFERENCES accounts(account_id),
  decided_at TEXT,
  -- JSON: what executing it came to (e.g. the message id of the email sent)
  outcome TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX bid_actions_bid ON bid_actions(bid_id, created_at);


-- People's decisions and run commands on a bid, as they happened.
CREATE TABLE bid_audit (
  audit_id TEXT PRIMARY KEY,
  bid_id TEXT NOT NULL REFERENCES bids(bid_id),
  account_id TEXT NOT NULL REFERENCES accounts(account_id),
  -- e.g. 'run.start', 'run.stop', 'action.approve', 'action.reject'
  what TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  detail TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX bid_audit_bid ON bid_audit(bid_id, at);

-- A message a run posted to the thread (in the name of the person who started it).
ALTER TABLE bid_thread_messages ADD COLUMN run_id TEXT REFERENCES bid_runs(run_id);
