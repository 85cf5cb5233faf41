-- Deleted works, in order: how the in-process retrieval index (retrieval/db-work-index.ts) learns of a
-- deletion, by any connection, with an index range read per poll. It used to count `works` every 15th
-- poll and compare: a scan of the whole table, which on the embedded database runs on the serving
-- thread (~0.3-0.9 s at a million works, holding every request meanwhile). refmatch itself deletes
-- no work; this covers deletions made by hand or by a future tool.
CREATE TABLE IF NOT EXISTS work_deletions (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  work_id integer NOT NULL
);

CREATE OR REPLACE FUNCTION log_work_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO work_deletions (work_id) VALUES (OLD.id);
  RETURN NULL;
END;
$$;

DROP TRIGGER IF EXISTS works_log_deletion ON works;
CREATE TRIGGER works_log_deletion AFTER DELETE ON works FOR EACH ROW EXECUTE FUNCTION log_work_deletion();
