-- A key's label (what it is for: "ScholarOne production"), set when it is made in the dashboard; and
-- the creating form's one-time value, so that the same form posted again (a reload of the page that
-- showed the new key) makes no second key whose secret nobody saw.
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS label text CHECK (char_length(label) <= 100);
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS form_nonce text;
CREATE UNIQUE INDEX IF NOT EXISTS api_keys_form_nonce_idx ON api_keys (organization_id, form_nonce)
  WHERE form_nonce IS NOT NULL;
