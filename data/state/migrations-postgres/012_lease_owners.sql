-- Which API process holds what (issue 24): a process registers itself when it starts and records itself as the
-- owner of each Idempotency-Key run and usage unit it holds, so the next process to start can release what a
-- process that is gone (kill -9, a crash, the machine restarted) still held, instead of leaving a retry 409 for
-- the lease's ten minutes and the unit held for its hour.
CREATE TABLE api_instances (
  instance_id TEXT PRIMARY KEY,
  -- the machine and process id: only a process on the same machine can tell whether another is gone
  host TEXT NOT NULL,
  pid BIGINT NOT NULL,
  -- the process's start as the kernel counts it (Linux /proc/<pid>/stat, clock ticks since boot), so a pid the
  -- system gave again to another process is not taken for this one; null where the kernel does not say
  process_start TEXT,
  started_at TEXT NOT NULL
);

-- The instance running the row's request; null for rows written before owners were recorded (their lease ends them).
ALTER TABLE idempotency_keys ADD COLUMN owner TEXT;
ALTER TABLE usage_reservations ADD COLUMN owner TEXT;
CREATE INDEX idempotency_keys_owner ON idempotency_keys(owner) WHERE state = 'running';
CREATE INDEX usage_reservations_owner ON usage_reservations(owner);
