-- Uploaded manuscripts. `origin_id` is the client's id, unique within the organization: an upload
-- with a known origin_id updates the row (INSERT ... ON CONFLICT), keeping `id` (= manuscript_id).
-- Supplied and parsed metadata are both kept so that a change of the organization's `prefer`
-- setting or a later upload without a file can merge them again; the merged columns are what
-- ranking and journal recommendation read. "references" is a reserved word: quote it.

CREATE TABLE IF NOT EXISTS manuscripts (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  origin_id text NOT NULL CHECK (length(origin_id) BETWEEN 1 AND 256),
  folder_id integer NOT NULL REFERENCES folders(id),
  -- As supplied in the form: {title, abstract, authors: [{name, email, orcid, affiliation}]}.
  supplied jsonb NOT NULL,
  authors_count integer NOT NULL,
  -- As parsed from the source file ({title, abstract, keywords, authors}); null when no file was parsed.
  parsed jsonb,
  -- Merged by the organization's `prefer` setting.
  title text NOT NULL,
  abstract text NOT NULL,
  keywords text[] NOT NULL DEFAULT '{}',
  authors jsonb NOT NULL DEFAULT '[]',
  full_text text,
  "references" jsonb NOT NULL DEFAULT '[]',
  source_file text,
  source_format text CHECK (source_format IN ('pdf', 'docx')),
  parse_error text,
  warnings text[] NOT NULL DEFAULT '{}',
  -- debug_info counts of the last parse (2.7).
  parsed_text_len integer NOT NULL DEFAULT 0,
  parsed_references integer NOT NULL DEFAULT 0,
  parsed_authors_count integer NOT NULL DEFAULT 0,
  parsed_emails_count integer NOT NULL DEFAULT 0,
  parsed_orcids_count integer NOT NULL DEFAULT 0,
  extracted_concepts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, origin_id)
);
CREATE INDEX IF NOT EXISTS manuscripts_folder_idx ON manuscripts (folder_id);

-- A candidate marked as a referee for a manuscript. Keyed by manuscript id, so marks survive
-- re-uploads of the same origin_id.
CREATE TABLE IF NOT EXISTS manuscript_marks (
  manuscript_id integer NOT NULL REFERENCES manuscripts(id) ON DELETE CASCADE,
  author_id integer NOT NULL,
  marked_by text NOT NULL,
  marked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (manuscript_id, author_id)
);
