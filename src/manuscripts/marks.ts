// Candidates marked as referees of a manuscript. Marks hang off the manuscript id, which a re-upload
// of the same origin_id keeps, so they survive re-uploads.
import type { Database, Queryable } from '../infra/db/index.ts';
import { errors } from '../infra/errors.ts';
import { enqueueEvent } from '../webhooks/store.ts';

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

/** Every mark of the manuscript, with the marked author's name, newest first. */
export async function marksOfManuscript(
  db: Queryable,
  manuscriptId: number,
): Promise<Array<Mark & { name: string }>> {
  const { rows } = await db.query<Mark & { name: string }>(
    `SELECT m.author_id, m.marked_by, coalesce(a.display_name, 'Author ' || m.author_id) AS name
       FROM manuscript_marks m LEFT JOIN authors a ON a.id = m.author_id
      WHERE m.manuscript_id = $1 ORDER BY m.marked_at DESC, m.author_id`,
    [manuscriptId],
  );
  return rows;
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

export interface MarkChange {
  organizationId: number;
  manuscriptId: number;
  authorId: number;
  /** true: mark as referee; false: unmark. */
  marked: boolean;
  /** Email of the user who marks (required to mark) or unmarks (null when unknown, e.g. the CLI). */
  by: string | null;
}

/**
 * Marks or unmarks a candidate and writes the `mark_as_proposal_referee` webhook event in the same
 * transaction (docs/webhooks.md): the event exists if and only if the change committed.
 * Returns false when there was nothing to unmark (no event then).
 */
export async function changeMark(db: Database, change: MarkChange): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ origin_id: string; folder: string }>(
      `SELECT m.origin_id, f.name AS folder FROM manuscripts m JOIN folders f ON f.id = m.folder_id
        WHERE m.id = $1 AND m.organization_id = $2`,
      [change.manuscriptId, change.organizationId],
    );
    const manuscript = rows[0];
    if (!manuscript) throw errors.notFound('Manuscript');
    if (change.marked) {
      if (!change.by) throw errors.validation('A mark needs the email of the user who marks');
      await setMark(tx, change.manuscriptId, change.authorId, change.by);
    } else if (!(await removeMark(tx, change.manuscriptId, change.authorId))) {
      return false;
    }
    await enqueueEvent(tx, change.organizationId, 'mark_as_proposal_referee', {
      manuscript_id: change.manuscriptId,
      origin_id: manuscript.origin_id,
      folder: manuscript.folder,
      author_id: change.authorId,
      marked: change.marked,
      marked_by: change.marked ? change.by : null,
      changed_by: change.by,
    });
    return true;
  });
}
