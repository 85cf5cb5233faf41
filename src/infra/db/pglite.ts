import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable, QueryResult, Transaction } from './types.ts';
import { DATE_OID, INT8_OID, NUMERIC_OID, parseDate, parseInt8, parseNumeric } from './type-parsers.ts';
import { quoteIdent } from './quote.ts';
import { yieldToEventLoop } from '../event-loop.ts';

/**
 * rowCount as pg gives it: PGlite reports 0 affected rows for a SELECT (also one with FOR UPDATE),
 * where pg counts the rows returned. A statement that changed rows reports them either way.
 */
function rowCountOf(result: { affectedRows?: number; rows: unknown[] }): number {
  return result.affectedRows || result.rows.length;
}

export interface PgliteOptions {
  /** A data directory to persist to; undefined keeps the database in memory (tests). */
  dataDir?: string;
  /** A tarball from `dumpDataDir`, to start from an already-migrated template (tests). */
  loadDataDir?: Blob;
  /** shared_buffers in MB (PGlite's own default is 128); undefined leaves the database's setting. */
  sharedBuffersMb?: number;
}

/*
 * PGlite runs a query in this thread and answers it in the same turn of the event loop (a promise
 * settled without I/O), where a network driver's answer arrives as I/O in a later turn. A request of
 * many queries and the JavaScript between them (an upload: some 40 queries, and 1,000 authors
 * resolved and compared between them) then held the event loop for all of it, 0.25 s for a normal
 * upload and 2.7 s for one at the form's caps, every other request waiting. So each query's answer
 * is handed over after one turn of the loop (`yieldToEventLoop`, a setImmediate): what runs without
 * a pause is one query, or the code between two.
 */
const parsers = { [INT8_OID]: parseInt8, [DATE_OID]: parseDate, [NUMERIC_OID]: parseNumeric };

export async function openPglite(options: PgliteOptions = {}): Promise<Database & { pglite: PGlite }> {
  // One options object: PGlite ignores the second argument when the first is not a string, which
  // silently dropped the parsers and the template of every in-memory (test) database.
  const pglite = new PGlite({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    parsers,
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    ...(options.sharedBuffersMb ? { postgresqlconf: [`shared_buffers = ${options.sharedBuffersMb}MB`] } : {}),
  });
  await pglite.waitReady;
  if (options.dataDir) {
    // Without a lower cap the WAL lets the data directory grow to about twice the database.
    await pglite.query(`ALTER SYSTEM SET max_wal_size = '128MB'`);
    await pglite.query('SELECT pg_reload_conf()');
  }
  let closed = false;

  async function copyCsvOn(
    q: { query: PGlite['query'] },
    table: string,
    columns: readonly string[],
    csv: string | Uint8Array,
  ) {
    const sql = `COPY ${quoteIdent(table)} (${columns.map(quoteIdent).join(', ')}) FROM '/dev/blob' WITH (FORMAT csv)`;
    await q.query(sql, [], { blob: new Blob([csv]) });
  }

  const txHandles = new WeakMap<Queryable, { query: PGlite['query'] }>();

  return {
    driver: 'pglite',
    pglite,
    async query<R>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
      const result = await pglite.query<R>(sql, params as unknown[] | undefined);
      await yieldToEventLoop();
      return { rows: result.rows, rowCount: rowCountOf(result) };
    },
    async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
      // PGlite's own transaction() serializes against every other query on its single connection
      // and rolls back when fn throws, so a failed statement never poisons later queries.
      return pglite.transaction(async (inner) => {
        const tx: Transaction = {
          async exec(script: string) {
            await inner.exec(script);
          },
          async query<R>(sql: string, params?: readonly unknown[]) {
            const result = await inner.query<R>(sql, params as unknown[] | undefined);
            await yieldToEventLoop();
            return { rows: result.rows, rowCount: rowCountOf(result) };
          },
        };
        txHandles.set(tx, inner as unknown as { query: PGlite['query'] });
        return fn(tx);
      });
    },
    async exec(script: string) {
      await pglite.exec(script);
    },
    async copyCsv(table, columns, csv, tx) {
      const handle = tx ? txHandles.get(tx) : undefined;
      await copyCsvOn(handle ?? pglite, table, columns, csv);
    },
    memoryBytes() {
      // PGlite keeps its Emscripten module private; its heap view is the WebAssembly memory.
      const mod = (pglite as unknown as { mod?: { HEAPU8?: Uint8Array } }).mod;
      return mod?.HEAPU8?.byteLength ?? 0;
    },
    async close() {
      if (closed) return;
      closed = true;
      await pglite.close();
    },
  };
}
