-- The conflict check asks, once an upload, which institutions the corpus names after a comma of an
-- organization the upload's affiliations name ("University of California, Davis" and "..., Berkeley":
-- two campuses, referee-finder/conflict-facts.ts institutionCampuses): by the normalized name's start,
-- a range of this index.
CREATE INDEX IF NOT EXISTS institutions_campus_prefix_idx
  ON institutions (normalized_name text_pattern_ops) WHERE strpos(name, ',') > 0;
