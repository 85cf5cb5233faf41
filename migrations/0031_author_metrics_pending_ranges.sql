-- Authors queued for the metrics recompute as ranges of ids (corpus/metrics.ts). The initial load
-- (corpus/initial-load.ts) gives ids to its authors in one increasing run, so each of its batches
-- queues them as one row, [first_author_id, next_author_id), instead of one row an author: those
-- inserts were a tenth of its database time on the ACL works. Its end deletes the run's ranges in the
-- transaction that writes the metrics; a run killed or handed over to the normal path leaves them,
-- and the recompute turns them into author_metrics_pending rows first.
CREATE TABLE IF NOT EXISTS author_metrics_pending_ranges (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  first_author_id integer NOT NULL,
  next_author_id integer NOT NULL
);
