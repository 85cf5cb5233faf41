// Authorships for the ranking, read from the database in one query per call (never per author).
import type { Queryable } from '../infra/db/index.ts';
import type { Authorship, AuthorshipSource } from './ranking-index.ts';

interface Row {
  work_id: number;
  author_id: number;
  position: number;
  authors_count: number;
}

// The author count of each work tells last authors apart; counted once per work, not per row.
function selectWith(where: string): string {
  return `WITH mine AS (SELECT work_id, author_id, position FROM authorships WHERE ${where})
  SELECT m.work_id, m.author_id, m.position, c.n AS authors_count
  FROM mine m JOIN (
    SELECT work_id, count(*)::int AS n FROM authorships
    WHERE work_id IN (SELECT DISTINCT work_id FROM mine) GROUP BY work_id
  ) c ON c.work_id = m.work_id`;
}
const OF_WORKS = selectWith('work_id = ANY($1::int[])');
const OF_AUTHORS = selectWith('author_id = ANY($1::int[])');

function toAuthorship(r: Row): Authorship {
  return { workId: r.work_id, authorId: r.author_id, position: r.position, authorsCount: r.authors_count };
}

export function dbAuthorships(db: Queryable): AuthorshipSource {
  return {
    async ofWorks(workIds) {
      if (!workIds.length) return [];
      const { rows } = await db.query<Row>(OF_WORKS, [workIds]);
      return rows.map(toAuthorship);
    },
    async ofAuthors(authorIds) {
      if (!authorIds.length) return [];
      const { rows } = await db.query<Row>(OF_AUTHORS, [authorIds]);
      return rows.map(toAuthorship);
    },
  };
}
