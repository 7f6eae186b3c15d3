-- Bids: an organisation's response to one tender (or to a free title), its uploaded files, the text of
-- each file page as read once at upload, and the people's thread. Stage names are checked here as well as
-- in api/bids/stages.ts so a stray write cannot create a stage the code does not know.
CREATE TABLE bids (
  bid_id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(org_id),
  title TEXT NOT NULL,
  -- the tender's page_key in the release it was created from; null for a bid on a free title
  tender_key TEXT,
  buyer TEXT,
  jurisdiction TEXT,
  -- the tender's closing day (YYYY-MM-DD, the buyer's day) and instant, and the buyer's IANA time zone:
  -- the plan back-schedules from these
  closing_date TEXT,
  closing_at TEXT,
  buyer_time_zone TEXT,
  stage TEXT NOT NULL CHECK (stage IN ('qualifying', 'preparing', 'reviewing', 'submitted', 'won', 'lost', 'withdrawn')),
  goal TEXT,
  owner_id TEXT REFERENCES accounts(account_id),
  -- the organisation's own due date for the response (YYYY-MM-DD), before the tender closes
  due_date TEXT,
  created_by TEXT NOT NULL REFERENCES accounts(account_id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX bids_org ON bids(org_id, created_at);

CREATE TABLE bid_files (
  file_id TEXT PRIMARY KEY,
  bid_id TEXT NOT NULL REFERENCES bids(bid_id),
  filename TEXT NOT NULL,
  -- judged from the content (api/documents/intake.ts), never from the name
  kind TEXT NOT NULL CHECK (kind IN ('pdf', 'image', 'docx', 'text', 'html')),
  content_type TEXT NOT NULL,
  size_bytes BIGINT NOT NULL,
  -- the bytes are <bidFilesDir>/<sha256[0..2]>/<sha256>: the same bytes are stored once, whichever bid holds them
  sha256 TEXT NOT NULL,
  page_count BIGINT NOT NULL,
  -- 'read': bid_file_pages holds every page's text; 'failed': the file is kept but its text could not be read
  read_status TEXT NOT NULL CHECK (read_status IN ('read', 'failed')),
  read_detail TEXT,
  uploaded_by TEXT NOT NULL REFERENCES accounts(account_id),
  uploaded_at TEXT NOT NULL
);
CREATE INDEX bid_files_bid ON bid_files(bid_id, uploaded_at);
CREATE INDEX bid_files_sha256 ON bid_files(sha256);

CREATE TABLE bid_file_pages (
  file_id TEXT NOT NULL REFERENCES bid_files(file_id),
  -- 1-based page number
  n BIGINT NOT NULL,
  text TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('text_layer', 'ocr')),
  PRIMARY KEY (file_id, n)
);

CREATE TABLE bid_thread_messages (
  message_id TEXT PRIMARY KEY,
  bid_id TEXT NOT NULL REFERENCES bids(bid_id),
  author_id TEXT NOT NULL REFERENCES accounts(account_id),
  text TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX bid_thread_messages_bid ON bid_thread_messages(bid_id, created_at);
