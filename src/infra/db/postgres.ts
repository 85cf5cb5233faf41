import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { Database, Queryable, QueryResult, Transaction } from './types.ts';
import { DATE_OID, INT8_OID, NUMERIC_OID, parseDate, parseInt8, parseNumeric } from './type-parsers.ts';
import { quoteIdent } from './quote.ts';

const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return parseInt8;
    if (oid === DATE_OID) return parseDate;
    if (oid === NUMERIC_OID) return parseNumeric;
    return pg.types.getTypeParser(oid, format);
  },
};

export interface PostgresOptions {
  connectionString: string;
  /** The benches ingest each corpus into a schema of its own on one shared server database. */
  schema?: string;
  maxConnections?: number;
}

async function copyCsvOn(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  csv: string | Uint8Array,
) {
  const sql = `COPY ${quoteIdent(table)} (${columns.map(quoteIdent).join(', ')}) FROM STDIN WITH (FORMAT csv)`;
  await pipeline(Readable.from([csv]), client.query(copyFrom(sql)));
}

export function openPostgres(options: PostgresOptions): Database {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    types: typeParsers,
    ...(options.schema ? { options: `-c search_path=${quoteIdent(options.schema)},public` } : {}),
  });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  let closed = false;
  const clientsInTransaction = new WeakMap<Queryable, pg.PoolClient>();

  const db: Database = {
    driver: 'postgres',
    async query<R>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
      const result = await pool.query(sql, params as unknown[] | undefined);
      return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
    },
    async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      const tx: Transaction = {
        async exec(script: string) {
          await client.query(script);
        },
        async query<R>(sql: string, params?: readonly unknown[]) {
          const result = await client.query(sql, params as unknown[] | undefined);
          return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
        },
      };
      clientsInTransaction.set(tx, client);
      try {
        await client.query('BEGIN');
        const value = await fn(tx);
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async exec(script: string) {
      await pool.query(script);
    },
    async copyCsv(table, columns, csv, tx) {
      const inTx = tx ? clientsInTransaction.get(tx) : undefined;
      if (inTx) return copyCsvOn(inTx, table, columns, csv);
      const client = await pool.connect();
      try {
        await copyCsvOn(client, table, columns, csv);
      } finally {
        client.release();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
  return db;
}
