// Authorships for the ranking, read from the database in one query per call (never per author), as
// one JSON document (queryPacked: a pool's ~19,000 rows at 1M works cost PGlite 100-140 ms as rows).
import type { Queryable } from '../infra/db/index.ts';
import { queryPacked } from '../infra/db/packed-rows.ts';
import type { Authorship, AuthorshipSource } from './rank-authors.ts';

interface Row {
  work_id: number;
  author_id: number;
  position: number;
}

// By person (corpus/authors/people.ts): every author id the ranking sees is a person's id, and a person's
// works are those of all its records.
// Plain index lookups: counting each work's authors per row cost hundreds of milliseconds for a
// pool of prolific authors. `authorsCount` is the count among the rows returned for that work, which
// is exact for `ofWorks` (all authors of the work) and 0 (unknown) for `ofAuthors`.
// Each row's person by a lookup of its own record: joined to authors, the planner read the whole
// authors table into a hash for the ~600 rows of 150 seed works (24 ms on the ACL corpus, server
// PostgreSQL, against 3.5 ms this way). The lookup reads the index authors (id) INCLUDE (person_id)
// alone (migration 0095), not the records' pages.
const OF_WORKS = `SELECT s.work_id,
       coalesce((SELECT a.person_id FROM authors a WHERE a.id = s.author_id), s.author_id) AS author_id,
       s.position
  FROM authorships s WHERE s.work_id = ANY($1::int[])`;
// The person's records first, then their authorships by one array lookup: joined row by row
// (a nested loop of index scans, as the planner chose for the OR) it took 33-48 ms for a pool of 200
// prolific authors on the ACL corpus, against 9-19 ms this way (16k rows, server PostgreSQL).
const OF_AUTHORS = `WITH records AS MATERIALIZED (
  SELECT a.id, coalesce(a.person_id, a.id) AS person FROM authors a
   WHERE (a.id = ANY($1::int[]) AND a.person_id IS NULL) OR a.person_id = ANY($1::int[]))
SELECT s.work_id, r.person AS author_id, s.position
  FROM authorships s JOIN records r ON r.id = s.author_id
 WHERE s.author_id = ANY(ARRAY(SELECT id FROM records))`;

const COLUMNS = ['work_id', 'author_id', 'position'] as const;

function toAuthorships(rows: Row[], counted: boolean): Authorship[] {
  const counts = new Map<number, number>();
  if (counted) for (const r of rows) counts.set(r.work_id, Math.max(counts.get(r.work_id) ?? 0, r.position));
  return rows.map((r) => ({
    workId: r.work_id,
    authorId: r.author_id,
    position: r.position,
    authorsCount: counts.get(r.work_id) ?? 0,
  }));
}

export function dbAuthorships(db: Queryable): AuthorshipSource {
  return {
    async ofWorks(workIds) {
      if (!workIds.length) return [];
      return toAuthorships(await queryPacked<Row>(db, OF_WORKS, [workIds], COLUMNS), true);
    },
    async ofAuthors(authorIds) {
      if (!authorIds.length) return [];
      return toAuthorships(await queryPacked<Row>(db, OF_AUTHORS, [authorIds], COLUMNS), false);
    },
  };
}
