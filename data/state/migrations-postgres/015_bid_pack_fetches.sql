-- Tender packs fetched from the one supported portal into a bid's files (api/bids/pack-fetch.ts), each run at
-- once in the background by the API process that queued it. The job table of the bid runs is meant to take
-- these over (a row here is the job's record); until then a fetch that outlives its time limit reads as failed.
CREATE TABLE bid_pack_fetches (
  fetch_id TEXT PRIMARY KEY,
  bid_id TEXT NOT NULL REFERENCES bids(bid_id),
  -- the caller it counts against (5 per Sydney day)
  requested_by TEXT NOT NULL REFERENCES accounts(account_id),
  -- the source (e.g. au_nt_qtol) and the tender page the pack is read from
  source TEXT NOT NULL,
  tender_url TEXT NOT NULL,
  -- queued → running → succeeded or failed
  state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed')),
  -- what came of it, as a sentence; JSON array of the bid file ids it added
  detail TEXT,
  file_ids TEXT NOT NULL DEFAULT '[]',
  requested_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT
);
CREATE INDEX bid_pack_fetches_bid ON bid_pack_fetches(bid_id, requested_at);
CREATE INDEX bid_pack_fetches_caller ON bid_pack_fetches(requested_by, requested_at);
-- One fetch in progress per bid, whichever instance queues it.
CREATE UNIQUE INDEX bid_pack_fetches_one_live ON bid_pack_fetches(bid_id) WHERE state IN ('queued', 'running');
