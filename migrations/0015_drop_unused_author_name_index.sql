-- No query looks authors up by lower(display_name): linking goes by ORCID, email and name_key
-- (corpus/linking.ts). The index only cost a maintenance step on every author the ingest inserts.
DROP INDEX IF EXISTS authors_name_idx;
