-- The manuscripts' title search folds accents as every other dashboard search does (fold_text,
-- migration 0104; the words typed folded by foldAccents, its twin): "espanol" finds a title with
-- "Español", "muller" one with "Müller", where the words were compared as written. The index is of
-- the folded title's words, which the search now asks for in place of the title's own.
CREATE INDEX IF NOT EXISTS manuscripts_title_folded_words_idx
  ON manuscripts USING gin (to_tsvector('simple', fold_text(title)));
DROP INDEX IF EXISTS manuscripts_title_words_idx;
