-- A group author's link to the corpus (corpus/linking.ts). Deleting a corpus author unlinks, never
-- deletes, the client's record.
ALTER TABLE group_authors DROP CONSTRAINT IF EXISTS group_authors_linked_author_fk;
ALTER TABLE group_authors
  ADD CONSTRAINT group_authors_linked_author_fk
  FOREIGN KEY (linked_author_id) REFERENCES authors(id) ON DELETE SET NULL;
