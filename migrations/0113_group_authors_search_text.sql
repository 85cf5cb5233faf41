-- A group's records search (src/authors-groups/store.ts listGroupAuthors) compares each word typed
-- with the name folded (fold_text, migration 0104) and with the client id and the emails letter case
-- aside. Computed on every row of the group at each search, twice (the count, the page), a search of a
-- group of 205,823 records held PGlite's thread 3.2 s (bench/hostile-group-search.ts), every other
-- request waiting. Each record now keeps what the search compares, written with the record: its name
-- folded, and its client id and emails lower-cased, a line end between the client id and the emails
-- (a word typed holds no line end, so no word is found across the two; the emails are one space
-- apart, as the search joined them). Generated columns follow every insert and update of a name, a
-- client id or emails, and are filled for the rows there are when added. Were fold_text redefined, a
-- migration would have to write them again (an UPDATE of the name to itself).

-- A name of ASCII alone folds to itself lower-cased (as foldAccents skips it): fold_text costs PGlite
-- some 14 µs a name even then, lower() 1.5, on each record an import writes.
-- array_to_string is only STABLE (it calls each element's output function), which a generated column
-- refuses; on text[] it depends on no setting.
CREATE OR REPLACE FUNCTION group_contact_search_text(client_id text, emails text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT lower(client_id || E'\n' || coalesce(array_to_string(emails, ' '), '')) $$;

ALTER TABLE group_authors
  ADD COLUMN IF NOT EXISTS search_name text
    GENERATED ALWAYS AS (CASE WHEN name ~ '[^\x01-\x7f]' THEN fold_text(name) ELSE lower(name) END) STORED,
  ADD COLUMN IF NOT EXISTS search_contact text
    GENERATED ALWAYS AS (group_contact_search_text(client_id, emails)) STORED;
