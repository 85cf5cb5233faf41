-- A work cited in a reference whose title the reference parser cut wrong ("Roe J (2021) Graph message
-- passing In: Proceedings of ICML") is still found by its title written whole in the reference's text
-- (referee-finder/conflict-facts.ts): the works whose title begins with the words that follow one of
-- the text's field boundaries are looked up by this key, their first three words as title_key folds
-- them, and only theirs are compared with the text.
CREATE OR REPLACE FUNCTION title_head(title text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  -- title_key's fold written out: an index expression resolves no other function of the schema.
  AS $$ SELECT nullif(array_to_string((string_to_array(
          btrim(regexp_replace(lower(title), '[^[:alnum:]]+', ' ', 'g')), ' '))[1:3], ' '), '') $$;

CREATE INDEX IF NOT EXISTS works_title_head_idx ON works (title_head(title));
-- No statistics on the key, as for title_key (migration 0034): ANALYZE would fold every sampled title.
ALTER INDEX works_title_head_idx ALTER COLUMN 1 SET STATISTICS 0;
