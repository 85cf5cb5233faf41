-- An ORCID iD ends in an ISO 7064 11,2 check digit. The corpus took any iD-shaped string for one
-- (src/corpus/openalex/ids.ts normalizeOrcid checks the digit now): the ACL corpus holds the
-- placeholder 0000-0000-0000-0000 for two different people, whom the people merge made one person,
-- each then carrying the other's conflicts. Those strings are dropped; the authors of every person
-- that held one are queued, so that the next ingest links their people and metrics again.
CREATE OR REPLACE FUNCTION pg_temp.orcid_check_digit_ok(o text) RETURNS boolean
  LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  d text := replace(o, '-', '');
  total integer := 0;
  c integer;
BEGIN
  IF d !~ '^[0-9]{15}[0-9X]$' THEN
    RETURN false;
  END IF;
  FOR i IN 1..15 LOOP
    total := (total + substr(d, i, 1)::integer) * 2;
  END LOOP;
  c := (12 - total % 11) % 11;
  RETURN substr(d, 16, 1) = CASE WHEN c = 10 THEN 'X' ELSE c::text END;
END $$;

INSERT INTO author_metrics_pending (author_id)
SELECT b.id
  FROM authors a
  JOIN authors b ON coalesce(b.person_id, b.id) = coalesce(a.person_id, a.id)
 WHERE a.orcid IS NOT NULL AND NOT pg_temp.orcid_check_digit_ok(a.orcid)
ON CONFLICT DO NOTHING;

UPDATE authors SET orcid = NULL WHERE orcid IS NOT NULL AND NOT pg_temp.orcid_check_digit_ok(orcid);
