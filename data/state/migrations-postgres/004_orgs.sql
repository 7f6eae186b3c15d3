-- Organisations with their profile, memberships, invitations and document library; contact submissions
-- and feedback. Invitation tokens are stored only as SHA-256 hashes. Role names are checked here as well
-- as in api/orgs/roles.ts so a stray write cannot create a role the code does not know.
CREATE TABLE orgs (
  org_id TEXT PRIMARY KEY,
  -- the profile: one row per organisation, so the company name is the organisation's name
  company_name TEXT NOT NULL,
  abn TEXT,
  region TEXT,
  description TEXT,
  -- onboarding progress as JSON: {"completed_steps": [...], "complete": false}
  onboarding TEXT NOT NULL DEFAULT '{"completed_steps":[],"complete":false}',
  created_by TEXT NOT NULL REFERENCES accounts(account_id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE memberships (
  org_id TEXT NOT NULL REFERENCES orgs(org_id),
  account_id TEXT NOT NULL REFERENCES accounts(account_id),
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
  joined_at TEXT NOT NULL,
  PRIMARY KEY (org_id, account_id)
);
CREATE INDEX memberships_account ON memberships(account_id);

CREATE TABLE org_invitations (
  invite_id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(org_id),
  token_hash TEXT NOT NULL UNIQUE,
  email TEXT COLLATE nocase NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
  invited_by TEXT NOT NULL REFERENCES accounts(account_id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  used_by TEXT REFERENCES accounts(account_id),
  -- set when a newer invitation to the same address replaces this one, or its email could not be sent
  withdrawn_at TEXT
);
CREATE INDEX org_invitations_org_email ON org_invitations(org_id, email);

CREATE TABLE org_documents (
  doc_id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(org_id),
  -- the file is <documentsDir>/<org_id>/<doc_id>: a random name, never the uploader's filename
  filename TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size_bytes BIGINT NOT NULL,
  sha256 TEXT NOT NULL,
  uploaded_by TEXT NOT NULL REFERENCES accounts(account_id),
  uploaded_at TEXT NOT NULL,
  -- the one expiry date a person sets (YYYY-MM-DD), null until set
  expires_on TEXT
);
CREATE INDEX org_documents_org ON org_documents(org_id, uploaded_at);

CREATE TABLE contact_submissions (
  submission_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  company TEXT,
  message TEXT NOT NULL,
  -- the signed-in or keyed account that sent it, when there was one
  account_id TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE feedback (
  feedback_id TEXT PRIMARY KEY,
  tool TEXT NOT NULL,
  verdict TEXT NOT NULL CHECK (verdict IN ('up', 'down')),
  ref TEXT,
  note TEXT,
  account_id TEXT,
  created_at TEXT NOT NULL
);
