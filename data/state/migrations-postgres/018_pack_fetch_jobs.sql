-- A tender-pack fetch now runs as a job of the job table (api/bids/pack-fetch-job.ts): leased, retried with
-- back-off, each step recorded, taken over by the next worker or POST /v1/jobs/drain when its process stops.
ALTER TABLE bid_pack_fetches ADD COLUMN job_id TEXT REFERENCES jobs(job_id);
-- A fetch queued or running before this had no job to resume it, and lived only in the process that queued it
-- (stopped by this upgrade): it ends failed, so the bid may queue another.
UPDATE bid_pack_fetches
   SET state = 'failed', finished_at = requested_at,
       detail = 'The fetch was stopped before it finished (the server restarted); queue it again.'
 WHERE state IN ('queued', 'running');
