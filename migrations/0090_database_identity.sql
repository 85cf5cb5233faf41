-- One random id per database, so that a file made from one database (the search index's snapshot,
-- src/retrieval/index-snapshot.ts) is never applied to another: a database dropped and created again,
-- or another server behind the same URL. The row is written by the first process that asks
-- (src/infra/db/identity.ts), not here: databases copied from one migrated template (the tests do) must
-- not share an id.
CREATE TABLE IF NOT EXISTS database_identity (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
