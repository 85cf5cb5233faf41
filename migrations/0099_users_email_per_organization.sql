-- An email may sign in to several organizations, one account in each (a referee who edits for two
-- publishers). It was unique across organizations, so adding a user told an organization's admin
-- that another organization had that address: now it is unique within an organization only.
-- Sign-in checks the password against each of the email's accounts (src/users/users.ts).
DROP INDEX IF EXISTS users_email_idx;
CREATE UNIQUE INDEX IF NOT EXISTS users_organization_email_idx ON users (organization_id, lower(email));
CREATE INDEX IF NOT EXISTS users_email_lookup_idx ON users (lower(email));
