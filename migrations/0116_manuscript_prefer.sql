-- The organization's `prefer` setting (parsed or supplied) a manuscript's upload merged its metadata
-- by, so that its page says which side its "Used" column came from: the setting may have changed
-- since. Null for uploads made before it was kept (their page says it was not recorded).
ALTER TABLE manuscripts ADD COLUMN IF NOT EXISTS prefer text
  CHECK (prefer IS NULL OR prefer IN ('parsed', 'supplied'));
