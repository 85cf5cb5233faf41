-- Every affiliation each author stated in the works of the last three years (corpus/author-metrics.ts
-- RecentAffiliation: institution id or null, name, normalised name, latest year stated), newest first,
-- kept with the other metrics by the initial load and the recompute (corpus/metrics.ts). The
-- shared-affiliation conflict compares them all (docs/conflicts.md).
--
-- NULL: not computed yet. Every author already in the corpus is queued for the recompute (`refmatch
-- corpus metrics`, or the next ingest, computes them); until then the conflict check compares the
-- author's most recent affiliation, as before.
ALTER TABLE authors ADD COLUMN IF NOT EXISTS recent_affiliations jsonb;
ALTER TABLE authors ALTER COLUMN recent_affiliations SET STATISTICS 0;

INSERT INTO author_metrics_pending_ranges (first_author_id, next_author_id)
SELECT min(id), max(id) + 1 FROM authors
HAVING count(*) > 0 AND NOT EXISTS (SELECT 1 FROM authors WHERE recent_affiliations IS NOT NULL);
