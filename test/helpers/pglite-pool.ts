// Test databases on PGlite, reused within a worker process. Opening one from the migrated template
// costs about a second (a WebAssembly instance started and the data directory unpacked), some 300
// times a suite: 349 s of the PGlite suite's 631 s of file time on the 2-core machine (2026-11-30).
// A database a test has finished with is emptied instead (its tables truncated, its sequences
// restarted: tens of milliseconds) and handed to the next test of the same worker. A test never
// sees another's rows, and one whose schema a test changed (an index dropped by the bulk load and
// not rebuilt, a migration run by hand) is closed, never reused.
import type { Database, Transaction } from '../../src/infra/db/types.ts';
import { openPglite } from '../../src/infra/db/pglite.ts';

type Pglite = Awaited<ReturnType<typeof openPglite>>;

/** Bookkeeping the migrations write: the one table of the template that holds rows. */
const KEPT_TABLES = new Set(['schema_migrations']);

/**
 * What a test could change in the schema, as one hash: relations, columns, indexes (and whether each
 * is valid), functions, triggers, constraints, schemas. Compared with the template's before a database is reused.
 */
const SCHEMA_ITEMS = `
  SELECT 'n ' || nspname FROM pg_namespace
  UNION ALL
  SELECT 'r ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND n.nspname NOT LIKE 'pg\\_%temp\\_%'
  UNION ALL
  SELECT 'a ' || a.attrelid::regclass || '.' || a.attname || ' ' || a.atttypid || ' ' || a.attnotnull || ' ' || a.atthasdef
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND a.attnum > 0 AND NOT a.attisdropped
  UNION ALL
  SELECT 'p ' || p.oid::regprocedure || ' ' || md5(p.prosrc)
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
  UNION ALL
  SELECT 'i ' || indexrelid::regclass || ' ' || indisvalid || ' ' || indisunique || ' ' || indisready
  FROM pg_index WHERE indrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace)
  UNION ALL
  SELECT 't ' || tgrelid::regclass || '.' || tgname || ' ' || tgenabled::text FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL
  SELECT 'k ' || conrelid::regclass || '.' || conname || ' ' || contype::text FROM pg_constraint
  WHERE connamespace = 'public'::regnamespace`;
const SCHEMA_SHAPE = `SELECT md5(string_agg(item, E'\\n' ORDER BY item)) AS shape FROM (${SCHEMA_ITEMS}) AS items(item)`;

async function schemaShape(db: Pglite): Promise<string> {
  return (await db.query<{ shape: string }>(SCHEMA_SHAPE)).rows[0]!.shape;
}

/** The template's relation sizes as the planner reads them (pg_class), restored on every reuse. */
const SIZES = `SELECT array_agg(c.oid) AS oids, array_agg(c.relpages) AS pages, array_agg(c.reltuples) AS tuples,
  array_agg(c.relallvisible) AS visible FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace`;
interface Sizes {
  oids: number[];
  pages: number[];
  tuples: number[];
  visible: number[];
}

const idle: Pglite[] = [];
/** Beyond this many waiting, a database let go is closed: each keeps its WebAssembly memory. */
const MAX_IDLE = 4;
/**
 * What the template holds that a reused database is checked against and brought back to, read from
 * the first database this worker opens: its schema's shape, its relation sizes, and the tables a
 * test may write (the same while the shape is).
 */
let template: { shape: string; sizes: Sizes; tables: string[] } | undefined;

/** How many emptied databases wait in this worker; the next test takes the one let go last. */
export function pgliteDatabasesIdle(): number {
  return idle.length;
}

async function openFromTemplate(dump: Blob): Promise<Pglite> {
  const db = await openPglite({ loadDataDir: dump });
  template ??= {
    shape: await schemaShape(db),
    sizes: (await db.query<Sizes>(SIZES)).rows[0]!,
    tables: (
      await db.query<{ name: string; tablename: string }>(
        `SELECT format('%I.%I', schemaname, tablename) AS name, tablename FROM pg_tables WHERE schemaname = 'public'`,
      )
    ).rows
      .filter((t) => !KEPT_TABLES.has(t.tablename))
      .map((t) => t.name),
  };
  return db;
}

/**
 * Empties a database a test has finished with, as the template left it: every table but the
 * migrations' bookkeeping truncated, with the planner's statistics of their rows, every sequence
 * back at its start, the session's temporary tables and settings gone.
 * False when its schema is no longer the template's (then it must not be reused).
 */
async function emptyForReuse(db: Pglite): Promise<boolean> {
  // The session first: the bulk load's staging tables are temporary, and a setting a test made
  // would outlive it.
  await db.exec(`DISCARD TEMP; RESET ALL; SELECT pg_advisory_unlock_all();`);
  const { shape, sizes, tables } = template!;
  if ((await schemaShape(db)) !== shape) return false;
  // Only the tables that hold rows: a TRUNCATE of all forty takes several times as long.
  const holding = tables.length
    ? (
        await db.query<Record<string, boolean>>(
          `SELECT ${tables.map((name, i) => `EXISTS (SELECT 1 FROM ${name}) AS t${i}`).join(', ')}`,
        )
      ).rows[0]!
    : {};
  const withRows = tables.filter((_, i) => holding[`t${i}`]);
  if (withRows.length) await db.exec(`TRUNCATE ${withRows.join(', ')} CASCADE`);
  // What the planner knew of the rows gone (an ingest ends with ANALYZE), which TRUNCATE keeps in
  // part: a test that reads a query plan must see what a new database's planner sees.
  await db.query(
    `DELETE FROM pg_statistic s USING pg_class c WHERE c.oid = s.starelid AND c.relnamespace = 'public'::regnamespace`,
  );
  await db.query(
    `UPDATE pg_class c SET relpages = t.pages, reltuples = t.tuples, relallvisible = t.visible
     FROM unnest($1::oid[], $2::int[], $3::real[], $4::int[]) AS t(oid, pages, tuples, visible)
     WHERE c.oid = t.oid AND (c.relpages, c.reltuples, c.relallvisible) IS DISTINCT FROM (t.pages, t.tuples, t.visible)`,
    [sizes.oids, sizes.pages, sizes.tuples, sizes.visible],
  );
  await db.query(
    `SELECT setval(format('%I.%I', schemaname, sequencename)::regclass, start_value, false)
     FROM pg_sequences WHERE last_value IS NOT NULL`,
  );
  return true;
}

/** A database for one test: a reused one emptied by the last test that held it, or a new one. */
export async function leasePglite(dump: () => Promise<Blob>): Promise<Database & { close(): Promise<void> }> {
  const db = idle.pop() ?? (await openFromTemplate(await dump()));
  let released: Promise<void> | undefined;
  const live = () => {
    if (released) throw new Error('this test database was closed');
  };
  async function release() {
    const reusable = await emptyForReuse(db).catch(() => false);
    if (reusable && idle.length < MAX_IDLE) idle.push(db);
    else await db.close();
  }
  return {
    driver: db.driver,
    async query<R>(sql: string, params?: readonly unknown[]) {
      live();
      return db.query<R>(sql, params);
    },
    async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
      live();
      return db.transaction(fn);
    },
    async exec(script) {
      live();
      return db.exec(script);
    },
    async copyCsv(table, columns, csv, tx) {
      live();
      return db.copyCsv(table, columns, csv, tx);
    },
    memoryBytes: () => db.memoryBytes?.() ?? 0,
    close() {
      released ??= release();
      return released;
    },
  };
}
