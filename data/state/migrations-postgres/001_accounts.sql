-- Accounts, sign-in tokens, sessions and API keys. Secrets (link tokens, session tokens, keys) are stored
-- only as SHA-256 hashes.
-- PostgreSQL: SQLite's COLLATE NOCASE is this collation (case-insensitive equality, ordering and uniqueness; ICU
-- folds case beyond ASCII too). Callers' `COLLATE NOCASE` resolves to it, unquoted names folding to lower case.
-- LIKE is not allowed on a nondeterministic collation before PostgreSQL 18: compare emails with = only.
CREATE COLLATION IF NOT EXISTS nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE accounts (
  account_id TEXT PRIMARY KEY,
  email TEXT COLLATE nocase NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);

CREATE TABLE login_tokens (
  token_hash TEXT PRIMARY KEY,
  email TEXT COLLATE nocase NOT NULL,
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
