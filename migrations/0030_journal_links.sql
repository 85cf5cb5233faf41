-- Journals (corpus sources) linked to an organization's folders, as the account manager sets them
-- (`refmatch journal link`). A journal has at most one folder per organization: that folder is what
-- `folder_id`/`folder_name` of a recommendation show, and `org_journals` ranks only linked journals.
-- The folder's organization must be the link's organization; the code that links checks it.

CREATE TABLE IF NOT EXISTS journal_links (
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  source_id integer NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  folder_id integer NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, source_id)
);
CREATE INDEX IF NOT EXISTS journal_links_folder_idx ON journal_links (folder_id);
