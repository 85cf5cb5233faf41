// A real, isolated database for a test: a PGlite from the migrated template (a new one, or one
// another test of this worker let go, emptied: helpers/pglite-pool.ts), or, when DATABASE_URL is set,
// a database of its own on that server, copied from the run's migrated template
// (helpers/server-databases.ts). Each call gives a database of its own; no row is shared between
// tests that use separate calls.
import { mkdir, readFile } from 'node:fs/promises';
import { expect, inject } from 'vitest';
import { embeddedDatabaseDir, type Database } from '../../src/infra/db/index.ts';
import { openPglite } from '../../src/infra/db/pglite.ts';
import { openPostgres } from '../../src/infra/db/postgres.ts';
import { leasePglite } from './pglite-pool.ts';
import { copyServerTemplate, databaseUrl, dropServerDatabase } from './server-databases.ts';
import { assertRunsOnServerPass } from './server-pass.ts';

let template: Blob | undefined;

/**
 * The suite runs against server PostgreSQL (DATABASE_URL set: `.ci/run`'s second pass). Tests of the
 * embedded database alone, which set DATABASE_URL empty for the processes they start whatever the
 * suite's, skip that pass: it would run them again unchanged.
 */
export const suiteOnServerPostgres = Boolean(process.env.DATABASE_URL);

export interface TestDatabase extends Database {
  /** Drops the database (server) or closes the in-memory one (PGlite). Safe to call twice. */
  destroy(): Promise<void>;
  /**
   * The URL of this database on the server, for tests that open a second connection to it or give
   * it to a process they start.
   */
  connectionString?: string;
}

async function pgliteTemplate(): Promise<Blob> {
  template ??= new Blob([await readFile(inject('pgliteTemplate'))]);
  return template;
}

/**
 * A PGlite data directory holding the migrated database, made from the template, for the tests that
 * run `refmatch` processes on it (as `refmatch migrate` would make it, without its initdb and
 * migrations: about 1.4 s instead of 4 s).
 */
export async function createTestDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const db = await openPglite({ dataDir: embeddedDatabaseDir(dataDir), loadDataDir: await pgliteTemplate() });
  await db.close();
}

export async function createTestDatabase(): Promise<TestDatabase> {
  assertRunsOnServerPass(expect.getState().testPath);
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = await copyServerTemplate(url, inject('serverRun'));
    const connectionString = databaseUrl(url, name);
    const db = openPostgres({ connectionString, maxConnections: 4 });
    let destroyed = false;
    return {
      ...db,
      connectionString,
      async destroy() {
        if (destroyed) return;
        destroyed = true;
        await db.close();
        await dropServerDatabase(url, name);
      },
    };
  }
  const db = await leasePglite(pgliteTemplate);
  return { ...db, destroy: () => db.close() };
}

/**
 * `db` with every statement noted before it is passed on, those of its transactions too: for tests
 * that count the work a request does in statements, a count no machine's speed changes. An app
 * built on it serves the same rows as one built on `db`; closing it leaves `db` open.
 */
export function notingStatements(db: Database): {
  db: Database;
  statements: string[];
  /** Each statement's parameters, in the order of `statements`. */
  parameters: (readonly unknown[] | undefined)[];
} {
  const statements: string[] = [];
  const parameters: (readonly unknown[] | undefined)[] = [];
  const noted = <T>(text: string, params: readonly unknown[] | undefined, send: () => T): T => {
    statements.push(text);
    parameters.push(params);
    return send();
  };
  const noting: Database = {
    driver: db.driver,
    query: (sql, params) => noted(sql, params, () => db.query(sql, params)),
    exec: (script) => noted(script, undefined, () => db.exec(script)),
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          query: (sql, params) => noted(sql, params, () => tx.query(sql, params)),
          exec: (script) => noted(script, undefined, () => tx.exec(script)),
        }),
      ),
    copyCsv: (table, columns, csv, tx) => db.copyCsv(table, columns, csv, tx),
    close: async () => {},
  };
  return { db: noting, statements, parameters };
}

/** A node of a plan as EXPLAIN (ANALYZE, FORMAT JSON) gives it. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Join Filter'?: number;
  Plans?: PlanNode[];
}

/**
 * Rows the plan's scans of `table` returned, over all their loops; with `read`, also those its filter
 * removed (every row the scan looked at).
 */
export function rowsScanned(node: PlanNode, table: string, read = false): number {
  const own = node['Node Type'].includes('Scan') && node['Relation Name'] === table;
  const rows = node['Actual Rows'] + (read ? (node['Rows Removed by Filter'] ?? 0) : 0);
  return (
    (own ? rows * node['Actual Loops'] : 0) +
    (node.Plans ?? []).reduce((sum, child) => sum + rowsScanned(child, table, read), 0)
  );
}
