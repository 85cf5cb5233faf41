-- The dashboard's manuscript pages (docs/dashboard.md).

-- The candidates of a manuscript's last upload, as ranked then, each with the conflicts the policy
-- found and their evidence: the manuscript page shows them without ranking again on every view.
-- Marks are not copied here: they are read from manuscript_marks, the one store of marks.
CREATE TABLE IF NOT EXISTS manuscript_candidates (
  manuscript_id integer PRIMARY KEY REFERENCES manuscripts(id) ON DELETE CASCADE,
  candidates jsonb NOT NULL,
  -- How many, for the list (reading the count out of the jsonb would read every candidate).
  candidate_count integer NOT NULL,
  concepts text[] NOT NULL DEFAULT '{}',
  ranked_at timestamptz NOT NULL DEFAULT now()
);

-- Journals recommended for a manuscript, computed at its first view after an upload and kept while
-- the manuscript is unchanged (valid while `manuscript_updated_at` equals manuscripts.updated_at).
CREATE TABLE IF NOT EXISTS manuscript_journals (
  manuscript_id integer PRIMARY KEY REFERENCES manuscripts(id) ON DELETE CASCADE,
  manuscript_updated_at timestamptz NOT NULL,
  journals jsonb NOT NULL
);

-- The list, newest first, by keyset (id < last id seen): per organization, and per folder.
CREATE INDEX IF NOT EXISTS manuscripts_org_list_idx ON manuscripts (organization_id, id DESC);
CREATE INDEX IF NOT EXISTS manuscripts_folder_list_idx ON manuscripts (organization_id, folder_id, id DESC);
-- Title search by words (prefixes), whatever the language: the 'simple' configuration, no stemming.
CREATE INDEX IF NOT EXISTS manuscripts_title_words_idx ON manuscripts USING gin (to_tsvector('simple', title));
