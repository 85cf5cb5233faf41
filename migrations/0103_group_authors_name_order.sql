-- The dashboard lists a group's records by name, a page at a time (ORDER BY lower(name), client_id
-- LIMIT/OFFSET, src/authors-groups/store.ts listGroupAuthors): without an index in that order every
-- page sorted the whole group (200,000 records: bench/group-pages.ts).
CREATE INDEX IF NOT EXISTS group_authors_name_order_idx ON group_authors (group_id, lower(name), client_id);
