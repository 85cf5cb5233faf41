-- The authors groups settings the last upload ranked its candidates with (the folder's groups, effect
-- and boost multiplier, as that upload answered them in `authors_groups_settings`): the manuscript
-- page says why its candidates look as they do (a limit_to folder's short list, boosted scores),
-- and the folder's settings may have changed since.
-- JSON null: the folder had no settings (no group effect). SQL NULL: candidates stored before this
-- column, with settings not known.
ALTER TABLE manuscript_candidates ADD COLUMN IF NOT EXISTS authors_groups_settings jsonb;
