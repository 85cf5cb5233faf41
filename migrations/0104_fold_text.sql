-- Names and words are folded for comparison by one function (src/infra/text-fold.ts foldAccents).
-- Before it, the corpus's name keys (authors.name_key, what a manuscript author is looked up by) kept
-- the letters that NFKD does not decompose, ı đ ð þ œ, which the search index folded: "Yildiz"
-- written in a manuscript missed the corpus's "Yıldız", and the co-author conflict with her.

-- The keys that held one of those letters, folded as the code folds them now (each letter stands for
-- itself in a key, so folding the key is folding the name). Their authors are queued: the next
-- ingest links their people and reads their addresses again under the new keys.
INSERT INTO author_metrics_pending (author_id)
SELECT id FROM authors WHERE name_key ~ '[đðıþœ]'
ON CONFLICT DO NOTHING;
UPDATE authors
   SET name_key = replace(replace(translate(name_key, 'đðı', 'ddi'), 'þ', 'th'), 'œ', 'oe')
 WHERE name_key ~ '[đðıþœ]';

-- foldAccents in SQL, for searches typed without accents (the dashboard's group search): marks
-- decomposed and dropped (the combining diacritics block: SQL's regular expressions have no \p{M}),
-- lower case, and foldAccents's letter table (LETTER_FOLDS), capitals too because lower() leaves
-- them as they are under the C locale. test/infra/text-fold.test.ts holds the two equal.
CREATE OR REPLACE FUNCTION fold_text(t text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT replace(replace(replace(replace(replace(replace(replace(replace(
             translate(lower(regexp_replace(normalize(t, NFKD), E'[\\u0300-\\u036f]+', '', 'g')),
                       'øØłŁđĐðÐı', 'oollddddi'),
             'æ', 'ae'), 'Æ', 'ae'), 'œ', 'oe'), 'Œ', 'oe'), 'ß', 'ss'), 'ẞ', 'ss'), 'þ', 'th'), 'Þ', 'th')
  $$;
