-- Emails an organization learnt from the authors of its own manuscripts (referee-finder/contacts.ts):
-- a manuscript author given with an email and resolved to a corpus author. They are that
-- organization's alone: read only with its organization_id, never shown to another.
CREATE TABLE IF NOT EXISTS organization_author_emails (
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  author_id integer NOT NULL REFERENCES authors(id) ON DELETE CASCADE,
  email text NOT NULL,
  learnt_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, author_id, email)
);
