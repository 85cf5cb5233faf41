-- The scholarly corpus: works, authors, authorships, institutions, sources (journals and proceedings).
-- Shared by every organization (it is public data); nothing here belongs to a tenant.
-- `*_key` columns hold the id in the source catalogue (OpenAlex "W123", "A123", or "acl:..." for the
-- ACL Anthology): ingestion upserts by them, so ingesting a file twice changes nothing.

CREATE TABLE IF NOT EXISTS sources (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source_key text NOT NULL UNIQUE,
  title text NOT NULL,
  type text,                      -- journal | conference | repository | book series | ...
  publisher text,
  issn_l text,
  works_count integer NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS institutions (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  institution_key text NOT NULL UNIQUE,
  name text NOT NULL,
  country_code text,
  -- Lower-cased, accents and punctuation folded, "univ." expanded: compared across spellings.
  normalized_name text NOT NULL
);
CREATE INDEX IF NOT EXISTS institutions_normalized_name_idx ON institutions (normalized_name);

-- Every insert or update of a work takes the next value, so a reader (the in-process retrieval
-- index, in this or another process) can ask for "everything changed since N".
CREATE SEQUENCE IF NOT EXISTS works_change_seq;

CREATE TABLE IF NOT EXISTS works (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  work_key text NOT NULL UNIQUE,
  doi text,                       -- lower-case, without the https://doi.org/ prefix
  pmid text,
  arxiv_id text,
  title text NOT NULL,
  abstract text,
  publication_year integer,
  type text,
  source_id integer REFERENCES sources(id),
  is_retracted boolean NOT NULL DEFAULT false,
  cited_by_count integer NOT NULL DEFAULT 0,
  referenced_work_keys text[] NOT NULL DEFAULT '{}',
  referenced_dois text[] NOT NULL DEFAULT '{}',
  change_seq bigint NOT NULL DEFAULT nextval('works_change_seq')
);
CREATE INDEX IF NOT EXISTS works_doi_idx ON works (doi) WHERE doi IS NOT NULL;
CREATE INDEX IF NOT EXISTS works_pmid_idx ON works (pmid) WHERE pmid IS NOT NULL;
CREATE INDEX IF NOT EXISTS works_arxiv_idx ON works (arxiv_id) WHERE arxiv_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS works_title_idx ON works (lower(title));
CREATE INDEX IF NOT EXISTS works_source_idx ON works (source_id);
CREATE INDEX IF NOT EXISTS works_change_seq_idx ON works (change_seq);

CREATE TABLE IF NOT EXISTS authors (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  author_key text NOT NULL UNIQUE,
  display_name text NOT NULL,
  orcid text,                     -- bare 0000-0000-0000-000X form
  name_variants text[] NOT NULL DEFAULT '{}',
  emails text[] NOT NULL DEFAULT '{}',
  -- Metrics, kept current incrementally after each ingest (corpus/metrics.ts).
  articles_count integer NOT NULL DEFAULT 0,
  citations_count integer NOT NULL DEFAULT 0,
  h_index integer NOT NULL DEFAULT 0,
  first_publication_year integer,
  last_publication_year integer,
  recent_affiliation text,
  recent_institution_id integer REFERENCES institutions(id)
);
CREATE INDEX IF NOT EXISTS authors_orcid_idx ON authors (orcid) WHERE orcid IS NOT NULL;
CREATE INDEX IF NOT EXISTS authors_name_idx ON authors (lower(display_name));

CREATE TABLE IF NOT EXISTS authorships (
  work_id integer NOT NULL REFERENCES works(id) ON DELETE CASCADE,
  position integer NOT NULL,      -- 1-based order of the author on the work
  author_id integer NOT NULL REFERENCES authors(id),
  institution_ids integer[] NOT NULL DEFAULT '{}',
  raw_affiliations text[] NOT NULL DEFAULT '{}',
  is_corresponding boolean NOT NULL DEFAULT false,
  PRIMARY KEY (work_id, position)
);
CREATE INDEX IF NOT EXISTS authorships_author_idx ON authorships (author_id);
