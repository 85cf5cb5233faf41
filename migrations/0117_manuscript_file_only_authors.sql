-- The file's authors the form did not name (with `prefer=supplied`), as the upload used them for
-- conflicts: the manuscript page lists what the candidates were ranked with, not what today's merge
-- would give. Null for uploads made before it was kept (their page lists none).
ALTER TABLE manuscripts ADD COLUMN IF NOT EXISTS file_only_authors jsonb;
