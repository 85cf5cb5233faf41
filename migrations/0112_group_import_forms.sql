-- A group's import sent by the dashboard's form is recorded, for a few minutes, by the digest of the
-- form's one-time value (src/infra/form-seal.ts, as the API key and add-user forms are) with what it
-- wrote: the same form sent again (a second click on a slow import, a reload of its answer) writes
-- nothing and is answered with its first send's counts, where it imported every row again (and put
-- back, over an edit made meanwhile, what the first send had written). The second send of two at once
-- waits on the first's row (the primary key) and finds it once the first commits.
CREATE TABLE IF NOT EXISTS group_import_forms (
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  form_nonce text NOT NULL,
  group_id integer NOT NULL,
  added integer NOT NULL DEFAULT 0,
  updated integer NOT NULL DEFAULT 0,
  unchanged integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, form_nonce)
);
