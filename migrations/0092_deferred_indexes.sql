-- The bulk mode of the initial load (src/corpus/ingest/deferred-indexes.ts) drops the secondary
-- indexes of works, authors and authorships before its COPYs and builds them after. Each dropped index
-- is recorded here in the transaction that drops it, and taken off in the one that builds it again,
-- so a run killed between the two leaves the list of what to build: the next ingest builds it first.
CREATE TABLE IF NOT EXISTS deferred_indexes (
  name text PRIMARY KEY,
  table_name text NOT NULL,
  -- pg_get_indexdef's CREATE INDEX statement.
  definition text NOT NULL,
  -- Index columns kept without statistics (ALTER INDEX ... SET STATISTICS 0, migration 0034).
  statistics_off smallint[] NOT NULL DEFAULT '{}'
);
