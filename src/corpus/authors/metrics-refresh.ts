// Author metrics, kept current incrementally: ingestion queues the authors whose works changed
// (author_metrics_pending, or a range of ids in author_metrics_pending_ranges, in the batch's own
// transaction), and this recomputes exactly those, from their works, in chunks. Nothing here scans
// the whole corpus.
import type { Database, Queryable } from '../../infra/db/index.ts';
import { AuthorMetricsAccumulator, recentSince, type AuthorMetrics } from './metrics.ts';

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

// A person's metrics (corpus/authors/people.ts): every record of a person holds the metrics of all the
// person's records' works, so a candidate, a filter and an author page read one figure whichever
// record they start from. A record alone is a person of its own. What each metric is, is defined
// once, in authors/metrics.ts; here the recompute reads the persons' authorships back and writes what
// it answers.

// The pending records with every record of their persons.
const PERSONS = `
SELECT a.id AS author_id, coalesce(a.person_id, a.id) AS person_id FROM authors a WHERE a.id = ANY($1::int[])
UNION
SELECT b.id, b.person_id FROM authors a JOIN authors b ON b.person_id = a.person_id
 WHERE a.id = ANY($1::int[]) AND a.person_id IS NOT NULL`;

// The persons' authorships with their works, each work's authorships together (the accumulator
// counts a work once): one row per person, its authorships as one JSON list of
// [work_id, position, cited_by_count, publication_year, institution_ids, raw_affiliations] (a row
// per authorship cost PGlite more to hand over).
const PERSON_AUTHORSHIPS = `
SELECT p.person_id,
       json_agg(json_build_array(s.work_id, s.position, w.cited_by_count, w.publication_year,
                                 s.institution_ids, s.raw_affiliations) ORDER BY s.work_id, s.position)::text AS authorships
  FROM unnest($1::int[], $2::int[]) AS p(author_id, person_id)
  JOIN authorships s ON s.author_id = p.author_id JOIN works w ON w.id = s.work_id
 GROUP BY p.person_id`;

type AuthorshipFacts = [number, number, number, number | null, number[], string[]];

const INSTITUTION_NAMES = 'SELECT id, name FROM institutions WHERE id = ANY($1::int[])';

/** The metric columns of authors, as WRITE_METRICS and the initial load's COPY name them. */
export const METRIC_COLUMNS = [
  'articles_count',
  'citations_count',
  'h_index',
  'first_publication_year',
  'last_publication_year',
  'recent_affiliation',
  'recent_institution_id',
  'recent_affiliations',
] as const;

/** The metric columns' values (METRIC_COLUMNS' order), as the initial load COPYs them. */
export function metricValues(
  m: AuthorMetrics,
): [number, number, number, number | null, number | null, string | null, number | null, string] {
  return [
    m.articles_count,
    m.citations_count,
    m.h_index,
    m.first_publication_year,
    m.last_publication_year,
    m.recent_affiliation,
    m.recent_institution_id,
    JSON.stringify(m.recent_affiliations),
  ];
}

// Unchanged metrics are not rewritten (a re-ingest of unchanged works then writes nothing). Where no
// work states an affiliation, the row keeps the one an author entity gave it (corpus/openalex/entities.ts).
const WRITE_METRICS = `
WITH m AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS m(
    author_id integer, articles_count integer, citations_count integer, h_index integer,
    first_publication_year integer, last_publication_year integer, recent_affiliation text,
    recent_institution_id integer, states_affiliation boolean, recent_affiliations jsonb)
),
v AS (
  SELECT a.id, m.articles_count, m.citations_count, m.h_index, m.first_publication_year,
         m.last_publication_year,
         CASE WHEN m.states_affiliation THEN m.recent_affiliation ELSE a.recent_affiliation END AS recent_affiliation,
         CASE WHEN m.states_affiliation THEN m.recent_institution_id ELSE a.recent_institution_id END AS recent_institution_id,
         m.recent_affiliations
    FROM m JOIN authors a ON a.id = m.author_id
)
UPDATE authors SET
  articles_count = v.articles_count, citations_count = v.citations_count, h_index = v.h_index,
  first_publication_year = v.first_publication_year, last_publication_year = v.last_publication_year,
  recent_affiliation = v.recent_affiliation, recent_institution_id = v.recent_institution_id,
  recent_affiliations = v.recent_affiliations
FROM v
WHERE authors.id = v.id
  AND (authors.articles_count, authors.citations_count, authors.h_index, authors.first_publication_year,
       authors.last_publication_year, authors.recent_affiliation, authors.recent_institution_id,
       authors.recent_affiliations)
      IS DISTINCT FROM
      (v.articles_count, v.citations_count, v.h_index, v.first_publication_year, v.last_publication_year,
       v.recent_affiliation, v.recent_institution_id, v.recent_affiliations)`;

/** Recomputes the metrics of these records and of every record of their persons, inside `tx`. */
async function recompute(tx: Queryable, ids: readonly number[], currentYear: number): Promise<void> {
  const persons = await tx.query<{ author_id: number; person_id: number }>(PERSONS, [ids]);
  const { rows } = await tx.query<{ person_id: number; authorships: string }>(PERSON_AUTHORSHIPS, [
    persons.rows.map((p) => p.author_id),
    persons.rows.map((p) => p.person_id),
  ]);
  const since = recentSince(currentYear);
  const byPerson = new Map<number, AuthorMetricsAccumulator>();
  const institutionIds = new Set<number>();
  for (const r of rows) {
    const acc = new AuthorMetricsAccumulator(since);
    byPerson.set(r.person_id, acc);
    for (const [workId, position, cited, year, institutions, raw] of JSON.parse(
      r.authorships,
    ) as AuthorshipFacts[]) {
      acc.add(workId, cited, year, position, institutions, raw);
      for (const id of institutions) institutionIds.add(id);
    }
  }
  const names = new Map<number, string>();
  if (institutionIds.size > 0) {
    const found = await tx.query<{ id: number; name: string }>(INSTITUTION_NAMES, [[...institutionIds]]);
    for (const r of found.rows) names.set(r.id, r.name);
  }
  const none = new AuthorMetricsAccumulator(since);
  const metricsOf = new Map<number, AuthorMetrics>();
  const records = persons.rows.map((p) => {
    let m = metricsOf.get(p.person_id);
    if (!m) {
      m = (byPerson.get(p.person_id) ?? none).metrics((id) => names.get(id));
      metricsOf.set(p.person_id, m);
    }
    return { author_id: p.author_id, ...m };
  });
  await tx.query(WRITE_METRICS, [JSON.stringify(records)]);
}

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
export async function recomputePendingMetrics(
  db: Database,
  chunk = 20_000,
  currentYear = new Date().getUTCFullYear(),
): Promise<number> {
  await queuePendingRanges(db);
  let total = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      // Two statements, not one: the recompute must read the works with a snapshot taken after the
      // queue rows are locked. In one statement its snapshot would predate the locks, so a batch
      // that queued an author and committed in between would be taken off the queue unread.
      const locked = await tx.query<{ author_id: number }>(LOCK_PENDING, [chunk]);
      if (locked.rows.length === 0) return 0;
      const ids = locked.rows.map((r) => r.author_id);
      await recompute(tx, ids, currentYear);
      await tx.query('DELETE FROM author_metrics_pending WHERE author_id = ANY($1::int[])', [ids]);
      return locked.rows.length;
    });
    total += done;
    if (done < chunk) return total;
  }
}
