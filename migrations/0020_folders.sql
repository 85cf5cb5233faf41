-- Folders (a journal code or panel name) of an organization, and the referee finder settings a folder
-- may carry. A folder is created the first time an upload names it, so its name is unique per
-- organization and an upsert on (organization_id, name) is how concurrent uploads agree on one row.

CREATE TABLE IF NOT EXISTS folders (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 256),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, name)
);

-- Authors groups are named by id only: the groups table belongs to another capability, and a group
-- that is deleted later simply stops appearing in `authors_groups_settings`.
CREATE TABLE IF NOT EXISTS folder_referee_settings (
  folder_id integer PRIMARY KEY REFERENCES folders(id) ON DELETE CASCADE,
  authors_group_ids integer[] NOT NULL DEFAULT '{}',
  effect text NOT NULL DEFAULT 'highlight' CHECK (effect IN ('highlight', 'limit_to', 'boost')),
  boost_multiplier double precision CHECK (boost_multiplier IS NULL OR boost_multiplier > 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);
