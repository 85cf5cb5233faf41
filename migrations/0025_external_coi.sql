-- Conflicts of interest an organization declares itself (`refmatch coi import`): a manuscript (by
-- origin_id, or every manuscript when origin_id is null, written `*` in the file) and a person, named
-- by exactly one of corpus author id, ORCID or email. Identifiers are kept as given and matched at
-- ranking time, so a flag holds even for an author ingested after the import.
CREATE TABLE IF NOT EXISTS external_coi (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  origin_id text,
  author_id integer,
  orcid text,
  email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (num_nonnulls(author_id, orcid, email) = 1)
);
CREATE UNIQUE INDEX IF NOT EXISTS external_coi_unique_idx ON external_coi (
  organization_id, coalesce(origin_id, ''), coalesce(author_id, 0), coalesce(orcid, ''), coalesce(email, '')
);
