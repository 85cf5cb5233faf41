// The database side of the initial load (initial-load.ts stages the batches): whether a run may take
// it, the ids of sources and institutions, each batch's COPYs, and the metrics at the end.
//
// The premise, that no one else writes works or authors during the run, is checked through the id
// sequences: every insert into works or authors takes a value from them, so a sequence that is not
// exactly where the run left it means someone else wrote. A batch checks before it claims its ids;
// the end checks after it has written, inside its transaction, so a writer that slips in between is
// caught either by the next check or by a key collision, and the run then goes on through the
// normal path (whose upserts are always right), leaving every author it touched queued for the
// metrics recompute.
import { isDatabaseUnavailable, type Database, type Transaction } from '../../infra/db/index.ts';
import type { InitialBatch, InitialLoadMetrics, InitialLoadStart, ResolveEntities } from './initial-load.ts';
import {
  copyStaged,
  ensureStaging,
  INSERT_NEW_SOURCES,
  mergeAuthorSet,
  stageInstitutions,
  stageSources,
  UPSERT_INSTITUTIONS,
  UPSERT_SOURCES,
} from './load-works.ts';

/** The sequences behind works.id and authors.id, as SQL names. */
interface IdSequences {
  works: string;
  authors: string;
}

async function idSequences(db: Pick<Database, 'query'>): Promise<IdSequences> {
  const { rows } = await db.query<IdSequences>(
    `SELECT pg_get_serial_sequence('works', 'id') AS works, pg_get_serial_sequence('authors', 'id') AS authors`,
  );
  return rows[0]!;
}

async function nextIds(db: Pick<Database, 'query'>, seq: IdSequences): Promise<InitialLoadStart> {
  const next = (name: string) =>
    `(SELECT (CASE WHEN is_called THEN last_value + 1 ELSE last_value END)::int FROM ${name})`;
  const { rows } = await db.query<InitialLoadStart>(
    `SELECT ${next(seq.works)} AS "nextWorkId", ${next(seq.authors)} AS "nextAuthorId"`,
  );
  return rows[0]!;
}

/** Where the run's ids start, when the corpus holds no work and no author; else null. */
export async function initialLoadStart(db: Database): Promise<InitialLoadStart | null> {
  const { rows } = await db.query<{ empty: boolean }>(
    'SELECT NOT EXISTS (SELECT 1 FROM works) AND NOT EXISTS (SELECT 1 FROM authors) AS empty',
  );
  if (!rows[0]!.empty) return null;
  // Each batch adds its works to its sources' counts, so the counts must start from the corpus's:
  // none (a count left by works deleted by hand would otherwise stay).
  await db.query(
    'UPDATE sources SET works_count = 0 WHERE works_count <> 0 AND NOT EXISTS (SELECT 1 FROM works)',
  );
  return nextIds(db, await idSequences(db));
}

/**
 * Answers the ids of sources and institutions: inserts the sources that do not exist yet (the batch
 * that uses them upserts their rows: `InitialBatch.copies`), and upserts the institutions (the normal
 * path's statement). It runs while earlier batches are being written, so it takes no lock a batch
 * takes: a batch updates sources' rows (their works_count, their upsert), which this leaves alone;
 * a batch only key-shares institutions' rows (its authors' foreign key), which an upsert that
 * changes no key does not block.
 */
export function entityResolver(db: Database): ResolveEntities {
  return (sources, institutions) =>
    db.transaction(async (tx) => {
      await copyStaged(db, tx, { copies: [...stageSources(sources), ...stageInstitutions(institutions)] });
      if (sources.length > 0) await tx.query(INSERT_NEW_SOURCES);
      if (institutions.length > 0) await tx.query(UPSERT_INSTITUTIONS);
      const sourceIds = await tx.query<{ key: string; id: number }>(
        'SELECT source_key AS key, id FROM sources WHERE source_key = ANY($1::text[])',
        [sources.map((s) => s.source_key)],
      );
      const institutionIds = await tx.query<{ key: string; id: number }>(
        'SELECT institution_key AS key, id FROM institutions WHERE institution_key = ANY($1::text[])',
        [institutions.map((i) => i.institution_key)],
      );
      return {
        sources: sourceIds.rows.map((r): [string, number] => [r.key, r.id]),
        institutions: institutionIds.rows.map((r): [string, number] => [r.key, r.id]),
      };
    });
}

