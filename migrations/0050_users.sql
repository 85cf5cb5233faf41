-- Dashboard users, their sessions, and failed sign-ins (docs/dashboard.md).
-- Numbering: 0050-0059 the dashboard.

-- An email signs in to one organization only, so it is unique across organizations (compared
-- lower-cased: "Ada@X.org" and "ada@x.org" are one person).
CREATE TABLE IF NOT EXISTS users (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 320),
  role text NOT NULL CHECK (role IN ('integrations_admin', 'account_manager', 'editor', 'viewer')),
  password_hash text NOT NULL,
  -- Set for a password someone else chose (a generated one): the next sign-in must replace it.
  must_change_password boolean NOT NULL DEFAULT true,
  disabled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS users_email_idx ON users (lower(email));
CREATE INDEX IF NOT EXISTS users_organization_idx ON users (organization_id);

-- The cookie carries a random token; only its SHA-256 is stored, so a leaked table opens no session.
CREATE TABLE IF NOT EXISTS dashboard_sessions (
  token_hash bytea PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  csrf_token text NOT NULL,
  -- One message shown on the next page (the outcome of a form), then cleared.
  flash jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS dashboard_sessions_user_idx ON dashboard_sessions (user_id);
CREATE INDEX IF NOT EXISTS dashboard_sessions_expires_idx ON dashboard_sessions (expires_at);

-- One row per failed sign-in, per account (lower-cased email) and per client address; counted over
-- a sliding window to slow down and then refuse guessing (src/users/login-throttle.ts).
CREATE TABLE IF NOT EXISTS login_failures (
  scope text NOT NULL CHECK (scope IN ('account', 'address')),
  key text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS login_failures_key_idx ON login_failures (scope, key, failed_at);

-- When each API key was last used, for the dashboard's list (written at most once a minute a key).
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS last_used_at timestamptz;
