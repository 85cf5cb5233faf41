// Candidates marked as referees of a manuscript. Marks hang off the manuscript id, which a re-upload
// of the same origin_id keeps, so they survive re-uploads.
import type { Queryable } from '../infra/db/index.ts';

export interface Mark {
  author_id: number;
  marked_by: string;
}

export async function marksOf(
  db: Queryable,
  manuscriptId: number,
  authorIds: readonly number[],
): Promise<Map<number, string>> {
  if (authorIds.length === 0) return new Map();
  const { rows } = await db.query<Mark>(
    `SELECT author_id, marked_by FROM manuscript_marks
      WHERE manuscript_id = $1 AND author_id = ANY($2::int[])`,
    [manuscriptId, [...authorIds]],
  );
  return new Map(rows.map((r) => [r.author_id, r.marked_by]));
}

export async function setMark(db: Queryable, manuscriptId: number, authorId: number, by: string) {
  await db.query(
    `INSERT INTO manuscript_marks (manuscript_id, author_id, marked_by) VALUES ($1, $2, $3)
     ON CONFLICT (manuscript_id, author_id) DO UPDATE SET marked_by = EXCLUDED.marked_by, marked_at = now()`,
    [manuscriptId, authorId, by],
  );
}

export async function removeMark(db: Queryable, manuscriptId: number, authorId: number): Promise<boolean> {
  const { rowCount } = await db.query(
    'DELETE FROM manuscript_marks WHERE manuscript_id = $1 AND author_id = $2',
    [manuscriptId, authorId],
  );
  return rowCount > 0;
}