// The normal path's rule for an author seen again (UPSERT_AUTHORS).
const UPDATE_CHANGED_AUTHORS = `
UPDATE authors SET ${mergeAuthorSet('u')}
FROM stage_author_updates u WHERE authors.id = u.id`;

// Every author of the run so far, as one range: the batch's own authors and, of the earlier batches'
// authors, those that gained works in this batch (a superset; the recompute is idempotent).
const QUEUE_AUTHOR_RANGE = `
INSERT INTO author_metrics_pending_ranges (first_author_id, next_author_id) VALUES ($1, $2)`;

// A work whose DOI or PubMed id has a retraction notice is retracted (as INSERT_WORKS marks it).
const MARK_RETRACTED = `
UPDATE works SET is_retracted = true
 WHERE id >= $1 AND id < $2 AND NOT is_retracted
   AND (doi IN (SELECT original_doi FROM retraction_notices WHERE original_doi IS NOT NULL)
        OR pmid IN (SELECT original_pmid FROM retraction_notices WHERE original_pmid IS NOT NULL))`;

// The batch's works added to their sources' counts: every work of the run is new (the premise), so
// no count of the works table is needed (a recount read every work of the source again, each batch).
const ADD_SOURCE_WORKS = `
UPDATE sources SET works_count = works_count + d.n
  FROM unnest($1::int[], $2::int[]) AS d(id, n) WHERE sources.id = d.id`;

const sequencesByDb = new WeakMap<Database, IdSequences>();

// `via` runs the query: inside a transaction it must be the transaction (PGlite has one connection).
async function sequencesOf(db: Database, via: Pick<Database, 'query'> = db): Promise<IdSequences> {
  let seq = sequencesByDb.get(db);
  if (!seq) {
    seq = await idSequences(via);
    sequencesByDb.set(db, seq);
  }
  return seq;
}

/**
 * Writes an initial-load batch inside `tx`. False when the premise no longer holds (the sequences
 * moved): nothing is written and the caller goes on through the normal path.
 */
export async function writeInitialBatch(
  db: Database,
  tx: Transaction,
  batch: InitialBatch,
): Promise<boolean> {
  const seq = await sequencesOf(db, tx);
  const at = await nextIds(tx, seq);
  if (at.nextWorkId !== batch.firstWorkId || at.nextAuthorId !== batch.firstAuthorId) return false;
  // Claim the batch's ids before writing them, so that no one else's insert takes them meanwhile.
  if (batch.nextWorkId > batch.firstWorkId)
    await tx.query('SELECT setval($1::regclass, $2)', [seq.works, batch.nextWorkId - 1]);
  if (batch.nextAuthorId > batch.firstAuthorId)
    await tx.query('SELECT setval($1::regclass, $2)', [seq.authors, batch.nextAuthorId - 1]);
  const direct = batch.copies.filter((c) => !c.table.startsWith('stage_'));
  const staged = batch.copies.filter((c) => c.table.startsWith('stage_'));
  for (const copy of direct) await db.copyCsv(copy.table, copy.columns, copy.csv, tx);
  if (staged.length > 0) {
    await copyStaged(db, tx, { copies: staged });
    if (staged.some((c) => c.table === 'stage_sources')) await tx.query(UPSERT_SOURCES);
    if (staged.some((c) => c.table === 'stage_author_updates')) await tx.query(UPDATE_CHANGED_AUTHORS);
  }
  if (batch.nextAuthorId > batch.runFirstAuthorId)
    await tx.query(QUEUE_AUTHOR_RANGE, [batch.runFirstAuthorId, batch.nextAuthorId]);
  const notices = await tx.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM retraction_notices) AS any');
  if (notices.rows[0]!.any) await tx.query(MARK_RETRACTED, [batch.firstWorkId, batch.nextWorkId]);
  if (batch.sourceIds.length > 0) await tx.query(ADD_SOURCE_WORKS, [batch.sourceIds, batch.sourceWorks]);
  return true;
}

