// Authorships for the ranking, read from the database in one query per call (never per author).
import type { Queryable } from '../infra/db/index.ts';
import type { Authorship, AuthorshipSource } from './rank-authors.ts';

interface Row {
  work_id: number;
  author_id: number;
  position: number;
}

// Plain index lookups: counting each work's authors per row cost hundreds of milliseconds for a
// pool of prolific authors. `authorsCount` is the count among the rows returned for that work, which
// is exact for `ofWorks` (all authors of the work) and 0 (unknown) for `ofAuthors`.
const OF_WORKS = 'SELECT work_id, author_id, position FROM authorships WHERE work_id = ANY($1::int[])';
const OF_AUTHORS = 'SELECT work_id, author_id, position FROM authorships WHERE author_id = ANY($1::int[])';

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
      const { rows } = await db.query<Row>(OF_WORKS, [workIds]);
      return toAuthorships(rows, true);
    },
    async ofAuthors(authorIds) {
      if (!authorIds.length) return [];
      const { rows } = await db.query<Row>(OF_AUTHORS, [authorIds]);
      return toAuthorships(rows, false);
    },
  };
}
