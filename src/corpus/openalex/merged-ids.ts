// OpenAlex merges duplicate entities: the merged id disappears from later records, and
// `merged_ids/<entity>/<date>.csv.gz` (columns merge_date, id, merge_into_id) says which. The corpus
// follows: a merged work is deleted (its survivor is a record of its own); a merged author, source or
// institution hands everything that points at it to its survivor and is deleted, or, when the
// survivor is not in the corpus yet, takes the survivor's key, so that later records find it.
import { columnsByName, csvRecords, filePiecesOf, linesAtMost } from '../../infra/csv-read.ts';
import type { Database, Transaction } from '../../infra/db/index.ts';
import { openAlexKey } from './ids.ts';
import { QUEUE_AUTHOR } from '../authors/metrics-refresh.ts';
import type { SnapshotEntity } from './openalex-snapshot.ts';

export interface MergedId {
  from: string;
  into: string;
}

/** Pairs per transaction: a merge file of a busy day holds hundreds of thousands. */
const CHUNK = 5_000;

/**
 * The most characters a line of a merge file may hold (a line is a date and two ids, some 70): past
 * it the file is refused, naming the line, before the parser holds it.
 */
export const MERGED_IDS_LINE_MAX_CHARS = 64 * 1024;

/** The file's pairs, in chunks; rows without both ids are skipped (counted by the caller's total). */
export async function* readMergedIds(file: string): AsyncGenerator<MergedId[]> {
  const pieces = linesAtMost(
    filePiecesOf(file, Number.POSITIVE_INFINITY, { gunzip: file.endsWith('.gz') }),
    MERGED_IDS_LINE_MAX_CHARS,
  );
  const options = {
    skip_empty_lines: true,
    bom: true,
    relax_column_count: true,
    max_record_size: MERGED_IDS_LINE_MAX_CHARS,
  };
  let idAt: number | undefined;
  let intoAt: number | undefined;
  let header = true;
  let chunk: MergedId[] = [];
  for await (const { records } of csvRecords(pieces, options)) {
    for (const cells of records) {
      if (header) {
        const columns = columnsByName(cells);
        idAt = columns.get('id');
        intoAt = columns.get('merge_into_id');
        header = false;
        continue;
      }
      const from = idAt === undefined ? null : openAlexKey(cells[idAt]);
      const into = intoAt === undefined ? null : openAlexKey(cells[intoAt]);
      if (!from || !into || from === into) continue;
      chunk.push({ from, into });
      if (chunk.length >= CHUNK) {
        yield chunk;
        chunk = [];
      }
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** Applies one chunk of merges in one transaction; answers how many merged ids were in the corpus. */
export function applyMerges(db: Database, entity: SnapshotEntity, pairs: MergedId[]): Promise<number> {
  const from = pairs.map((p) => p.from);
  const into = pairs.map((p) => p.into);
  return db.transaction((tx) => MERGE[entity](tx, from, into));
}

type Merge = (tx: Transaction, from: string[], into: string[]) => Promise<number>;

/**
 * Folds merged rows of `table` into their survivors: rows whose survivor is not in the corpus take
 * its key (two merged rows with one absent survivor: the first takes it, the others fold into it);
 * then each statement runs with `r(old_id, new_id)`, the other merged rows and their survivors'
 * rows, to point what referred to the merged row at its survivor; then the merged rows are deleted.
 * Answers how many of the merged ids were in the corpus.
 */
async function fold(
  tx: Transaction,
  table: string,
  key: string,
  from: string[],
  into: string[],
  statements: string[],
): Promise<number> {
  const present = await tx.query(`SELECT 1 FROM ${table} WHERE ${key} = ANY($1::text[])`, [from]);
  await tx.query(
    `UPDATE ${table} t SET ${key} = p.into_key
       FROM (SELECT DISTINCT ON (into_key) from_key, into_key
               FROM unnest($1::text[], $2::text[]) AS p(from_key, into_key)
              WHERE NOT EXISTS (SELECT 1 FROM ${table} n WHERE n.${key} = into_key)
                AND EXISTS (SELECT 1 FROM ${table} o WHERE o.${key} = from_key)
              ORDER BY into_key, from_key) p
      WHERE t.${key} = p.from_key`,
    [from, into],
  );
  const pairs = `r AS (
    SELECT o.id AS old_id, n.id AS new_id
      FROM unnest($1::text[], $2::text[]) AS p(from_key, into_key)
      JOIN ${table} o ON o.${key} = p.from_key
      JOIN ${table} n ON n.${key} = p.into_key
     WHERE o.id <> n.id)`;
  for (const statement of [...statements, `DELETE FROM ${table} t USING r WHERE t.id = r.old_id`]) {
    await tx.query(`WITH ${pairs} ${statement}`, [from, into]);
  }
  return present.rowCount;
}

const MERGE: Record<SnapshotEntity, Merge> = {
  async works(tx, from) {
    // Their authors' counts change: queued for the recompute at the end of the run.
    await tx.query(
      `INSERT INTO author_metrics_pending (author_id)
       SELECT DISTINCT a.author_id FROM authorships a JOIN works w ON w.id = a.work_id
        WHERE w.work_key = ANY($1::text[]) ORDER BY 1 ${QUEUE_AUTHOR}`,
      [from],
    );
    await tx.query(
      `UPDATE sources s SET works_count = greatest(0, s.works_count - d.n)
         FROM (SELECT source_id, count(*)::int AS n FROM works
                WHERE work_key = ANY($1::text[]) AND source_id IS NOT NULL GROUP BY source_id) d
        WHERE s.id = d.source_id`,
      [from],
    );
    // Authorships go with them (ON DELETE CASCADE); the search index learns of it from the
    // work_deletions log (migration 0016).
    const deleted = await tx.query('DELETE FROM works WHERE work_key = ANY($1::text[])', [from]);
    return deleted.rowCount;
  },

  authors: (tx, from, into) =>
    fold(tx, 'authors', 'author_key', from, into, [
      'UPDATE authorships a SET author_id = r.new_id FROM r WHERE a.author_id = r.old_id',
      'UPDATE group_authors g SET linked_author_id = r.new_id FROM r WHERE g.linked_author_id = r.old_id',
      `INSERT INTO author_metrics_pending (author_id) SELECT DISTINCT new_id FROM r ORDER BY 1 ${QUEUE_AUTHOR}`,
      // Records whose person (corpus/authors/people.ts) is a merged record lose it, and are queued: the end
      // of the run links the people of the name keys it touched again.
      `INSERT INTO author_metrics_pending (author_id)
       SELECT DISTINCT a.id FROM authors a JOIN r ON a.person_id = r.old_id WHERE a.id <> r.old_id
        ORDER BY 1 ${QUEUE_AUTHOR}`,
      'UPDATE authors a SET person_id = NULL FROM r WHERE a.person_id = r.old_id',
    ]),

  sources: (tx, from, into) =>
    fold(tx, 'sources', 'source_key', from, into, [
      'UPDATE works w SET source_id = r.new_id FROM r WHERE w.source_id = r.old_id',
      // An organization's journal link follows the journal (one link per organization and source).
      `UPDATE journal_links j SET source_id = r.new_id FROM r
        WHERE j.source_id = r.old_id
          AND NOT EXISTS (SELECT 1 FROM journal_links k WHERE k.organization_id = j.organization_id AND k.source_id = r.new_id)`,
      `UPDATE sources s SET works_count = s.works_count + o.works_count
         FROM r JOIN sources o ON o.id = r.old_id WHERE s.id = r.new_id`,
    ]),

  institutions: (tx, from, into) =>
    fold(tx, 'institutions', 'institution_key', from, into, [
      'UPDATE authors a SET recent_institution_id = r.new_id FROM r WHERE a.recent_institution_id = r.old_id',
      // One pass over the authorships that name any merged institution (a scan of authorships per
      // chunk: institution merges are rare and few). Their authors are queued for the recompute,
      // which gives their recent affiliations (corpus/authors/metrics.ts) the survivor's id and name.
      `, moved AS (
         UPDATE authorships a
            SET institution_ids = (SELECT array_agg(coalesce(r2.new_id, x) ORDER BY ord)
                                     FROM unnest(a.institution_ids) WITH ORDINALITY u(x, ord)
                                     LEFT JOIN r r2 ON r2.old_id = x)
          WHERE a.institution_ids && (SELECT coalesce(array_agg(old_id), '{}') FROM r)
         RETURNING a.author_id)
       INSERT INTO author_metrics_pending (author_id) SELECT DISTINCT author_id FROM moved ORDER BY 1
       ${QUEUE_AUTHOR}`,
    ]),
};