class PremiseBroken extends Error {}

// The metrics the run computed, over the columns the recompute sets.
const UPDATE_METRICS = `
UPDATE authors SET
  articles_count = m.articles_count, citations_count = m.citations_count, h_index = m.h_index,
  first_publication_year = m.first_publication_year, last_publication_year = m.last_publication_year,
  recent_affiliation = m.recent_affiliation, recent_institution_id = m.recent_institution_id,
  recent_affiliations = m.recent_affiliations
FROM stage_author_metrics m WHERE authors.id = m.author_id`;

/**
 * Writes the metrics the run computed and takes its authors off the metrics queue. Returns true (the
 * run's authors are every author of the corpus, so every name key is to be relinked), or false when
 * someone else wrote meanwhile: then the authors stay queued and are recomputed from the database as
 * after any ingest.
 */
export async function finishInitialLoad(db: Database, metrics: InitialLoadMetrics): Promise<boolean> {
  const seq = await sequencesOf(db);
  const range = [metrics.firstAuthorId, metrics.nextAuthorId];
  try {
    // The metrics first, each part in a transaction of its own: on the server the parts' UPDATEs
    // share the cores (the run's last long statement, with the parse thread done). The authors stay
    // queued until the transaction below: if the premise turns out broken, or the run dies before,
    // the recompute writes their metrics again from the database.
    await Promise.all(
      metrics.copies.map((copy) =>
        db.transaction(async (tx) => {
          await ensureStaging(tx, ['stage_author_metrics']);
          await db.copyCsv(copy.table, copy.columns, copy.csv, tx);
          await tx.query(UPDATE_METRICS);
        }),
      ),
    );
    await db.transaction(async (tx) => {
      await tx.query(
        'DELETE FROM author_metrics_pending_ranges WHERE first_author_id >= $1 AND next_author_id <= $2',
        range,
      );
      // Authors of the run that a recompute elsewhere had already taken off the ranges.
      await tx.query('DELETE FROM author_metrics_pending WHERE author_id >= $1 AND author_id < $2', range);
      // Last, so that a writer whose rows this transaction could not see has moved a sequence by now.
      const at = await nextIds(tx, seq);
      if (at.nextAuthorId !== metrics.nextAuthorId || at.nextWorkId !== metrics.nextWorkId)
        throw new PremiseBroken();
      // The corpus was empty when the run began (initialLoadStart) and no sequence moved since: its
      // authors are the run's. Every name key is then to be relinked, which the end's steps read as
      // every key without the run's 25,520 keys (the ACL) going to the database and back several times.
      const { rows } = await tx.query<{ before: boolean }>(
        'SELECT EXISTS (SELECT 1 FROM authors WHERE id < $1) AS before',
        [metrics.firstAuthorId],
      );
      if (rows[0]!.before) throw new PremiseBroken();
    });
    return true;
  } catch (error) {
    // Someone else wrote meanwhile, or a concurrent batch's locks ended in a deadlock: the run's
    // authors are recomputed from the database instead. Queued again, whole: another ingest's
    // recompute may have taken them off the queue (with every committed work counted) before the
    // run's own metrics, which count only its works, were written over them above. Only a database
    // gone fails the run.
    if (error instanceof PremiseBroken || !isDatabaseUnavailable(error)) {
      await db.query(QUEUE_AUTHOR_RANGE, range);
      return false;
    }
    throw error;
  }
}
