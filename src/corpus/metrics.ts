// Author metrics, kept current incrementally: ingestion queues the authors whose works changed
// (author_metrics_pending, or a range of ids in author_metrics_pending_ranges, in the batch's own
// transaction), and this recomputes exactly those, from their works, in chunks. Nothing here scans
// the whole corpus.
import type { Database } from '../infra/db/index.ts';

/**
 * How a batch queues authors: an author already queued has its queue row locked, not left alone
 * (ON CONFLICT DO NOTHING would take no lock). Otherwise a recompute running meanwhile in another
 * ingest could read the author's works without this batch's (not yet committed), then delete the
 * queue row, and the batch would commit with its works never counted. With the lock, the recompute
 * skips the row (SKIP LOCKED) and this ingest's own recompute counts it; a row the recompute locked
 * first is waited for, and once it is deleted the insert queues the author anew. Queue in
 * author_id order, so that two batches lock rows in one order.
 */
export const QUEUE_AUTHOR = 'ON CONFLICT (author_id) DO UPDATE SET author_id = excluded.author_id';

// A person's metrics (corpus/people.ts): every record of a person holds the metrics of all the
// person's records' works, so a candidate, a filter and an author page read one figure whichever
// record they start from. A record alone is a person of its own.
// h-index: with a person's works ranked by citations (1 = most cited), the number of works whose
// citations are at least their rank. The most recent affiliation is taken from the newest work that
// states one, preferring the institution's name to the raw string.
export const RECOMPUTE = `
WITH q AS (SELECT unnest($1::int[]) AS author_id),
-- The pending records with every record of their persons.
p AS (
  SELECT a.id AS author_id, coalesce(a.person_id, a.id) AS person_id FROM authors a JOIN q ON q.author_id = a.id
  UNION
  SELECT b.id, b.person_id FROM authors a JOIN q ON q.author_id = a.id JOIN authors b ON b.person_id = a.person_id
   WHERE a.person_id IS NOT NULL
),
-- The persons' authorships with their works, read once for both the counts and the affiliation (two
-- joins of authorships and works cost ~20% more).
aw AS MATERIALIZED (
  SELECT p.person_id, a.work_id, a.position, w.cited_by_count, w.publication_year,
         a.institution_ids[1] AS institution_id, a.raw_affiliations[1] AS raw_affiliation,
         cardinality(a.institution_ids) > 0 OR cardinality(a.raw_affiliations) > 0 AS states_affiliation
    FROM authorships a JOIN p USING (author_id) JOIN works w ON w.id = a.work_id
),
ranked AS (
  SELECT person_id, cited_by_count, publication_year,
         row_number() OVER (PARTITION BY person_id ORDER BY cited_by_count DESC) AS rank
    FROM (SELECT DISTINCT person_id, work_id, cited_by_count, publication_year FROM aw) d
),
m AS (
  SELECT person_id, count(*)::int AS articles, coalesce(sum(cited_by_count), 0)::int AS citations,
         count(*) FILTER (WHERE cited_by_count >= rank)::int AS h,
         min(publication_year) AS first_year, max(publication_year) AS last_year
    FROM ranked GROUP BY person_id
),
aff AS (
  SELECT DISTINCT ON (aw.person_id) aw.person_id,
         coalesce(i.name, aw.raw_affiliation) AS affiliation, i.id AS institution_id
    FROM aw LEFT JOIN institutions i ON i.id = aw.institution_id
   WHERE aw.states_affiliation
   ORDER BY aw.person_id, aw.publication_year DESC NULLS LAST, aw.work_id DESC, aw.position
),
updated AS (
  UPDATE authors SET
    articles_count = coalesce(m.articles, 0),
    citations_count = coalesce(m.citations, 0),
    h_index = coalesce(m.h, 0),
    first_publication_year = m.first_year,
    last_publication_year = m.last_year,
    recent_affiliation = coalesce(aff.affiliation, authors.recent_affiliation),
    recent_institution_id = CASE WHEN aff.person_id IS NULL THEN authors.recent_institution_id ELSE aff.institution_id END
  FROM p LEFT JOIN m USING (person_id) LEFT JOIN aff USING (person_id)
  WHERE authors.id = p.author_id
    -- Unchanged metrics are not rewritten (a re-ingest of unchanged works then writes nothing).
    AND (authors.articles_count, authors.citations_count, authors.h_index, authors.first_publication_year,
         authors.last_publication_year, authors.recent_affiliation, authors.recent_institution_id)
        IS DISTINCT FROM
        (coalesce(m.articles, 0), coalesce(m.citations, 0), coalesce(m.h, 0), m.first_year, m.last_year,
         coalesce(aff.affiliation, authors.recent_affiliation),
         CASE WHEN aff.person_id IS NULL THEN authors.recent_institution_id ELSE aff.institution_id END)
  RETURNING authors.id
)
DELETE FROM author_metrics_pending d USING q WHERE d.author_id = q.author_id`;

// The queue rows and the authors' rows are both locked, skipping any another transaction holds, so
// that the recompute never waits: a batch in flight holds them (QUEUE_AUTHOR, the authors upsert),
// and waiting on it while holding what it waits for would deadlock. What is skipped stays queued
// for that ingest's own recompute.
const LOCK_PENDING = `
SELECT q.author_id FROM author_metrics_pending q JOIN authors a ON a.id = q.author_id
 ORDER BY q.author_id LIMIT $1 FOR UPDATE OF q, a SKIP LOCKED`;

// Queued ranges of author ids (the initial load's) become queue rows, in author order as a batch
// queues them. A range another transaction holds (being turned, or deleted by the initial load's end)
// is skipped: that transaction sees to it.
const QUEUE_PENDING_RANGES = `
WITH r AS (
  DELETE FROM author_metrics_pending_ranges
   WHERE id IN (SELECT id FROM author_metrics_pending_ranges ORDER BY id FOR UPDATE SKIP LOCKED)
  RETURNING first_author_id, next_author_id
)
INSERT INTO author_metrics_pending (author_id)
SELECT DISTINCT a.id FROM authors a JOIN r ON a.id >= r.first_author_id AND a.id < r.next_author_id
 ORDER BY a.id
${QUEUE_AUTHOR}`;

/** Turns the queued ranges of author ids into queue rows (see QUEUE_PENDING_RANGES). */
export async function queuePendingRanges(db: Database): Promise<void> {
  await db.transaction((tx) => tx.query(QUEUE_PENDING_RANGES));
}

/** Recomputes the metrics of every pending author; returns how many were recomputed. */
export async function recomputePendingMetrics(db: Database, chunk = 20_000): Promise<number> {
  await queuePendingRanges(db);
  let total = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      // Two statements, not one: the recompute must read the works with a snapshot taken after the
      // queue rows are locked. In one statement its snapshot would predate the locks, so a batch
      // that queued an author and committed in between would be taken off the queue unread.
      const locked = await tx.query<{ author_id: number }>(LOCK_PENDING, [chunk]);
      if (locked.rows.length === 0) return 0;
      await tx.query(RECOMPUTE, [locked.rows.map((r) => r.author_id)]);
      return locked.rows.length;
    });
    total += done;
    if (done < chunk) return total;
  }
}

/** Academic age as the candidate and author pages show it: years since the first publication. */
export function academicAge(firstPublicationYear: number | null, now = new Date()): number | null {
  return firstPublicationYear === null ? null : now.getUTCFullYear() - firstPublicationYear;
}
