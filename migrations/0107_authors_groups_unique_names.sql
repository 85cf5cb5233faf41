-- Two groups of one organization with one name (letter case aside) were refused by a check before
-- the insert (src/authors-groups/store.ts refuseTakenName), which two creates at once on a server
-- PostgreSQL could both pass, and which groups made before it never met: two identical checkboxes on a
-- folder's settings, two identical labels on a candidate. Of each set of such names, the oldest group
-- (lowest id, the API's group_id) keeps its name; each other is renamed, never deleted, to its name
-- with " (2)", " (3)", ... (the first such name the organization has free, letter case aside; the
-- name shortened to stay within 200 characters), its id, records and folder settings unchanged. Then
-- a unique index makes the rule the database's.
DO $$
DECLARE
  g record;
  n integer;
  suffix text;
  candidate text;
BEGIN
  FOR g IN
    SELECT id, organization_id, name
      FROM (SELECT id, organization_id, name,
                   row_number() OVER (PARTITION BY organization_id, lower(name) ORDER BY id) AS k
              FROM authors_groups) named
     WHERE k > 1
     ORDER BY organization_id, id
  LOOP
    n := 2;
    LOOP
      suffix := ' (' || n || ')';
      candidate := left(g.name, 200 - char_length(suffix)) || suffix;
      EXIT WHEN NOT EXISTS (
        SELECT 1 FROM authors_groups
         WHERE organization_id = g.organization_id AND lower(name) = lower(candidate)
      );
      n := n + 1;
    END LOOP;
    UPDATE authors_groups SET name = candidate WHERE id = g.id;
  END LOOP;
END $$;

CREATE UNIQUE INDEX IF NOT EXISTS authors_groups_name_idx ON authors_groups (organization_id, lower(name));
