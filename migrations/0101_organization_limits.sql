-- Caps on what one organization can store (src/organizations/limits.ts, docs/operations.md).

-- The operator's per-organization overrides of the deployment's caps, by limit name
-- ({"records_per_group": 500000}); a name absent takes the deployment's value. Kept on the
-- organization's row because every capped create locks that row anyway (limits.ts).
ALTER TABLE organizations ADD COLUMN IF NOT EXISTS limit_overrides jsonb NOT NULL DEFAULT '{}';

-- Records per group are the one cap in the hundreds of thousands: counting them at each create
-- (an index scan of the whole group) would make filling a group quadratic, so the count is kept
-- on the group's row, in step with every insert and delete whoever writes them (the API, the
-- dashboard, a bulk load, a test inserting rows directly). Statement-level triggers with
-- transition tables: one update per statement and group, so deleting a 200,000-record group
-- (the cascade, one statement) updates its row once, not 200,000 times. A record's group_id is
-- never updated (the primary key holds it).
ALTER TABLE authors_groups ADD COLUMN IF NOT EXISTS record_count integer NOT NULL DEFAULT 0;

UPDATE authors_groups g SET record_count = c.n
  FROM (SELECT group_id, count(*)::integer AS n FROM group_authors GROUP BY group_id) c
 WHERE c.group_id = g.id AND g.record_count <> c.n;

CREATE OR REPLACE FUNCTION count_inserted_group_authors() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE authors_groups g SET record_count = g.record_count + c.n
    FROM (SELECT group_id, count(*)::integer AS n FROM inserted_rows GROUP BY group_id) c
   WHERE g.id = c.group_id;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION count_deleted_group_authors() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE authors_groups g SET record_count = g.record_count - c.n
    FROM (SELECT group_id, count(*)::integer AS n FROM deleted_rows GROUP BY group_id) c
   WHERE g.id = c.group_id;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS group_authors_count_inserted ON group_authors;
CREATE TRIGGER group_authors_count_inserted AFTER INSERT ON group_authors
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION count_inserted_group_authors();

DROP TRIGGER IF EXISTS group_authors_count_deleted ON group_authors;
CREATE TRIGGER group_authors_count_deleted AFTER DELETE ON group_authors
  REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION count_deleted_group_authors();
