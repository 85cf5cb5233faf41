-- Organizations, their plans (features), settings and API keys.
-- Numbering: 0001-0009 foundation, 0010-0019 corpus, 0020-0029 manuscripts and referee finder,
-- 0030-0039 journals. Each file is applied once, in its own transaction.

CREATE TABLE IF NOT EXISTS organizations (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  features text[] NOT NULL DEFAULT '{}',
  prefer text NOT NULL DEFAULT 'supplied' CHECK (prefer IN ('parsed', 'supplied')),
  include_conflicts boolean NOT NULL DEFAULT true,
  include_without_email boolean NOT NULL DEFAULT true,
  max_candidates integer NOT NULL DEFAULT 50 CHECK (max_candidates BETWEEN 1 AND 500),
  is_demo boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A key is "rm_<key_id>_<secret>". Only a SHA-256 of the whole key is stored; key_id finds the row,
-- and the hashes are then compared in constant time.
CREATE TABLE IF NOT EXISTS api_keys (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  key_id text NOT NULL UNIQUE,
  key_hash bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX IF NOT EXISTS api_keys_organization_idx ON api_keys (organization_id);
