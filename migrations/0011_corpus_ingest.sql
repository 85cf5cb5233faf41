-- Ingestion bookkeeping and the lookups that linking and metrics need.

-- The key an author is found by when linking by name: the normalized family name (corpus/names.ts),
-- computed in the application because folding a name is not something SQL can do the same way.
ALTER TABLE authors ADD COLUMN IF NOT EXISTS name_key text;
CREATE INDEX IF NOT EXISTS authors_name_key_idx ON authors (name_key);
CREATE INDEX IF NOT EXISTS authors_emails_idx ON authors USING gin (emails);

-- Other names of an institution (OpenAlex `display_name_alternatives` and acronyms), matched when an
-- affiliation string names the institution another way.
ALTER TABLE institutions ADD COLUMN IF NOT EXISTS alternative_names text[] NOT NULL DEFAULT '{}';

-- One row per input file: how far ingestion got. Written in the same transaction as each batch, so a
-- run killed at any moment resumes exactly after the last batch that committed.
CREATE TABLE IF NOT EXISTS ingest_checkpoints (
  file_key text PRIMARY KEY,          -- kind + absolute path
  kind text NOT NULL,
  path text NOT NULL,
  file_size bigint NOT NULL,
  file_mtime_ms bigint NOT NULL,
  lines_done bigint NOT NULL DEFAULT 0,
  records_ok bigint NOT NULL DEFAULT 0,
  completed boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Records that could not be ingested, with their line and reason; kept for the report.
CREATE TABLE IF NOT EXISTS ingest_bad_records (
  file_key text NOT NULL REFERENCES ingest_checkpoints(file_key) ON DELETE CASCADE,
  line bigint NOT NULL,
  reason text NOT NULL,
  PRIMARY KEY (file_key, line)
);

-- Authors whose works changed and whose metrics are not yet recomputed (corpus/metrics.ts).
CREATE TABLE IF NOT EXISTS author_metrics_pending (
  author_id integer PRIMARY KEY REFERENCES authors(id) ON DELETE CASCADE
);

-- Retraction Watch notices (RetractionNature = Retraction only). Kept so that a work ingested after
-- the notice, or re-ingested from a source that does not know it is retracted, stays retracted.
CREATE TABLE IF NOT EXISTS retraction_notices (
  record_id text PRIMARY KEY,
  original_doi text,
  original_pmid text,
  retraction_date text,
  reason text
);
CREATE INDEX IF NOT EXISTS retraction_notices_doi_idx ON retraction_notices (original_doi) WHERE original_doi IS NOT NULL;
CREATE INDEX IF NOT EXISTS retraction_notices_pmid_idx ON retraction_notices (original_pmid) WHERE original_pmid IS NOT NULL;
