-- Secrets every API instance must share, kept here when no environment variable gives them: the key that signs bid
-- file links (api/bids/signed-links.ts `sharedBidLinkSecret`), so a link one instance gives is honoured by all.
CREATE TABLE service_secrets (
  name TEXT PRIMARY KEY,
  secret TEXT NOT NULL,
  created_at TEXT NOT NULL
);
