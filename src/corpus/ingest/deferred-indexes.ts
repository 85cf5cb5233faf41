// The initial load's bulk mode: into an empty corpus, the secondary indexes of the tables it COPYs into
// are dropped before the first batch and built once after the last, each on a connection of its own
// with a larger maintenance_work_mem (on the server; PGlite has one connection and builds them one
// after the other). Building an index over the loaded rows once costs less than keeping it up to date
// at every COPY. Keys stay: the primary keys and unique indexes are what the upserts and the
// premise's collisions rely on (initial-load-db.ts).
//
// Crash safety: each index is recorded in `deferred_indexes` (migration 0092) in the transaction that
// drops it and taken off in the one that builds it again. A run killed in between leaves the list;
// every ingest builds what it lists before anything else (`restoreDeferredIndexes`), so the next one,
// resuming the file or not, finds the schema whole.
import os from 'node:os';
import type { Database } from '../../infra/db/index.ts';

/** The tables the initial load COPYs its rows into. */
export const BULK_TABLES = ['works', 'authors', 'authorships'] as const;

/**
 * The share of the file read (by its bytes) after which the indexes of works and authorships are
 * built, on one connection, while the parse thread reads the rest; the last batches' COPYs keep
 * them up to date. Built after the last batch, they made the run's end wait for them on both
 * cores with the parse thread done (0.6 s of 7 at the ACL's 42k works, the parse side 5 s), while
 * during the parse the database side idles most of the time; their builds take about a fifth of
 * the parse's time at that size, so they end before it does. The upkeep of the last 30% of rows
 * costs back that share of what building them once saves.
 */
export const EARLY_BUILD_SHARE = 0.7;

/**
 * The tables whose indexes are built early. Those of authors wait for the end's metrics UPDATE, which
 * rewrites a third of their rows (21,558 of the ACL works' 59,878 authors) and would otherwise keep
 * them up to date: built early, the run's end took no less time.
 */
export const EARLY_BUILD_TABLES = ['works', 'authorships'] as const;

/** Memory for each index build (PostgreSQL's default is 64 MB). */
const BUILD_MEMORY = '256MB';

interface DeferredIndex {
  name: string;
  table_name: string;
  definition: string;
  statistics_off: number[];
}

/**
 * Drops the secondary indexes (not the keys: neither primary nor unique) of the bulk tables, recording
 * each; in one transaction. Answers how many were dropped.
 */
export async function deferIndexes(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<DeferredIndex>(
      `SELECT c.relname AS name, t.relname AS table_name, pg_get_indexdef(i.indexrelid) AS definition,
              coalesce((SELECT array_agg(a.attnum ORDER BY a.attnum) FROM pg_attribute a
                         WHERE a.attrelid = i.indexrelid AND a.attstattarget = 0), '{}') AS statistics_off
         FROM pg_index i
         JOIN pg_class c ON c.oid = i.indexrelid
         JOIN pg_class t ON t.oid = i.indrelid
        WHERE t.relnamespace = current_schema()::regnamespace AND t.relname = ANY($1::text[])
          AND NOT i.indisunique AND NOT i.indisprimary
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
        ORDER BY t.relname, c.relname`,
      [BULK_TABLES],
    );
    for (const index of rows) {
      await tx.query(
        `INSERT INTO deferred_indexes (name, table_name, definition, statistics_off)
         VALUES ($1, $2, $3, $4::smallint[])`,
        [index.name, index.table_name, index.definition, index.statistics_off],
      );
      await tx.query(`DROP INDEX ${quoteIdent(index.name)}`);
    }
    return rows.length;
  });
}

/**
 * Builds every index `deferred_indexes` lists (of `tables`), a transaction each, at most `lanes` at
 * once (by default as many as the machine has cores). Answers how many were built.
 */
export async function restoreDeferredIndexes(
  db: Database,
  tables: readonly string[] = BULK_TABLES,
  lanes = os.availableParallelism(),
): Promise<number> {
  const { rows } = await db.query<DeferredIndex>(
    `SELECT name, table_name, definition, statistics_off FROM deferred_indexes
      WHERE table_name = ANY($1::text[]) ORDER BY table_name, name`,
    [tables],
  );
  if (rows.length === 0) return 0;
  const queue = [...rows];
  await Promise.all(
    Array.from({ length: Math.min(lanes, queue.length) }, async () => {
      for (let index = queue.shift(); index; index = queue.shift()) await build(db, index);
    }),
  );
  return rows.length;
}

async function build(db: Database, index: DeferredIndex): Promise<void> {
  await db.transaction(async (tx) => {
    // Taken off first: if another process builds the same index meanwhile, this one waits for its
    // row lock and then finds nothing to do.
    const { rows } = await tx.query('DELETE FROM deferred_indexes WHERE name = $1 RETURNING name', [
      index.name,
    ]);
    if (rows.length === 0) return;
    await tx.query(`SET LOCAL maintenance_work_mem = '${BUILD_MEMORY}'`);
    await tx.query(index.definition.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS '));
    for (const column of index.statistics_off)
      await tx.query(`ALTER INDEX ${quoteIdent(index.name)} ALTER COLUMN ${column} SET STATISTICS 0`);
  });
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
