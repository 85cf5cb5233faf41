-- Values of the custom fields of folders and of manuscripts (spec 2.5, owners "folder" and
-- "proposal"), entered on the dashboard's folder and manuscript pages
-- (src/custom-fields/folder-manuscript-values.ts). A value is the JSON an author-from-group value is (group_authors.custom_values):
-- a number, a string (text, or a date YYYY-MM-DD, or one option api_id), or a list of option api_ids.
--
-- The keys make the organization part of every link: a value joins a field of its own organization
-- and owner, and a folder or manuscript of its own organization, so no value can be read or written
-- across organizations even by a query that forgets to ask. Deleting the field, the folder or the
-- manuscript deletes its values; removing an option is taken out of values by the store.
CREATE UNIQUE INDEX IF NOT EXISTS custom_fields_scope_key ON custom_fields (api_id, organization_id, owner);
CREATE UNIQUE INDEX IF NOT EXISTS folders_organization_key ON folders (id, organization_id);
CREATE UNIQUE INDEX IF NOT EXISTS manuscripts_organization_key ON manuscripts (id, organization_id);

CREATE TABLE IF NOT EXISTS folder_custom_values (
  folder_id integer NOT NULL,
  field uuid NOT NULL,
  organization_id integer NOT NULL,
  -- Constant: only a folder field can be referenced.
  owner text NOT NULL DEFAULT 'folder' CHECK (owner = 'folder'),
  value jsonb NOT NULL CHECK (jsonb_typeof(value) IN ('number', 'string', 'array')),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (folder_id, field),
  FOREIGN KEY (folder_id, organization_id) REFERENCES folders (id, organization_id) ON DELETE CASCADE,
  FOREIGN KEY (field, organization_id, owner)
    REFERENCES custom_fields (api_id, organization_id, owner) ON DELETE CASCADE
);
-- For deleting a field (the cascade) and removing an option: by field.
CREATE INDEX IF NOT EXISTS folder_custom_values_field_idx ON folder_custom_values (field);

CREATE TABLE IF NOT EXISTS manuscript_custom_values (
  manuscript_id integer NOT NULL,
  field uuid NOT NULL,
  organization_id integer NOT NULL,
  -- Constant: only a manuscript (proposal) field can be referenced.
  owner text NOT NULL DEFAULT 'proposal' CHECK (owner = 'proposal'),
  value jsonb NOT NULL CHECK (jsonb_typeof(value) IN ('number', 'string', 'array')),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (manuscript_id, field),
  FOREIGN KEY (manuscript_id, organization_id)
    REFERENCES manuscripts (id, organization_id) ON DELETE CASCADE,
  FOREIGN KEY (field, organization_id, owner)
    REFERENCES custom_fields (api_id, organization_id, owner) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS manuscript_custom_values_field_idx ON manuscript_custom_values (field);
