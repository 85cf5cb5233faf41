-- A manuscript author given with an email or an ORCID is looked up among the organization's own
-- group records linked to a corpus author (referee-finder/resolve-authors.ts GROUP_LINKS), on every
-- upload. The records keep emails and ORCIDs as the client wrote them, so the look-up compares
-- normalized keys; without an index over those keys it read every record of the organization
-- (230-410 ms an upload for an organization of 50,000 records). These functions give the keys the
-- look-up compares, and the indexes serve it. Records not linked to a corpus author never answer it.

CREATE OR REPLACE FUNCTION group_email_keys(emails text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(lower(btrim(e))), '{}') FROM unnest(emails) AS e $$;

-- An ORCID's 16 characters, whatever the client wrote around them (hyphens, a URL prefix).
CREATE OR REPLACE FUNCTION group_orcid_keys(orcids text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(right(regexp_replace(upper(o), '[^0-9X]', '', 'g'), 16)), '{}')
          FROM unnest(orcids) AS o $$;

CREATE INDEX IF NOT EXISTS group_authors_email_keys_idx ON group_authors
  USING gin (group_email_keys(emails)) WHERE linked_author_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS group_authors_orcid_keys_idx ON group_authors
  USING gin (group_orcid_keys(orcids)) WHERE linked_author_id IS NOT NULL;
