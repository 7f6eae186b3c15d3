-- Accounts, sign-in tokens, sessions and API keys. Secrets (link tokens, session tokens, keys) are stored
-- only as SHA-256 hashes.
CREATE TABLE accounts (
  account_id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  created_at TEXT NOT NULL
);

CREATE TABLE login_tokens (
  token_hash TEXT PRIMARY KEY,
  email TEXT NOT NULL COLLATE NOCASE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);

CREATE TABLE sessions (
  session_hash TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(account_id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  ended_at TEXT
);

CREATE TABLE api_keys (
  key_id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  -- null for a key minted anonymously before accounts existed; POST /v1/account/keys/link attaches it
  account_id TEXT REFERENCES accounts(account_id),
  name TEXT,
  -- 'api' for REST and MCP, 'mcp' for a connector URL's key
  scope TEXT NOT NULL DEFAULT 'api',
  prefix TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT,
  disabled_at TEXT
);
CREATE INDEX api_keys_account ON api_keys(account_id);
