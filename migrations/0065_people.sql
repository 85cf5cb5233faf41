-- One person, one candidate (corpus/people.ts). The catalogue sometimes splits one researcher across
-- author records ("Derek F. Wong", "Derek Fai Wong"); records judged to be one person share a
-- person_id: the id of the person's canonical record (the one with most works). NULL: a record
-- that is a person of its own. Ranking, conflicts and metrics then go by coalesce(person_id, id).
ALTER TABLE authors ADD COLUMN IF NOT EXISTS person_id integer;
CREATE INDEX IF NOT EXISTS authors_person_idx ON authors (person_id) WHERE person_id IS NOT NULL;
